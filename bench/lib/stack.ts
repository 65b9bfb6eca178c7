/**
 * The service under test, started the way `npm start` starts it but on free loopback ports
 * and a temp DATA_DIR: embedded Temporal dev server and database (planLocalServers, the code
 * path startLocalServers runs — used directly because startLocalServers does not expose the
 * processes, whose pids the CPU accounting needs), the real API and worker entry points as
 * separate processes, demo data and an API key.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Db } from 'mongodb';
import { ApiKeyRepository } from '../../src/auth/api-keys';
import { type Config, envSchema, loadConfig } from '../../src/config/config';
import { prepareDatabase } from '../../src/db/indexes';
import { createMongo } from '../../src/db/mongo';
import { seedDemoData } from '../../src/seed/seed';
import { TemporalGateway } from '../../src/temporal/connection';
import { type LocalServerPlan, planLocalServers } from '../../src/runtime/local-servers';
import { getFreePort } from '../../src/runtime/ports';
import { ManagedProcess } from '../../src/runtime/processes';
import { SecretBox } from '../../src/subscriptions/secret-box';
import type { BenchOptions } from './options';
import { sleep } from './stats';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface Stack {
  dataDir: string;
  config: Config;
  apiUrl: string;
  apiKey: string;
  db: Db;
  temporal: TemporalGateway;
  dbDescription: string;
  pids: { worker?: number; api?: number; temporal?: number; db?: number; postgres?: number };
  processes: ManagedProcess[];
  /** The delivery settings handed to the worker. */
  serviceEnv: Record<string, string>;
  /** Output lines per service process (at LOG_LEVEL=warn: warnings and errors), and how many contained E11000. */
  outputLines: Record<string, { lines: number; duplicateKey: number }>;
  /** The worker's /metrics. */
  workerMetricsUrl: string;
  /** Opens the signing secrets the service stored (sealed under the run's throw-away key). */
  secretBox: SecretBox;
  /** Stops the API and the worker and starts them again with `env` over the service's own (e.g. METRICS_ENABLED=false). */
  restartServices(env: Record<string, string>): Promise<void>;
}

/** Something to undo at the end, newest first. */
export type Cleanup = { name: string; fn: () => Promise<void> | void };

