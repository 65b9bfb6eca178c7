/**
 * Regenerates the SDKs under clients/ and the shared vectors from the contract and the service's
 * signing code (`npm run generate:clients`); with `--check`, only says what is stale and exits 1
 * (`npm run check:generated` runs it). `--only python,vectors` limits it to some targets.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientTargets, install, staleFiles } from './lib/clients';

const args = process.argv.slice(2);
const check = args.includes('--check');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1]?.split(',') : undefined;
const repo = process.cwd();

let failed = false;
for (const target of clientTargets.filter((t) => !only || only.includes(t.name))) {
  const fresh = mkdtempSync(join(tmpdir(), `client-${target.name}-`));
  try {
    target.generate(repo, fresh);
    const stale = staleFiles(repo, fresh, target.paths);
    const problems = target.problems?.(repo) ?? [];
    if (check) {
      if (stale.length) console.error(`clients: ${target.name} is stale (${stale.length} files, e.g. ${stale[0]}): run \`npm run generate:clients\` and commit the result.`);
      for (const p of problems) console.error(`clients: ${p}`);
      failed ||= stale.length > 0 || problems.length > 0;
    } else {
      if (stale.length) install(repo, fresh, target.paths);
      console.log(`clients: ${target.name} ${stale.length ? `written (${stale.length} files changed)` : 'unchanged'}`);
      for (const p of problems) console.error(`clients: ${p}`);
      failed ||= problems.length > 0;
    }
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
}
if (check && !failed) console.log('clients/ is fresh.');
process.exit(failed ? 1 : 0);
