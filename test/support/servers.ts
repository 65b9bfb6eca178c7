import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadStackConfig } from '../../stack/config/config';
import type { ManagedProcess } from '../../stack/runtime/processes';
import { getFreePort } from '../../stack/runtime/ports';
import { type Stack, startStack } from '../../stack/runtime/stack';

/** A fresh temporary directory for one test's server data. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `webhook-service-${prefix}-`));
}

/** One server of the launcher's, started alone. */
interface PrivateServer {
  process: ManagedProcess;
  stop: () => Promise<void>;
}

/** A private database and, when FerretDB runs on PostgreSQL, that PostgreSQL. */
export interface PrivateMongo extends PrivateServer {
  uri: string;
  postgres?: PrivateServer & { url: string };
}

/** A private Temporal dev server. */
export interface PrivateTemporal extends PrivateServer {
  address: string;
}

/** The launcher with only one of its servers, on `dataDir`, the server's port and fresh others. */
async function startAlone(only: 'database' | 'temporal', dataDir: string, port: Record<string, number>, searchAttributes = true): Promise<Stack> {
  const free = async (k: string) => String(port[k] ?? (await getFreePort()));
  const config = loadStackConfig({
    DATA_DIR: dataDir,
    MONGO_PORT: await free('MONGO_PORT'),
    POSTGRES_PORT: await free('POSTGRES_PORT'),
    TEMPORAL_PORT: await free('TEMPORAL_PORT'),
    BINARY_CACHE_DIR: process.env.BINARY_CACHE_DIR,
    EMBEDDED_DB_BACKEND: process.env.EMBEDDED_DB_BACKEND,
    POSTGRES_BIN_DIR: process.env.POSTGRES_BIN_DIR,
  });
  return startStack({ config, apis: 0, workers: 0, only, searchAttributes, headless: true, fastSqlite: true, log: () => {} });
}

const processOf = (stack: Stack, name: string) => {
  const p = stack.serverParts.find((s) => s.name === name)?.process;
  if (!p) throw new Error(`the stack has no ${name}`);
  return p;
};

/**
 * A private MongoDB-wire server (mongod if on PATH, else FerretDB on the configured backend),
 * started by the launcher, for tests that stop and restart their database; pass the same
 * `dataDir` and `port` to restart it on its data.
 */
export async function startPrivateMongo(dataDir: string, port?: number): Promise<PrivateMongo> {
  const stack = await startAlone('database', dataDir, port ? { MONGO_PORT: port } : {});
  const wire = stack.serverParts.some((s) => s.name === 'mongod') ? 'mongod' : 'ferretdb';
  const pg = stack.serverParts.some((s) => s.name === 'postgres')
    ? { url: `postgres://postgres@127.0.0.1:${stack.config.mongo.postgresPort}`, process: processOf(stack, 'postgres'), stop: () => stack.part('postgres').stop() }
    : undefined;
  return { uri: stack.servers.env.MONGODB_URI!, process: processOf(stack, wire), stop: () => stack.stop(), ...(pg ? { postgres: pg } : {}) };
}

/**
 * A private Temporal dev server on a free port (or `port`), started by the launcher; its data
 * lives in the directory of `dbFile`, so the same `dbFile` restarts it on its data. `bare`:
 * without the service's search attributes, like a fresh cluster.
 */
export async function startPrivateTemporal(dbFile: string, port?: number, opts: { bare?: boolean } = {}): Promise<PrivateTemporal> {
  const stack = await startAlone('temporal', dirname(dbFile), port ? { TEMPORAL_PORT: port } : {}, !opts.bare);
  return { address: stack.servers.env.TEMPORAL_ADDRESS!, process: processOf(stack, 'temporal'), stop: () => stack.stop() };
}
