/**
 * Entry point for `npm start`: starts, supervises and stops together the embedded servers of the
 * LOCAL_STACK profile (Temporal dev server, or PostgreSQL and a two-node Temporal cluster; a
 * MongoDB-wire database) unless configured externally, then the API and the worker as separate
 * processes. Ctrl-C or SIGTERM stops everything.
 */
import { join } from 'node:path';
import { createLogger, createMongo, describeSeed, devAdminKey, prepareDatabase, seedDemoData, watchParent } from '../../src/compose/dev-stack';
import { loadStackConfig } from '../config/config';
import { assertPortFree } from '../runtime/ports';
import { type Stack, startStack } from '../runtime/stack';

const config = loadStackConfig();
const logger = createLogger(config.logLevel, 'supervisor', config.logFormat);

function fail(message: string): never {
  logger.fatal(message);
  process.exit(1);
}

let stack: Stack | undefined;
let shuttingDown = false;
async function shutdown(code: number): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info('stopping api, worker and embedded servers');
  await stack?.stop();
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
  // Without ADMIN_API_KEY, a key kept in DATA_DIR makes the demo usable at once.
  const adminKeyFile = join(config.dataDir, 'admin-api-key');
  const adminKey = config.api.adminApiKey ?? devAdminKey(adminKeyFile).key;
  await assertPortFree(config.http.port, 'PORT', 'API', config.http.host);
  if (config.metrics.workerPort !== 0) await assertPortFree(config.metrics.workerPort, 'WORKER_METRICS_PORT', 'worker metrics', config.http.host);
  stack = await startStack({
    config,
    log: (line) => logger.info(line),
    serverOutput: (server, line) => process.stdout.write(`[${server}] ${line}\n`),
    processOutput: (_name, line) => process.stdout.write(`${line}\n`),
    // The children get the resolved addresses (from the profile), so they never start servers of their own.
    serviceEnv: {
      ADMIN_API_KEY: adminKey,
      // Children write into our pipe: they log in the format this terminal (or LOG_FORMAT) asks for.
      LOG_FORMAT: config.logFormat,
    },
    supervise: {
      onFatal: (reason) => {
        logger.fatal(reason);
        void shutdown(1);
      },
    },
    // Demo data goes into an empty database once, before the API and worker start.
    beforeServices: async (servers) => {
      if (!config.seedDemoData) return;
      const mongo = createMongo(servers.env.MONGODB_URI ?? config.mongo.connectUri, config.mongo.dbName, 'webhook-service-seed');
      try {
        await prepareDatabase(mongo.db);
        const seeded = await seedDemoData(mongo.db);
        logger.info(seeded ? `${describeSeed(seeded)} Set SEED_DEMO_DATA=false to skip this.` : describeSeed(seeded));
      } finally {
        await mongo.close();
      }
    },
  });

  const host = config.http.host === '0.0.0.0' ? 'localhost' : config.http.host;
  const base = `http://${host}:${config.http.port}`;
  const lines = [
    'Webhook service is running:',
    `  API            ${base}`,
    `  API reference  ${base}/docs  (contract: ${base}/openapi.json)`,
    `  Portal         ${base}/portal  (open it with a link from POST /api/webhooks/v1/portal-sessions)`,
    `  Health         ${base}/healthz  ${base}/readyz`,
    ...(config.metrics.enabled ? [`  Metrics        ${base}/metrics (API)${config.metrics.workerPort !== 0 ? `  http://${host}:${config.metrics.workerPort}/metrics (worker)` : ''}${config.metrics.token ? '  (Bearer METRICS_TOKEN)' : ''}`] : []),
    `  Temporal       ${stack.servers.temporal}`,
    ...(stack.servers.temporalUiUrl ? [`  Temporal UI    ${stack.servers.temporalUiUrl}`] : []),
    `  MongoDB        ${stack.servers.database}`,
    config.api.adminApiKey
      ? '  Admin API key  the value of ADMIN_API_KEY'
      : `  Admin API key  ${adminKey}  (kept in ${adminKeyFile}; export API_KEY=$(cat ${adminKeyFile}))`,
    'Press Ctrl-C to stop.',
  ];
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
} catch (err) {
  await stack?.stop();
  fail((err as Error).message);
}
