import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Thrown when a required server binary can be neither found nor built. */
export class BinaryError extends Error {
  override name = 'BinaryError';
}

/** Where a resolved binary came from, in resolution order. */
export type BinarySource = 'env' | 'path' | 'cache' | 'built';

export interface ResolvedBinary {
  path: string;
  source: BinarySource;
}

/** A server program the project can obtain from the Go module proxy. */
export interface BinarySpec {
  /** Executable name, also looked up on PATH. */
  name: string;
  /** Cache key: changes whenever what would be built changes. */
  cacheKey: string;
  /** Variable that points at an existing binary. */
  envVar: string;
  /** The way out when Go is missing and this binary is not needed. */
  alternative: string;
  /** Go command line that writes the executable into `outDir`. */
  goArgs(outDir: string): { args: string[]; cwd?: string; env?: Record<string, string> };
}

const toolsDir = dirname(dirname(fileURLToPath(import.meta.url)));

/** Temporal CLI v1.5.1: newer tags carry a `replace` directive and cannot be `go install`ed. */
export const temporalCli: BinarySpec = {
  name: 'temporal',
  cacheKey: 'temporal-v1.5.1',
  envVar: 'TEMPORAL_CLI_PATH',
  alternative: 'set TEMPORAL_ADDRESS to use an existing Temporal server',
  goArgs: (outDir) => ({
    args: ['install', '-v', 'github.com/temporalio/cli/cmd/temporal@v1.5.1'],
    env: { GOBIN: outDir },
  }),
};

/** Our tiny main over FerretDB v1.24's embeddable package; keyed by its sources too. */
export const ferretDb: BinarySpec = {
  name: 'ferretdb',
  cacheKey: `ferretdb-v1.24.0-${sourceHash(join(toolsDir, 'ferretdb'), ['main.go', 'go.mod', 'go.sum'])}`,
  envVar: 'FERRETDB_PATH',
  alternative: 'set MONGODB_URI to use an existing MongoDB, or put mongod on PATH',
  goArgs: (outDir) => ({
    args: ['build', '-v', '-o', join(outDir, 'ferretdb'), '.'],
    cwd: join(toolsDir, 'ferretdb'),
  }),
};

function sourceHash(dir: string, files: string[]): string {
  const hash = createHash('sha256');
  for (const f of files) hash.update(f).update(readFileSync(join(dir, f)));
  return hash.digest('hex').slice(0, 12);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Finds `name` on a PATH-style string, like `which`. */
export function findOnPath(name: string, pathEnv: string | undefined = process.env.PATH): string | undefined {
  for (const dir of (pathEnv ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

export interface ResolveOptions {
  /** Value of the spec's path variable, if set. */
  explicitPath?: string | undefined;
  cacheDir: string;
  pathEnv?: string | undefined;
  /** Progress output for a first-time build. */
  log?: (line: string) => void;
  /** Skip building; report undefined instead. */
  noBuild?: boolean;
}

/** Where the cache keeps a spec's binary. */
export function cachedBinaryPath(spec: BinarySpec, cacheDir: string): string {
  return join(cacheDir, spec.cacheKey, spec.name);
}

/**
 * Resolves a binary: the explicit path variable, then PATH, then the cache
 * outside the clone (so a fresh clone reuses it), then a build with Go.
 */
export async function resolveBinary(spec: BinarySpec, opts: ResolveOptions): Promise<ResolvedBinary> {
  if (opts.explicitPath) {
    if (!isExecutable(opts.explicitPath)) {
      throw new BinaryError(`${spec.envVar}=${opts.explicitPath} is not an executable file`);
    }
    return { path: opts.explicitPath, source: 'env' };
  }
  const onPath = findOnPath(spec.name, opts.pathEnv);
  if (onPath) return { path: onPath, source: 'path' };
  const cached = cachedBinaryPath(spec, opts.cacheDir);
  if (isExecutable(cached)) return { path: cached, source: 'cache' };
  if (opts.noBuild) throw new BinaryError(`${spec.name} is not built yet (expected at ${cached})`);
  await buildBinary(spec, cached, opts.pathEnv, opts.log ?? ((line) => process.stderr.write(`${line}\n`)));
  return { path: cached, source: 'built' };
}

function goAvailable(pathEnv: string | undefined): boolean {
  const env = pathEnv === undefined ? process.env : { ...process.env, PATH: pathEnv };
  return spawnSync('go', ['version'], { stdio: 'ignore', env }).status === 0;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function buildBinary(
  spec: BinarySpec,
  target: string,
  pathEnv: string | undefined,
  log: (line: string) => void,
): Promise<void> {
  if (!goAvailable(pathEnv)) {
    throw new BinaryError(
      `Cannot build ${spec.name}: the Go toolchain (go) is not on PATH. Either install Go 1.22+, ` +
        `or set ${spec.envVar} to an existing ${spec.name} binary, or ${spec.alternative}.`,
    );
  }
  const dir = dirname(target);
  mkdirSync(dirname(dir), { recursive: true });
  // A lock directory serialises concurrent builds (e.g. `npm start` and `npm test` at once).
  const lock = `${dir}.lock`;
  const waitStarted = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (isExecutable(target)) return;
      const age = Date.now() - statSafeMtime(lock);
      if (age > 30 * 60_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() - waitStarted > 45 * 60_000) throw new BinaryError(`Timed out waiting for another build of ${spec.name} (${lock})`);
      await sleep(2000);
    }
  }
  try {
    if (isExecutable(target)) return;
    const staging = `${dir}.partial`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    const { args, cwd, env } = spec.goArgs(staging);
    log(`[build ${spec.name}] first-time build: go ${args.join(' ')} (takes a few minutes; cached in ${dir})`);
    const started = Date.now();
    const pathOverride = pathEnv === undefined ? {} : { PATH: pathEnv };
    await runWithProgress('go', args, { cwd, env: { ...process.env, ...pathOverride, ...env } }, spec.name, started, log);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    log(`[build ${spec.name}] done in ${Math.round((Date.now() - started) / 1000)}s`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function statSafeMtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

function runWithProgress(
  cmd: string,
  args: string[],
  opts: { cwd?: string | undefined; env: NodeJS.ProcessEnv },
  name: string,
  started: number,
  log: (line: string) => void,
): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let packages = 0;
    const tail: string[] = [];
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line.trim()) continue;
        tail.push(line);
        if (tail.length > 30) tail.shift();
        // `go -v` prints one package per line as it compiles: a cheap progress signal.
        if (!line.startsWith('go: downloading')) packages++;
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setInterval(() => {
      log(`[build ${name}] ${Math.round((Date.now() - started) / 1000)}s, ${packages} packages compiled...`);
    }, 15_000);
    child.on('error', (err) => {
      clearInterval(timer);
      reject(new BinaryError(`Cannot run go: ${err.message}`));
    });
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code === 0) resolvePromise();
      else reject(new BinaryError(`Building ${name} failed (go exited ${code}):\n${tail.join('\n')}`));
    });
  });
}

/** True when a mongod is configured or on PATH; it is preferred over FerretDB. */
export function findMongod(explicitPath: string | undefined, pathEnv?: string): string | undefined {
  if (explicitPath) {
    if (!existsSync(explicitPath)) throw new BinaryError(`MONGOD_PATH=${explicitPath} does not exist`);
    return explicitPath;
  }
  return findOnPath('mongod', pathEnv);
}
