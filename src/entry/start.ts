/**
 * Entry point for `npm start`: starts, supervises and stops together the embedded servers
 * (Temporal dev server, MongoDB-wire database) unless configured externally, then the API
 * and the worker as separate processes. Ctrl-C or SIGTERM stops everything.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManagedProcess } from '../runtime/processes';
import { planLocalServers } from '../runtime/local-servers';
import { assertPortFree } from '../runtime/ports';
import { Supervisor, type Unit } from '../runtime/supervisor';
import { devAdminKey } from '../auth/dev-admin-key';
import { loadConfig } from '../config/config';
import { prepareDatabase } from '../db/indexes';
import { createMongo } from '../db/mongo';
import { createLogger } from '../logger';
import { watchParent } from './shutdown';
import { describeSeed, seedDemoData } from '../seed/seed';

const root = fileURLToPath(new URL('../../', import.meta.url));
const config = loadConfig();
const logger = createLogger(config.logLevel, 'supervisor', config.logFormat);

function fail(message: string): never {
  logger.fatal(message);
  process.exit(1);
}

let supervisor: Supervisor | undefined;
let shuttingDown = false;
async function shutdown(code: number): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info('stopping api, worker and embedded servers');
  await supervisor?.stopAll();
  logger.info('stopped');
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
watchParent(() => {
  logger.info('parent process exited');
  void shutdown(0);
});

try {
  await assertPortFree(config.http.port, 'PORT', 'API', config.http.host);
  if (config.metrics.workerPort !== 0) await assertPortFree(config.metrics.workerPort, 'WORKER_METRICS_PORT', 'worker metrics', config.http.host);
  const plan = await planLocalServers(config, {
    log: (line) => logger.info(line),
    serverOutput: (server, line) => process.stdout.write(`[${server}] ${line}\n`),
  });
  supervisor = new Supervisor(
    (level, msg) => logger[level](msg),
    (reason) => {
      logger.fatal(reason);
      void shutdown(1);
    },
  );
  const sup = supervisor;
  await Promise.all(plan.units.map((u) => sup.add(u)));

  // Demo data goes into an empty database once, before the API and worker start.
  if (config.seedDemoData) {
    const mongo = createMongo(plan.mongoUri, config.mongo.dbName, 'webhook-service-seed');
    try {
      await prepareDatabase(mongo.db);
      const seeded = await seedDemoData(mongo.db);
      logger.info(seeded ? `${describeSeed(seeded)} Set SEED_DEMO_DATA=false to skip this.` : describeSeed(seeded));
    } finally {
      await mongo.close();
    }
  }

  // The children get the resolved addresses, so they never start servers of their own.
  // Without ADMIN_API_KEY, a key kept in DATA_DIR makes the demo usable at once.
  const adminKeyFile = join(config.dataDir, 'admin-api-key');
  const adminKey = config.api.adminApiKey ?? devAdminKey(adminKeyFile).key;
  const childEnv = {
    ...process.env,
    MONGODB_URI: plan.mongoUri,
    TEMPORAL_ADDRESS: plan.temporalAddress,
    // Administrator portal sessions link to the embedded UI (an explicit TEMPORAL_UI_URL wins).
    ...(plan.temporalUiUrl ? { TEMPORAL_UI_URL: config.api.portal.temporalUiUrl ?? plan.temporalUiUrl } : {}),
    ADMIN_API_KEY: adminKey,
    // Children write into our pipe: they log in the format this terminal (or LOG_FORMAT) asks for.
    LOG_FORMAT: config.logFormat,
    // Children exit if this supervisor dies without stopping them (e.g. SIGKILL).
    WEBHOOK_SUPERVISOR_PID: String(process.pid),
  };
  const nodeUnit = (name: string, entry: string): Unit => ({
    name,
    start: () => {
      const p = new ManagedProcess({
        name,
        command: process.execPath,
        args: ['--import', 'tsx', entry],
        cwd: root,
        env: childEnv,
        onLine: (line) => process.stdout.write(`${line}\n`),
      });
      return Promise.resolve({ process: p, stop: () => p.stop(20_000) });
    },
  });
  await sup.add(nodeUnit('worker', 'src/entry/worker.ts'));
  await sup.add(nodeUnit('api', 'src/entry/api.ts'));

  const host = config.http.host === '0.0.0.0' ? 'localhost' : config.http.host;
  const base = `http://${host}:${config.http.port}`;
  await waitForReady(`${base}/readyz`, 180_000);
  const lines = [
    'Webhook service is running:',
    `  API            ${base}`,
    `  API reference  ${base}/docs  (contract: ${base}/openapi.json)`,
    `  Portal         ${base}/portal  (open it with a link from POST /api/webhooks/v1/portal-sessions)`,
    `  Health         ${base}/healthz  ${base}/readyz`,
    ...(config.metrics.enabled ? [`  Metrics        ${base}/metrics (API)${config.metrics.workerPort !== 0 ? `  http://${host}:${config.metrics.workerPort}/metrics (worker)` : ''}${config.metrics.token ? '  (Bearer METRICS_TOKEN)' : ''}`] : []),
    `  Temporal       ${plan.temporalAddress} (namespace ${config.temporal.namespace})`,
    ...(plan.temporalUiUrl ? [`  Temporal UI    ${plan.temporalUiUrl}`] : []),
    `  MongoDB        ${plan.mongoDescription}`,
    config.api.adminApiKey
      ? '  Admin API key  the value of ADMIN_API_KEY'
      : `  Admin API key  ${adminKey}  (kept in ${adminKeyFile}; export API_KEY=$(cat ${adminKeyFile}))`,
    'Press Ctrl-C to stop.',
  ];
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
} catch (err) {
  await supervisor?.stopAll();
  fail((err as Error).message);
}

async function waitForReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !shuttingDown) {
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`The API did not become ready at ${url} within ${timeoutMs / 1000}s`);
}