/** Starts everything; every started part is registered in `cleanups` as soon as it runs. */
/** `serviceEnv`: variables of the API and worker over the bench's own (e.g. the soak's RETENTION_DAYS). */
export async function startStack(opts: BenchOptions, cleanups: Cleanup[], log: (line: string) => void, serviceEnvOverrides: Record<string, string> = {}): Promise<Stack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webhook-bench-'));
  cleanups.push({ name: 'temp dir', fn: () => rmSync(dataDir, { recursive: true, force: true }) });

  // One at a time, so two calls never hand out the same port.
  const temporalPort = await getFreePort();
  const uiPort = await getFreePort();
  const mongoPort = await getFreePort();
  const apiPort = await getFreePort();
  const workerMetricsPort = await getFreePort();
  const postgresPort = await getFreePort();

  const passthrough: Record<string, string> = {};
  // MONGODB_URI / TEMPORAL_ADDRESS (+ TEMPORAL_NAMESPACE): measure against those servers instead
  // of embedded ones; their CPU is then not on this machine's books.
  for (const k of ['BINARY_CACHE_DIR', 'TEMPORAL_CLI_PATH', 'FERRETDB_PATH', 'MONGOD_PATH', 'EMBEDDED_DB_BACKEND', 'POSTGRES_BIN_DIR', 'MONGODB_URI', 'TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE']) {
    const v = process.env[k];
    if (v) passthrough[k] = v;
  }
  // Never the service's own database on a real server: a fresh one per run.
  if (passthrough.MONGODB_URI) passthrough.MONGODB_DB = `webhook_bench_${randomBytes(4).toString('hex')}`;
  const config = loadConfig({
    ...passthrough,
    DATA_DIR: dataDir,
    TEMPORAL_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(uiPort),
    MONGO_PORT: String(mongoPort),
    POSTGRES_PORT: String(postgresPort),
    PORT: String(apiPort),
  });

  const plan = await planLocalServers(config, {
    log,
    headless: true,
    fastSqlite: opts.fastSqlite,
    ...(opts.verbose ? { serverOutput: (server: string, line: string) => process.stderr.write(`[${server}] ${line}\n`) } : {}),
  });
  // Started in parallel like startLocalServers; each registers its stop as soon as it is up.
  const started = await Promise.allSettled(
    plan.units.map(async (u) => {
      const s = await u.start();
      cleanups.push({ name: u.name, fn: () => s.stop() });
      return { name: u.name, process: s.process };
    }),
  );
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  const servers = started.map((r) => (r as PromiseFulfilledResult<{ name: string; process: ManagedProcess }>).value);
  const pidOf = (name: string) => servers.find((s) => s.name === name)?.process.pid;

  // On an external server the run's database is dropped at the end (embedded ones go with DATA_DIR).
  const { db, apiKey: key, temporal } = await runClients({ plan, config, owner: 'bench', dropDatabase: config.mongo.uri !== undefined }, cleanups);

  const secretKey = randomBytes(32);
  const { env, serviceEnv: base } = serviceEnvironment(plan, config, dataDir);
  const serviceEnv: Record<string, string> = {
    ...base,
    LOG_LEVEL: opts.logLevel,
    PORT: String(apiPort),
    WORKER_METRICS_PORT: String(workerMetricsPort),
    RELAY_INTERVAL: opts.relayInterval,
    RETENTION_BATCH_SIZE: String(opts.retentionBatch),
    // Short retries that still outlast the outage scenario's 60 s (about 2 min in all), so it drains, not fails.
    DELIVERY_RETRY_SCHEDULE: '1s,2s,5s,10s,20s',
    DELIVERY_MAX_ATTEMPTS: '10',
    DELIVERY_TIMEOUT: '5s',
    // Production requires secrets sealed at rest: a throw-away key for the run.
    SECRET_ENCRYPTION_KEY: `bench:${secretKey.toString('base64')}`,
    ...serviceEnvOverrides,
  };
  // --profile: a preload (plain ESM, it runs before tsx is registered) that profiles the main thread
  // with the inspector and writes the profile when the process exits.
  const nodeOptions: string[] = opts.nodeOptions ? [opts.nodeOptions] : [];
  if (opts.profile) {
    const dir = join(root, '.data', 'bench', 'profiles');
    mkdirSync(dir, { recursive: true });
    const hook = join(dataDir, 'cpu-profile-hook.mjs');
    writeFileSync(hook, profileHook(dir));
    nodeOptions.push(`--import=${pathToFileURL(hook).href}`);
  }
  const quiet = ['warn', 'error', 'fatal', 'silent'].includes(opts.logLevel);
  const outputLines: Stack['outputLines'] = {};
  const nodeProcess = (name: string, entry: string, extraEnv: Record<string, string>) => {
    const count = (outputLines[name] ??= { lines: 0, duplicateKey: 0 });
    const p = new ManagedProcess({
      name,
      command: process.execPath,
      args: ['--import', 'tsx', entry],
      cwd: root,
      env: { ...env, ...serviceEnv, ...extraEnv, ...(nodeOptions.length ? { NODE_OPTIONS: nodeOptions.join(' '), BENCH_PROFILE_NAME: name } : {}) },
      onLine: (line) => {
        count.lines++;
        if (line.includes('E11000')) count.duplicateKey++;
        // Warnings and errors are shown, but only the first few: a repeated error would flood the report.
        if (opts.verbose || (quiet && count.lines <= 5)) process.stderr.write(`[${name}] ${line.slice(0, 600)}\n`);
        if (!opts.verbose && quiet && count.lines === 5) process.stderr.write(`[${name}] (further output counted, not shown; --verbose shows it)\n`);
      },
    });
    cleanups.push({ name, fn: () => p.stop(20_000) });
    return p;
  };
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const startServices = async (extraEnv: Record<string, string>) => {
    const worker = nodeProcess('worker', 'src/entry/worker.ts', extraEnv);
    const api = nodeProcess('api', 'src/entry/api.ts', extraEnv);
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (api.hasExited) throw new Error(`the API exited during start-up:\n${api.recentOutput()}`);
      if (worker.hasExited) throw new Error(`the worker exited during start-up:\n${worker.recentOutput()}`);
      const ok = await fetch(`${apiUrl}/readyz`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`the API was not ready within 120 s:\n${api.recentOutput()}`);
      await sleep(250);
    }
    return { api, worker };
  };
  let services = await startServices({});
  const stack: Stack = {
    dataDir,
    config,
    apiUrl,
    apiKey: key,
    db,
    temporal,
    dbDescription: plan.mongoDescription,
    pids: { worker: services.worker.pid, api: services.api.pid, temporal: pidOf('temporal'), db: pidOf('ferretdb') ?? pidOf('mongod'), postgres: pidOf('postgres') },
    processes: [services.worker, services.api, ...servers.map((s) => s.process)],
    serviceEnv,
    outputLines,
    workerMetricsUrl: `http://127.0.0.1:${workerMetricsPort}/metrics`,
    secretBox: new SecretBox({ id: 'bench', key: secretKey }),
    async restartServices(extraEnv) {
      await Promise.all([services.api.stop(20_000), services.worker.stop(20_000)]);
      services = await startServices(extraEnv);
      Object.assign(stack.pids, { worker: services.worker.pid, api: services.api.pid });
      stack.processes.splice(0, 2, services.worker, services.api);
    },
  };
  return stack;
}

