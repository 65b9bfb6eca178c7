/**
 * Writes docs/configuration.md from the config schema (src/config/config.ts) and the meanings
 * beside it (src/config/env-docs.ts), so the reference cannot drift from what the service reads.
 * `npm run check:generated` fails when the committed file differs from what this writes.
 */
import { writeFileSync } from 'node:fs';
import { configDocsPath, renderConfigDocs } from './lib/config-docs';

writeFileSync(configDocsPath, renderConfigDocs());
console.log(`${configDocsPath} written.`);
