/** Entry point: the HTTP API alone (`npm run api`); scale out by running several. */
import { loadConfig } from '../config/config';
import { prepareDatabase } from '../db/indexes';
import { createMongo } from '../db/mongo';
import { createApp } from '../http/app';
import { createLogger } from '../logger';
import { createApiMetrics } from '../telemetry/metrics';
import { tracingFromConfig } from '../telemetry/tracing';
import { createAppDeps } from '../services';
import { sealStoredCredentials } from '../subscriptions/seal-credentials';
import { sealStoredSecrets } from '../subscriptions/seal-secrets';
import { TemporalGateway } from '../temporal/connection';
import { runUntilSignal } from './shutdown';

const config = loadConfig();
const logger = createLogger(config.logLevel, 'api', config.logFormat);
// First, so the database client and the Temporal client are traced from the start.
const tracing = tracingFromConfig(config.tracing, 'api');
const mongo = createMongo(config.mongo.connectUri, config.mongo.dbName, 'webhook-service-api', tracing?.tracer);
const temporal = new TemporalGateway(config.temporal.connectAddress, config.temporal.namespace, { traced: tracing !== undefined });
const deps = createAppDeps({
  db: mongo.db,
  temporal,
  logger,
  config,
  ...(config.metrics.enabled ? { metrics: createApiMetrics() } : {}),
  ...(tracing ? { tracer: tracing.tracer } : {}),
});
// Fails fast (and the supervisor restarts us) when the database is unreachable at start.
await prepareDatabase(mongo.db).catch((err: unknown) => {
  logger.fatal((err as Error).message);
  process.exit(1);
});
// Secrets stored before SECRET_ENCRYPTION_KEY was set, or under an older key, are sealed now.
const resealed = await sealStoredSecrets(deps.subscriptions.subscriptions, deps.subscriptions.secrets);
if (resealed > 0) logger.info({ subscriptions: resealed }, 'sealed stored signing secrets under the current key');
const resealedCredentials = await sealStoredCredentials(deps.subscriptions.subscriptions, deps.subscriptions.secrets);
if (resealedCredentials > 0) logger.info({ subscriptions: resealedCredentials }, 'sealed stored custom header values and auth credentials under the current key');
if (config.api.adminApiKey) await deps.apiKeys.ensureBootstrapAdmin(config.api.adminApiKey);
const app = createApp(deps);

const server = app.listen(config.http.port, config.http.host, () => {
  logger.info({ port: config.http.port, host: config.http.host }, 'api listening');
});
// A client sending its request slowly holds a load-shedding slot: bound how long it may take.
server.requestTimeout = 30_000;
server.headersTimeout = 10_000;
server.on('error', (err: NodeJS.ErrnoException) => {
  logger.fatal(
    err.code === 'EADDRINUSE'
      ? `Port ${config.http.port} (API) is already in use. Stop whatever is listening there, or set PORT to a free port.`
      : err.message,
  );
  process.exit(1);
});

await runUntilSignal(logger, async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await Promise.all([mongo.close(), temporal.close(), tracing?.shutdown()]);
});
