/**
 * Fails when generated/ is not exactly what `npm run generate` writes from openapi/, or
 * docs/configuration.md not what `npm run docs:config` writes from the config schema (nor
 * .env.example naming every variable with its default), or an SDK under clients/ (and the shared
 * vectors) not what `npm run generate:clients` writes, so none can drift from its source.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDocsPath, envExampleProblems, renderConfigDocs } from './lib/config-docs';

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

if (readFileSync(configDocsPath, 'utf8') !== renderConfigDocs()) {
  console.error(`${configDocsPath} is stale: run \`npm run docs:config\` and commit the result.`);
  process.exit(1);
}
const envProblems = envExampleProblems('.');
if (envProblems.length > 0) {
  console.error(`.env.example disagrees with the config schema:\n  ${envProblems.join('\n  ')}`);
  process.exit(1);
}
console.log(`${configDocsPath} and .env.example are fresh.`);

// The SDKs need their pinned generators (a venv under .data/ for Python): the same script, in check mode.
try {
  execFileSync('npx', ['tsx', 'tools/generate-clients.ts', '--check'], { stdio: 'inherit' });
} catch {
  process.exit(1);
}
