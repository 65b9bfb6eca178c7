import type { OpenApiDocument } from '../http/contract';
import type { EventTypeInfo } from '../http/schemas';

interface CatalogEntry {
  name: EventTypeInfo['name'];
  description: string;
  data_schema: string;
}

/** Inlines local `#/components/schemas/...` references so each schema stands alone. */
function inlineRefs(node: unknown, schemas: Record<string, unknown>, seen: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((n) => inlineRefs(n, schemas, seen));
  if (!node || typeof node !== 'object') return node;
  const obj = node as Record<string, unknown>;
  const ref = obj.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const name = ref.slice('#/components/schemas/'.length);
    if (seen.includes(name)) throw new Error(`recursive schema ${name} in the event catalogue`);
    const siblings = Object.fromEntries(Object.entries(obj).filter(([k]) => k !== '$ref'));
    return { ...(inlineRefs(schemas[name], schemas, [...seen, name]) as object), ...siblings };
  }
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, inlineRefs(v, schemas, seen)]));
}

/**
 * The event catalogue, read from the contract's `x-event-catalog`: each type with the JSON
 * Schema of its `data` payload, so the contract stays the only place events are described.
 */
export function eventCatalog(contract: OpenApiDocument): EventTypeInfo[] {
  const entries = contract['x-event-catalog'] as CatalogEntry[] | undefined;
  if (!entries?.length) throw new Error('the contract has no x-event-catalog');
  const schemas = contract.components?.schemas ?? {};
  return entries.map((e) => ({
    name: e.name,
    description: e.description,
    schema: inlineRefs({ $ref: e.data_schema }, schemas) as Record<string, unknown>,
  }));
}
