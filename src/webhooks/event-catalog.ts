import { inlineRefs, type OpenApiDocument } from '../contract/openapi';
import type { EventTypeInfo, SignatureSchemeInfo } from '../contract/types';

interface CatalogEntry {
  name: EventTypeInfo['name'];
  description: string;
  data_schema: string;
  required_scopes: EventTypeInfo['required_scopes'];
  ordering_key: string;
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
    required_scopes: e.required_scopes,
    ordering_key: e.ordering_key,
    schema: inlineRefs({ $ref: e.data_schema }, contract) as Record<string, unknown>,
  }));
}

/** The signature schemes a subscription may choose, read from the contract's `x-signature-schemes`. */
export function signatureSchemes(contract: OpenApiDocument): SignatureSchemeInfo[] {
  const entries = contract['x-signature-schemes'] as SignatureSchemeInfo[] | undefined;
  if (!entries?.length) throw new Error('the contract has no x-signature-schemes');
  return entries.map((e) => ({ name: e.name, default: e.default, signature_version: e.signature_version, description: e.description, verify_with: e.verify_with }));
}

/** For each event type, the scopes a key needs to subscribe to it (besides webhooks:write). */
export function eventScopes(catalog: readonly EventTypeInfo[]): ReadonlyMap<EventTypeInfo['name'], readonly string[]> {
  return new Map(catalog.map((e) => [e.name, e.required_scopes]));
}
