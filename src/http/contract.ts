import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** Path of the contract every request is validated against. */
export const contractPath = fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url));

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
