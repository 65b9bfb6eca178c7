/**
 * The service under test of the bench, the soak and the chaos run, started by the launcher
 * `npm start` uses (stack/runtime/stack) on free
 * loopback ports and a temp DATA_DIR: embedded Temporal dev server and database, the real API and
 * worker entry points as separate processes, demo data and an API key.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Db } from 'mongodb';
import { ApiKeyRepository, createMongo, envSchema, prepareDatabase, SecretBox, seedDemoData, TemporalGateway } from './service';
import { type StackConfig, stackEnvSchema } from '../config/config';
import { getFreePort } from '../runtime/ports';
import { privateStackConfig, type Stack as Launched, startStack as launch } from '../runtime/stack';
import { startBalancer } from '../runtime/temporal-cluster';

/** The service under test as the bench's scenarios see it. */
export type Stack = Awaited<ReturnType<typeof startStack>>;

/** How the bench and the soak run the service (their command lines' options; the bench's BenchOptions has them all). */
export interface RunStackOptions {
  /** The launcher's server profile. */
  stack: 'local' | 'cluster';
  apis: number;
  workers: number;
  fastSqlite: boolean;
  verbose: boolean;
  logLevel: string;
  relayInterval: string;
  retentionBatch: number;
  dbCommands: boolean;
  apiDeliveryWorker: boolean;
  nodeOptions: string | undefined;
  cpuProf: string | undefined;
}

/** Something to undo at the end, newest first. */
export type Cleanup = { name: string; fn: () => Promise<void> | void };

/** The variables that locate or build the servers, passed on from the caller's shell. */
const serverVariables = ['BINARY_CACHE_DIR', 'TEMPORAL_CLI_PATH', 'FERRETDB_PATH', 'MONGOD_PATH', 'EMBEDDED_DB_BACKEND', 'POSTGRES_BIN_DIR'];

/**
 * A configuration for a run on free ports and a temp DATA_DIR (removed by the cleanups);
 * `external`: MONGODB_URI / TEMPORAL_ADDRESS (+ TEMPORAL_NAMESPACE) from the shell are used too.
 */
export async function runConfig(prefix: string, cleanups: Cleanup[], external: boolean): Promise<StackConfig> {
  const passthrough: Record<string, string> = {};
  for (const k of [...serverVariables, ...(external ? ['MONGODB_URI', 'TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE'] : [])]) {
    const v = process.env[k];
    if (v) passthrough[k] = v;
  }
  // Never the service's own database on a real server: a fresh one per run.
  if (passthrough.MONGODB_URI) passthrough.MONGODB_DB = `webhook_bench_${randomBytes(4).toString('hex')}`;
  const config = await privateStackConfig(passthrough, prefix);
  cleanups.push({ name: 'temp dir', fn: () => rmSync(config.dataDir, { recursive: true, force: true }) });
  return config;
}

/** Starts the launcher's stack with the cleanups stopping it; fails when a part did not come up. */
export async function launchStack(opts: Omit<Parameters<typeof launch>[0], 'log'>, cleanups: Cleanup[], log: (line: string) => void): Promise<Launched> {
  const stack = await launch({ log, headless: true, ...opts });
  cleanups.push({ name: 'service processes and servers', fn: () => stack.stop() });
  return stack;
}

/**
 * Starts everything, each part registered in `cleanups` as soon as it runs; `serviceEnvOverrides`:
 * variables of the API and worker over the bench's own (e.g. the soak's RETENTION_DAYS).
 */
