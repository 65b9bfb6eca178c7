import { inlineRefs, type OpenApiDocument } from '../http/contract';
import type { EventTypeInfo } from '../http/schemas';

interface CatalogEntry {
  name: EventTypeInfo['name'];
  description: string;
  data_schema: string;
}

/**
 * The event catalogue, read from the contract's `x-event-catalog`: each type with the JSON
 * Schema of its `data` payload, so the contract stays the only place events are described.
 */
export function eventCatalog(contract: OpenApiDocument): EventTypeInfo[] {
  const entries = contract['x-event-catalog'] as CatalogEntry[] | undefined;
  if (!entries?.length) throw new Error('the contract has no x-event-catalog');
  return entries.map((e) => ({
    name: e.name,
    description: e.description,
    schema: inlineRefs({ $ref: e.data_schema }, contract) as Record<string, unknown>,
  }));
}
