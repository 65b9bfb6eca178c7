import type { OpenApiDocument } from './openapi';

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function refsIn(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const n of node) refsIn(n, out);
  else if (isNode(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.add(v);
      else refsIn(v, out);
    }
  }
  return out;
}

/** Every component `start` reaches through `$ref`s, itself included. */
function reachable(contract: OpenApiDocument, start: Set<string>): Set<string> {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length) {
    const ref = queue.pop()!;
    if (seen.has(ref) || !ref.startsWith('#/')) continue;
    seen.add(ref);
    const target = ref.slice(2).split('/').reduce<unknown>((at, key) => (isNode(at) ? at[key] : undefined), contract);
    for (const r of refsIn(target, new Set())) queue.push(r);
  }
  return seen;
}

/** Closes `schema` and the inline objects below it that say nothing of additions; `allOf` members stay open (closing one refuses its siblings' fields). */
function close(schema: unknown): void {
  if (!isNode(schema) || '$ref' in schema) return;
  if (isNode(schema.properties) && !('additionalProperties' in schema)) schema.additionalProperties = false;
  for (const p of Object.values(isNode(schema.properties) ? schema.properties : {})) close(p);
  close(schema.items);
  for (const key of ['oneOf', 'anyOf'] as const) for (const member of Array.isArray(schema[key]) ? schema[key] : []) close(member);
}

/**
 * A copy of `contract` for checking the service's own responses exactly: the published contract
 * leaves response schemas open so generated clients tolerate added fields, while the service
 * must still send only what it describes. Schemas reached by a request stay as they are.
 */
export function withClosedResponses(contract: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(contract);
  const fromRequests = new Set<string>();
  const fromResponses = new Set<string>();
  for (const item of Object.values(isNode(copy.paths) ? copy.paths : {})) {
    if (!isNode(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      if (method === 'parameters' || !isNode(op)) refsIn(op, fromRequests);
      else {
        refsIn(op.parameters, fromRequests);
        refsIn(op.requestBody, fromRequests);
        refsIn(op.responses, fromResponses);
      }
    }
  }
  const requestSide = reachable(copy, fromRequests);
  const schemas = copy.components?.schemas ?? {};
  for (const ref of reachable(copy, fromResponses)) {
    const name = ref.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : undefined;
    if (name && !requestSide.has(ref)) close(schemas[name]);
  }
  return copy;
}