export async function startStack(opts: RunStackOptions, cleanups: Cleanup[], log: (line: string) => void, serviceEnvOverrides: Record<string, string> = {}) {
  const config = await runConfig('webhook-bench', cleanups, true);
  const secretKey = randomBytes(32);
  const serviceEnv: Record<string, string> = {
    ...serviceEnvironment(config),
    LOG_LEVEL: opts.logLevel,
    RELAY_INTERVAL: opts.relayInterval,
    RETENTION_BATCH_SIZE: String(opts.retentionBatch),
    ...(opts.dbCommands ? { DB_COMMAND_METRICS: 'true' } : {}),
    ...(opts.apiDeliveryWorker ? { API_DELIVERY_WORKER: 'true' } : {}),
    // Short retries that still outlast the outage scenario's 60 s (about 2 min in all), so it drains, not fails.
    DELIVERY_RETRY_SCHEDULE: '1s,2s,5s,10s,20s',
    DELIVERY_MAX_ATTEMPTS: '10',
    DELIVERY_TIMEOUT: '5s',
    // Production requires secrets sealed at rest: a throw-away key for the run.
    SECRET_ENCRYPTION_KEY: `bench:${secretKey.toString('base64')}`,
    ...serviceEnvOverrides,
  };
  const quiet = ['warn', 'error', 'fatal', 'silent'].includes(opts.logLevel);
  // Output lines per service process (at LOG_LEVEL=warn: warnings and errors), and how many contained E11000.
  const outputLines: Record<string, { lines: number; duplicateKey: number }> = {};
  // On an external server the run's database is dropped at the end (embedded ones go with DATA_DIR).
  let clients: Awaited<ReturnType<typeof runClients>> | undefined;
  const launched = await launchStack(
    {
      config,
      profile: opts.stack,
      apis: opts.apis,
      workers: opts.workers,
      freePorts: true,
      fastSqlite: opts.fastSqlite,
      baseEnv: cleanEnvironment(),
      serviceEnv,
      ...(opts.verbose ? { serverOutput: (server: string, line: string) => process.stderr.write(`[${server}] ${line}\n`) } : {}),
      ...(opts.nodeOptions ? { processEnv: () => ({ NODE_OPTIONS: opts.nodeOptions! }) } : {}),
      // Node 20 refuses --cpu-prof in NODE_OPTIONS: it goes on the command line, a directory per
      // process (each thread writes its own file there: tsx's loader runs on a second one).
      ...(opts.cpuProf ? { processExecArgv: (name: string) => ['--cpu-prof', `--cpu-prof-dir=${resolve(opts.cpuProf!, name)}`] } : {}),
      processOutput: (name, line) => {
        const count = (outputLines[name] ??= { lines: 0, duplicateKey: 0 });
        count.lines++;
        if (line.includes('E11000')) count.duplicateKey++;
        // Warnings and errors are shown, but only the first few: a repeated error would flood the report.
        if (opts.verbose || (quiet && count.lines <= 5)) process.stderr.write(`[${name}] ${line.slice(0, 600)}\n`);
        if (!opts.verbose && quiet && count.lines === 5) process.stderr.write(`[${name}] (further output counted, not shown; --verbose shows it)\n`);
      },
      beforeServices: async (servers) => {
        clients = await runClients({ servers: servers.env, config, owner: 'bench', dropDatabase: config.mongo.uri !== undefined }, cleanups);
      },
    },
    cleanups,
    log,
  );
  const { db, apiKey, temporal } = clients!;
  // Several APIs: one URL for the bench's clients, each keep-alive connection to the next API.
  let apiUrl = launched.apis[0]!.url;
  if (launched.apis.length > 1) {
    const balancer = await startBalancer(await getFreePort(), launched.apis.map((a) => Number(new URL(a.url).port)));
    cleanups.push({ name: 'API balancer', fn: () => balancer.close() });
    apiUrl = `http://127.0.0.1:${balancer.port}`;
  }
  return {
    config,
    apiUrl,
    apiKey,
    db,
    temporal,
    dbDescription: launched.servers.database,
    /** The Temporal the profile started (dev server, or the cluster's nodes and shards). */
    temporalDescription: launched.servers.temporal,
    /** Live pids by CPU-accounting role; the first of several workers, APIs or cluster nodes under the usual role, the others under their own names (e.g. `worker-1`). */
    get pids(): Record<string, number | undefined> {
      const p = launched.pids();
      const extra = Object.fromEntries(Object.entries(p).filter(([name]) => /^(worker|api)-[1-9]$|^temporal-[2-9]$/.test(name)));
      return { worker: p.worker ?? p['worker-0'], api: p.api ?? p['api-0'], temporal: p.temporal ?? p['temporal-1'], db: p.ferretdb ?? p.mongod, postgres: p.postgres, ...extra };
    },
    /** The variables every API and worker got. */
    serviceEnv: launched.serviceEnv,
    outputLines,
    workerMetricsUrl: launched.workers[0]!.metricsUrl!,
    /** Every API's and worker's /metrics (the bench reads their db_commands_total). */
    metricsUrls: { api: launched.apis.map((a) => `${a.url}/metrics`), worker: launched.workers.flatMap((w) => (w.metricsUrl ? [w.metricsUrl] : [])) },
    /** The embedded FerretDB's PostgreSQL, when that is the database (its statements are counted). */
    embeddedPostgres: launched.pids().postgres !== undefined && !config.mongo.uri ? { binDir: config.mongo.postgresBinDir, port: config.mongo.postgresPort } : undefined,
    /** Opens the signing secrets the service stored (sealed under the run's throw-away key). */
    secretBox: new SecretBox({ id: 'bench', key: secretKey }),
    /** Stops the API and the worker and starts them again with `extraEnv` over the service's own (e.g. METRICS_ENABLED=false). */
    async restartServices(extraEnv: Record<string, string>) {
      await Promise.all([...launched.apis, ...launched.workers].map((p) => p.stop()));
      await Promise.all([...launched.workers, ...launched.apis].map((p) => p.start(extraEnv)));
    },
  };
}

