import type { Request } from 'express';
import { loadContract, type OpenApiDocument, resolveRef } from '../contract/openapi';
import type { BodyOf, OperationId, PathOf, QueryOf } from '../contract/types';

/** A request's path, query and body as the contract describes them for operation `K`. */
export interface Validated<K extends OperationId> {
  path: PathOf<K>;
  query: QueryOf<K>;
  body: BodyOf<K>;
}

type ParamKind = 'integer' | 'number' | 'boolean' | 'string';

interface ParamSpec {
  name: string;
  in: 'path' | 'query';
  kind: ParamKind;
  required: boolean;
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Follows local `$ref`s (`#/components/...`) until a node without one. */
function deref(doc: OpenApiDocument, node: unknown, seen: readonly string[] = []): Record<string, unknown> {
  const obj = (node ?? {}) as Record<string, unknown>;
  const ref = obj.$ref;
  if (typeof ref !== 'string') return obj;
  if (seen.includes(ref)) throw new Error(`recursive reference ${ref} in the contract`);
  return deref(doc, resolveRef(doc, ref), [...seen, ref]);
}

function paramSpec(doc: OpenApiDocument, raw: unknown, operationId: string): ParamSpec | undefined {
  const p = deref(doc, raw);
  if (p.in !== 'path' && p.in !== 'query') return undefined;
  const type = deref(doc, p.schema).type;
  if (type !== 'integer' && type !== 'number' && type !== 'boolean' && type !== 'string') {
    throw new Error(`parameter ${String(p.name)} of ${operationId} has schema type ${JSON.stringify(type)}, which validated() cannot read`);
  }
  return { name: String(p.name), in: p.in, kind: type, required: p.required === true };
}

/** Every operation's path and query parameters, read once from the contract (path-level ones included). */
function indexParameters(doc: OpenApiDocument): Map<string, ParamSpec[]> {
  const index = new Map<string, ParamSpec[]>();
  const paths = (doc.paths ?? {}) as Record<string, Record<string, unknown>>;
  for (const item of Object.values(paths)) {
    for (const method of methods) {
      const op = item[method] as { operationId?: string; parameters?: unknown[] } | undefined;
      if (!op?.operationId) continue;
      const specs = new Map<string, ParamSpec>();
      for (const raw of [...((item.parameters as unknown[] | undefined) ?? []), ...(op.parameters ?? [])]) {
        const spec = paramSpec(doc, raw, op.operationId);
        // An operation's own parameter overrides a path-level one of the same name and location.
        if (spec) specs.set(`${spec.in}:${spec.name}`, spec);
      }
      index.set(op.operationId, [...specs.values()]);
    }
  }
  return index;
}

let parameterIndex: Map<string, ParamSpec[]> | undefined;

function parametersOf(operationId: OperationId): ParamSpec[] {
  parameterIndex ??= indexParameters(loadContract());
  const specs = parameterIndex.get(operationId);
  if (!specs) throw new Error(`the contract has no operation ${operationId}`);
  return specs;
}

/** A parameter value as its contract type: raw strings are converted, values the validator already converted are kept. */
function coerce(raw: unknown, kind: ParamKind): string | number | boolean | undefined {
  if (typeof raw === 'string') {
    if (kind === 'integer' || kind === 'number') return Number(raw);
    if (kind === 'boolean') return raw === 'true';
    return raw;
  }
  if (typeof raw === 'number' && (kind === 'integer' || kind === 'number')) return raw;
  if (typeof raw === 'boolean' && kind === 'boolean') return raw;
  return undefined;
}

/**
 * The request's path parameters, query parameters and body, typed by the generated contract for
 * `operationId`. The validator has already checked them against the same operation, but routes
 * get path parameters as raw strings again (Express parses them per route), and query values as
 * strings or as the validator converted them; both are brought to their contract schema type here.
 * Route paths must name their parameters as the contract does (`:subscription_id`, not `:id`).
 */
export function validated<K extends OperationId>(req: Request, operationId: K): Validated<K> {
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const params = req.params as Record<string, string | undefined>;
  const rawQuery = req.query as Record<string, unknown>;
  for (const spec of parametersOf(operationId)) {
    const value = spec.in === 'path' ? params[spec.name] : rawQuery[spec.name];
    const converted = coerce(Array.isArray(value) ? (value[0] as unknown) : value, spec.kind);
    if (converted === undefined) {
      if (spec.in === 'path') throw new Error(`the route of ${operationId} does not name the path parameter :${spec.name}`);
      continue;
    }
    (spec.in === 'path' ? path : query)[spec.name] = converted;
  }
  // The shapes come from the contract the validator enforced; only the static types are asserted here.
  return { path, query, body: req.body as unknown } as Validated<K>;
}
