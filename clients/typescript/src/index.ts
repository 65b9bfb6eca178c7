// The package's whole API: the typed client, the contract's types, and the receiver side (also at './receiver').
// Nothing is redefined here: each export is the service's own module, re-exported (one source of truth).
import { serviceVersion } from '../../../src/version';

export * from './receiver';
export { createClient, type components, type paths, type WebhookServiceClient, type WebhookServiceClientOptions } from '../../../src/client';

/** The contract's `info.version` these types were generated from; the package's `version` is the same (a unit test holds both). */
export const CONTRACT_VERSION: typeof serviceVersion = serviceVersion;
