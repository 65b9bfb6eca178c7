import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config';
import { ferretDb, findMongod, resolveBinary, temporalCli } from '../../src/runtime/binaries';
import { type RunningMongo, startLocalMongo } from '../../src/runtime/local-mongo';
import { type RunningPostgres, startLocalPostgres } from '../../src/runtime/local-postgres';
import { requirePostgres } from '../../src/runtime/postgres';
import { getFreePort } from '../../src/runtime/ports';
import { type RunningTemporal, startTemporalDevServer } from '../../src/runtime/temporal-dev-server';

/** A fresh temporary directory for one test's server data. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `webhook-service-${prefix}-`));
}

const cacheDir = () => loadConfig({ BINARY_CACHE_DIR: process.env.BINARY_CACHE_DIR }).binaryCacheDir;

/** A private database and, when FerretDB runs on PostgreSQL, that PostgreSQL. */
export interface PrivateMongo extends RunningMongo {
  postgres?: RunningPostgres;
}

/**
 * A private MongoDB-wire server (mongod if on PATH, else FerretDB on the configured backend) for
 * tests that stop and restart their database; pass the same `dataDir` and `port` to restart it on its data.
 */
export async function startPrivateMongo(dataDir: string, port?: number): Promise<PrivateMongo> {
  const mongod = findMongod(undefined);
  const binary = mongod ?? (await resolveBinary(ferretDb, { cacheDir: cacheDir() })).path;
  const config = loadConfig({ EMBEDDED_DB_BACKEND: process.env.EMBEDDED_DB_BACKEND, POSTGRES_BIN_DIR: process.env.POSTGRES_BIN_DIR });
  const wirePort = port ?? (await getFreePort());
  if (mongod || config.mongo.embeddedBackend === 'sqlite') {
    return startLocalMongo({ kind: mongod ? 'mongod' : 'ferretdb', binary, port: wirePort, dataDir, backend: { kind: 'sqlite' } });
  }
  const install = requirePostgres(config.mongo.postgresBinDir, () => {});
  const postgres = await startLocalPostgres({ install, port: await getFreePort(), dataDir: join(dataDir, 'postgres'), ownedRoot: dataDir, fast: true });
  try {
    const mongo = await startLocalMongo({ kind: 'ferretdb', binary, port: wirePort, dataDir, backend: { kind: 'postgresql', url: postgres.url } });
    return { ...mongo, postgres, stop: () => mongo.stop().then(() => postgres.stop()) };
  } catch (err) {
    await postgres.stop();
    throw err;
  }
}

/**
 * A private Temporal dev server on a free port, persisting to `dbFile`; `bare`: without the
 * service's search attributes, like a fresh cluster.
 */
export async function startPrivateTemporal(dbFile: string, port?: number, opts: { bare?: boolean } = {}): Promise<RunningTemporal> {
  const binary = (await resolveBinary(temporalCli, { cacheDir: cacheDir() })).path;
  return startTemporalDevServer({
    binary,
    port: port ?? (await getFreePort()),
    uiPort: 0,
    dbFile,
    namespace: 'default',
    headless: true,
    ...(opts.bare ? { searchAttributes: false } : {}),
  });
}