/** The caller's environment without any variable the service or the stack reads: the caller's shell must not change the run. */
export function cleanEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of [...Object.keys(envSchema.shape), ...Object.keys(stackEnvSchema.shape)]) delete env[k];
  return env;
}

/** The service's variables of a run: production mode on loopback, private callback URLs allowed. */
export function serviceEnvironment(config: StackConfig): Record<string, string> {
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    // Production requires it; the runs follow no link.
    PUBLIC_URL: 'http://127.0.0.1',
    DATA_DIR: config.dataDir,
    MONGODB_DB: config.mongo.dbName,
    TEMPORAL_NAMESPACE: config.temporal.namespace,
    TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
    CALLBACK_ALLOW_PRIVATE: 'true',
    SEED_DEMO_DATA: 'false',
  };
}

/**
 * A run's own clients of the `servers`: the database prepared and seeded with the demo
 * data, an API key for `owner` with every scope but admin, and a Temporal client; each closed
 * (and with `dropDatabase`, the database dropped) by the cleanups.
 */
export async function runClients(
  run: { servers: Record<string, string>; config: StackConfig; owner: string; dropDatabase: boolean },
  cleanups: Cleanup[],
): Promise<{ db: Db; apiKey: string; temporal: TemporalGateway }> {
  const mongo = createMongo(run.servers.MONGODB_URI ?? run.config.mongo.connectUri, run.config.mongo.dbName, `webhook-${run.owner}`);
  cleanups.push({ name: `${run.owner} mongo client`, fn: () => mongo.close() });
  if (run.dropDatabase) cleanups.push({ name: `${run.owner} database`, fn: () => mongo.db.dropDatabase().then(() => undefined) });
  await prepareDatabase(mongo.db);
  // Runs measure delivery, not stock: no order may be refused for want of units.
  await seedDemoData(mongo.db, { stock: 1_000_000_000 });
  const { key } = await new ApiKeyRepository(mongo.db).create({
    ownerId: run.owner,
    name: run.owner,
    scopes: ['orders:write', 'resources:read', 'webhooks:read', 'webhooks:write'],
  });
  const temporal = new TemporalGateway(run.servers.TEMPORAL_ADDRESS ?? run.config.temporal.connectAddress, run.config.temporal.namespace);
  cleanups.push({ name: `${run.owner} temporal client`, fn: () => temporal.close() });
  return { db: mongo.db, apiKey: key, temporal };
}
