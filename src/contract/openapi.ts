import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { packageRoot } from '../lib/package-root';

/** Path of the contract every request is validated against. */
export const contractPath = join(packageRoot, 'openapi', 'openapi.yaml');

/** A parsed OpenAPI document; its shape is checked by the validator, not here. */
export type OpenApiDocument = Record<string, unknown> & {
  components?: { schemas?: Record<string, unknown> };
};

let cached: OpenApiDocument | undefined;

/** The contract, parsed once per process. Callers must not mutate it: clone first. */
export function loadContract(): OpenApiDocument {
  cached ??= parse(readFileSync(contractPath, 'utf8')) as OpenApiDocument;
  return cached;
}

/** The node a local reference (`#/components/schemas/Order`) points at in `contract`. */
export function resolveRef(contract: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local references are supported, not ${ref}`);
  const target = ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), contract);
  if (target === undefined) throw new Error(`${ref} points nowhere in the contract`);
  return target;
}

/**
 * `node` with every local `$ref` replaced by what it points at (a `$ref`'s siblings, such as its
 * `description`, are kept over the target's), so a schema stands alone, e.g. for a JSON Schema
 * validator or the event catalogue. Recursive references are refused. Returns new objects.
 */
export function inlineRefs(node: unknown, contract: OpenApiDocument, seen: readonly string[] = []): unknown {
  if (Array.isArray(node)) return node.map((n) => inlineRefs(n, contract, seen));
  if (!node || typeof node !== 'object') return node;
  const { $ref: ref, ...siblings } = node as Record<string, unknown>;
  if (typeof ref === 'string') {
    if (seen.includes(ref)) throw new Error(`recursive reference ${ref} in the contract`);
    const target = inlineRefs(resolveRef(contract, ref), contract, [...seen, ref]);
    return { ...(target as object), ...(inlineRefs(siblings, contract, seen) as object) };
  }
  return Object.fromEntries(Object.entries(siblings).map(([k, v]) => [k, inlineRefs(v, contract, seen)]));
}
