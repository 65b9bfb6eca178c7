import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { BinaryError, buildIntoCache, isExecutable, runWithProgress } from './build-cache';

export { BinaryError };

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

const runtimeDir = dirname(fileURLToPath(import.meta.url));

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
  cacheKey: `ferretdb-v1.24.0-${sourceHash(join(runtimeDir, 'ferretdb'), ['main.go', 'postgresql.go', 'gin-companions.sql', 'go.mod', 'go.sum'])}`,
  envVar: 'FERRETDB_PATH',
  alternative: 'set MONGODB_URI to use an existing MongoDB, or put mongod on PATH',
  goArgs: (outDir) => ({
    args: ['build', '-v', '-o', join(outDir, 'ferretdb'), '.'],
    cwd: join(runtimeDir, 'ferretdb'),
  }),
};

/**
 * Our main over go.temporal.io/server v1.29.1 (the server inside the CLI above, so a build after
 * the CLI's reuses its compiled packages): one node of a Temporal cluster on PostgreSQL.
 */
export const temporalNode: BinarySpec = {
  name: 'temporal-node',
  cacheKey: `temporal-node-v1.29.1-${sourceHash(join(runtimeDir, 'temporal-node'), ['main.go', 'schema.go', 'go.mod', 'go.sum'])}`,
  envVar: 'TEMPORAL_NODE_PATH',
  alternative: 'set TEMPORAL_ADDRESS to use an existing Temporal cluster',
  goArgs: (outDir) => ({
    args: ['build', '-v', '-o', join(outDir, 'temporal-node'), '.'],
    cwd: join(runtimeDir, 'temporal-node'),
  }),
};

function sourceHash(dir: string, files: string[]): string {
  const hash = createHash('sha256');
  for (const f of files) hash.update(f).update(readFileSync(join(dir, f)));
  return hash.digest('hex').slice(0, 12);
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
  await buildIntoCache(dir, {
    name: spec.name,
    isReady: () => isExecutable(target),
    build: async (staging) => {
      const { args, cwd, env } = spec.goArgs(staging);
      log(`[build ${spec.name}] first-time build: go ${args.join(' ')} (takes a few minutes; cached in ${dir})`);
      const started = Date.now();
      const pathOverride = pathEnv === undefined ? {} : { PATH: pathEnv };
      await runWithProgress('go', args, {
        cwd,
        env: { ...process.env, ...pathOverride, ...env },
        name: spec.name,
        log,
        // `go -v` prints one package per line as it compiles: a cheap progress signal.
        counts: (line) => !line.startsWith('go: downloading'),
        unit: 'packages compiled',
      });
      log(`[build ${spec.name}] done in ${Math.round((Date.now() - started) / 1000)}s`);
    },
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