/**
 * The environment of a run's API and worker processes: the caller's, without any variable the
 * service reads (the caller's shell must not change the run), and the service's variables
 * for the servers in `plan`, in production mode on loopback, with private callback URLs allowed.
 */
export function serviceEnvironment(plan: Pick<LocalServerPlan, 'mongoUri' | 'temporalAddress'>, config: Config, dataDir: string): { env: NodeJS.ProcessEnv; serviceEnv: Record<string, string> } {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(envSchema.shape)) delete env[k];
  const serviceEnv: Record<string, string> = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    MONGODB_URI: plan.mongoUri,
    MONGODB_DB: config.mongo.dbName,
    TEMPORAL_ADDRESS: plan.temporalAddress,
    TEMPORAL_NAMESPACE: config.temporal.namespace,
    TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
    CALLBACK_ALLOW_PRIVATE: 'true',
    SEED_DEMO_DATA: 'false',
  };
  return { env, serviceEnv };
}

/**
 * A run's own clients of the servers in `plan`: the database prepared and seeded with the demo
 * data, an API key for `owner` with every scope but admin, and a Temporal client; each closed
 * (and with `dropDatabase`, the database dropped) by the cleanups.
 */
export async function runClients(
  run: { plan: Pick<LocalServerPlan, 'mongoUri' | 'temporalAddress'>; config: Config; owner: string; dropDatabase: boolean },
  cleanups: Cleanup[],
): Promise<{ db: Db; apiKey: string; temporal: TemporalGateway }> {
  const mongo = createMongo(run.plan.mongoUri, run.config.mongo.dbName, `webhook-${run.owner}`);
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
  const temporal = new TemporalGateway(run.plan.temporalAddress, run.config.temporal.namespace);
  cleanups.push({ name: `${run.owner} temporal client`, fn: () => temporal.close() });
  return { db: mongo.db, apiKey: key, temporal };
}

/**
 * Source of the --profile preload: starts an inspector CPU profile of the main thread on SIGUSR2
 * (the bench sends it after the warm-up, so start-up and bundling stay out) and writes it
 * synchronously at exit.
 */
function profileHook(dir: string): string {
  return `import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
const session = new Session();
let started = false;
process.on('SIGUSR2', () => {
  if (started) return;
  started = true;
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
});
process.on('exit', () => {
  if (!started) return;
  session.post('Profiler.stop', (err, res) => {
    if (!err) writeFileSync(${JSON.stringify(dir)} + '/' + (process.env.BENCH_PROFILE_NAME ?? 'node') + '-' + process.pid + '.cpuprofile', JSON.stringify(res.profile));
  });
});
`;
}
