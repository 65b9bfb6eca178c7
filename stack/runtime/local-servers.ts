import { join } from 'node:path';
import type { StackConfig } from '../config/config';
import { ferretDb, findMongod, resolveBinary, temporalCli } from './binaries';
import { type FerretDbBackend, startLocalMongo } from './local-mongo';
import { startLocalPostgres } from './local-postgres';
import { requirePostgres } from './postgres';
import { assertPortFree } from './ports';
import type { Unit } from './processes';
import { startTemporalDevServer } from './temporal-dev-server';

/** The embedded servers a configuration needs, ready to start. */
export interface LocalServerPlan {
  mongoUri: string;
  temporalAddress: string;
  /** Set when the embedded Temporal serves its Web UI. */
  temporalUiUrl: string | undefined;
  /** Describes the database in use, for the start banner. */
  mongoDescription: string;
  /** Units to start: none when both MongoDB and Temporal are external. */
  units: Unit[];
}

export interface LocalServersOptions {
  log: (line: string) => void;
  /** Receives each server's own output. */
  serverOutput?: (server: string, line: string) => void;
  headless?: boolean;
  /** No fsync in the embedded servers' storage (tests): a process crash still loses nothing. */
  fastSqlite?: boolean;
  /** Only this server (tests of one server alone); both by default. */
  only?: 'database' | 'temporal';
  /** false: a Temporal without the service's search attributes, like a fresh cluster (tests). */
  searchAttributes?: boolean;
  /** PostgreSQL's max_connections when it carries more than FerretDB (the cluster profile's Temporal). */
  postgresMaxConnections?: number;
}

/**
 * Plans whatever the configuration does not point at externally: the Temporal dev server
 * unless TEMPORAL_ADDRESS is set, and a MongoDB-wire database unless MONGODB_URI is set
 * (a real mongod when available, otherwise embedded FerretDB). Checks ports and obtains
 * binaries (building them on first use); data lives under DATA_DIR.
 */
export async function planLocalServers(config: StackConfig, opts: LocalServersOptions): Promise<LocalServerPlan> {
  const needMongo = !config.mongo.uri && opts.only !== 'temporal';
  const needTemporal = !config.temporal.address && opts.only !== 'database';
  const out = (server: string) => (line: string) => opts.serverOutput?.(server, line);
  const units: Unit[] = [];

  if (needTemporal) {
    await assertPortFree(config.temporal.embeddedPort, 'TEMPORAL_PORT', 'Temporal gRPC');
    if (!opts.headless) await assertPortFree(config.temporal.uiPort, 'TEMPORAL_UI_PORT', 'Temporal Web UI');
  }
  if (needMongo) await assertPortFree(config.mongo.embeddedPort, 'MONGO_PORT', 'embedded MongoDB');

  const resolveOpts = { cacheDir: config.binaryCacheDir, log: opts.log };
  let mongoDescription = `external MongoDB (MONGODB_URI)`;
  if (needMongo) {
    const mongod = findMongod(config.mongo.mongodPath);
    const kind = mongod ? 'mongod' : 'ferretdb';
    const binary = mongod ?? (await resolveBinary(ferretDb, { ...resolveOpts, explicitPath: config.mongo.ferretdbPath })).path;
    const dataDir = join(config.dataDir, kind === 'mongod' ? 'mongodb' : 'ferretdb');
    let backend: FerretDbBackend | undefined;
    mongoDescription = `mongod, data in ${dataDir}`;
    if (kind === 'ferretdb' && config.mongo.embeddedBackend === 'postgresql') {
      // Its own unit: restarted on its own, while FerretDB waits for it and reconnects.
      const postgres = await postgresUnit(config, join(dataDir, 'postgres'), opts);
      units.push(postgres.unit);
      backend = { kind: 'postgresql', url: postgres.url };
      mongoDescription = `FerretDB on PostgreSQL ${postgres.version}, data in ${join(dataDir, 'postgres')}`;
    } else if (kind === 'ferretdb') {
      backend = { kind: 'sqlite' };
      mongoDescription = `FerretDB (SQLite), data in ${dataDir}`;
    }
    units.push({
      name: kind,
      start: async () => {
        const m = await startLocalMongo({ kind, binary, port: config.mongo.embeddedPort, dataDir, ...(backend ? { backend } : {}), onLine: out(kind) });
        return { process: m.process, stop: m.stop };
      },
    });
  }
  let temporalUiUrl: string | undefined;
  if (needTemporal) {
    const binary = (await resolveBinary(temporalCli, { ...resolveOpts, explicitPath: config.temporal.cliPath })).path;
    temporalUiUrl = opts.headless ? undefined : `http://localhost:${config.temporal.uiPort}`;
    units.push({
      name: 'temporal',
      start: async () => {
        const t = await startTemporalDevServer({
          binary,
          port: config.temporal.embeddedPort,
          uiPort: config.temporal.uiPort,
          dbFile: join(config.dataDir, 'temporal', 'temporal.sqlite'),
          namespace: config.temporal.namespace,
          headless: opts.headless ?? false,
          fastSqlite: opts.fastSqlite ?? false,
          ...(opts.searchAttributes === false ? { searchAttributes: false } : {}),
          onLine: out('temporal'),
        });
        return { process: t.process, stop: t.stop };
      },
    });
  }
  return {
    mongoUri: config.mongo.connectUri,
    temporalAddress: config.temporal.connectAddress,
    temporalUiUrl,
    mongoDescription,
    units,
  };
}

/** The embedded FerretDB's private PostgreSQL (found, or installed), as a unit of its own. */
export async function postgresUnit(config: StackConfig, dataDir: string, opts: LocalServersOptions): Promise<{ unit: Unit; url: string; version: number }> {
  await assertPortFree(config.mongo.postgresPort, 'POSTGRES_PORT', "embedded FerretDB's PostgreSQL");
  const install = requirePostgres(config.mongo.postgresBinDir, opts.log);
  const unit: Unit = {
    name: 'postgres',
    start: async () => {
      const pg = await startLocalPostgres({
        install,
        port: config.mongo.postgresPort,
        dataDir,
        ownedRoot: config.dataDir,
        fast: opts.fastSqlite ?? false,
        ...(opts.postgresMaxConnections ? { maxConnections: opts.postgresMaxConnections } : {}),
        onLine: (line) => opts.serverOutput?.('postgres', line),
      });
      return { process: pg.process, stop: pg.stop };
    },
  };
  return { unit, url: `postgres://postgres@127.0.0.1:${config.mongo.postgresPort}`, version: install.version };
}
