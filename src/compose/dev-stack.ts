/**
 * What the development stack (`stack/`: `npm start`, the embedded servers, the bench and chaos
 * harness) uses of the product besides `src/config/config.ts` and the API and worker processes
 * it runs (`src/entry/api.ts`, `src/entry/worker.ts`). The stack imports the product through
 * these modules only (eslint.config.js holds it), so a refactor inside `src/` follows this file.
 */

// Logging and the entry points' signal handling, for the stack's own entry points.
export { createLogger, type Logger } from '../logger';
export { runUntilSignal, watchParent } from '../entry/shutdown';
export { getFreePort } from '../lib/free-port';

// What `npm start` does to a fresh database before the API and worker start.
export { devAdminKey } from '../auth/dev-admin-key';
export { prepareDatabase } from '../db/indexes';
export { createMongo } from '../db/mongo';
export { describeSeed, seedDemoData } from '../seed/seed';

// The namespace and search attributes an embedded Temporal must have before a worker polls it.
export { searchAttributes } from '../temporal/search-attributes';
export { ensureTemporalSetup, type SetupResult } from '../temporal/setup';
