/**
 * Fails when generated/ is not exactly what `npm run generate` writes from openapi/,
 * so the committed types can never drift from the contract.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'generated-check-'));
try {
  const fresh = join(dir, 'api.ts');
  execFileSync('npx', ['openapi-typescript', 'openapi/openapi.yaml', '-o', fresh], { stdio: 'ignore' });
  if (readFileSync(fresh, 'utf8') !== readFileSync('generated/api.ts', 'utf8')) {
    console.error('generated/api.ts is stale: run `npm run generate` and commit the result.');
    process.exit(1);
  }
  console.log('generated/ is fresh.');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
