/**
 * Fails when generated/ is not exactly what `npm run generate` writes from openapi/,
 * so the committed types can never drift from the contract.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The very command `npm run generate` runs, writing elsewhere: the two cannot disagree on options.
const generate = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { generate: string } }).scripts.generate.split(/\s+/);

const dir = mkdtempSync(join(tmpdir(), 'generated-check-'));
try {
  const fresh = join(dir, 'api.ts');
  const args = generate.map((arg, i) => (generate[i - 1] === '-o' ? fresh : arg));
  execFileSync('npx', args, { stdio: 'ignore' });
  if (readFileSync(fresh, 'utf8') !== readFileSync('generated/api.ts', 'utf8')) {
    console.error('generated/api.ts is stale: run `npm run generate` and commit the result.');
    process.exit(1);
  }
  console.log('generated/ is fresh.');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
