import type { Server } from 'node:http';
import type { Config } from '../config/config';
import { prepareDatabase } from '../db/indexes';
import { createMongo } from '../db/mongo';
import { createApp } from '../http/app';
import { boundConnections } from '../http/connection-admission';
import type { Logger } from '../logger';
import { sealStoredCredentials } from '../subscriptions/seal-credentials';
import { sealStoredSecrets } from '../subscriptions/seal-secrets';
import { createApiMetrics } from '../telemetry/metrics';
import { tracingFromConfig } from '../telemetry/tracing';
import { TemporalGateway } from '../temporal/connection';
import { createAppDeps } from './app-deps';

/** An API process, built and ready to listen. */
export interface ApiProcess {
  /** Listens on the configured host and port; rejects with a message naming the fix when it cannot. */
  listen(): Promise<Server>;
  /** Stops taking requests, lets those in flight finish, then closes every client. */
  stop(): Promise<void>;
}

/**
 * Composition root of the API process: tracing, the database (indexes made, stored secrets
 * sealed, the bootstrap admin key stored), the Temporal client and the app over them. Rejects
 * when the database cannot be prepared.
 */
export async function composeApi(config: Config, logger: Logger): Promise<ApiProcess> {
  // First, so the database client and the Temporal client are traced from the start.
  const tracing = tracingFromConfig(config.tracing, 'api');
  const metrics = config.metrics.enabled ? createApiMetrics() : undefined;
  const mongo = createMongo(config.mongo.connectUri, config.mongo.dbName, 'webhook-service-api', tracing?.tracer, config.metrics.dbCommands ? metrics?.dbCommands : undefined);
  const deliveryWorker = config.api.deliveryWorker;
  // Loaded only when on: the SDK's worker side (native core, bundler) costs an API without it memory and start time.
  const workerModule = deliveryWorker ? await import('./api-delivery-worker') : undefined;
  // Before the first native connection: the SDK's core logs through ours.
  workerModule?.installApiRuntime(logger, config.logLevel);
  const temporal = new TemporalGateway(config.temporal.connectAddress, config.temporal.namespace, { traced: tracing !== undefined, native: deliveryWorker });
  const deps = createAppDeps({
    db: mongo.db,
    temporal,
    logger,
    config,
    ...(metrics ? { metrics } : {}),
    ...(tracing ? { tracer: tracing.tracer } : {}),
  });
  await prepareDatabase(mongo.db);
  // Secrets stored before SECRET_ENCRYPTION_KEY was set, or under an older key, are sealed now.
  const resealed = await sealStoredSecrets(deps.subscriptions.subscriptions, deps.subscriptions.secrets);
  if (resealed > 0) logger.info({ subscriptions: resealed }, 'sealed stored signing secrets under the current key');
  const resealedCredentials = await sealStoredCredentials(deps.subscriptions.subscriptions, deps.subscriptions.secrets);
  if (resealedCredentials > 0) logger.info({ subscriptions: resealedCredentials }, 'sealed stored custom header values and auth credentials under the current key');
  if (config.api.adminApiKey) await deps.apiKeys.ensureBootstrapAdmin(config.api.adminApiKey);
  const app = createApp(deps);
  let server: Server | undefined;
  const worker = await workerModule?.startDeliveryWorker(config, logger, temporal, mongo.db, tracing);

  return {
    listen: () =>
      new Promise((resolve, reject) => {
        const listening = app.listen(config.http.port, config.http.host, () => {
          logger.info({ port: config.http.port, host: config.http.host }, 'api listening');
          resolve(listening);
        });
        // Backstops for slow clients; bodies have their own shorter deadline (API_BODY_TIMEOUT) in the app.
        listening.requestTimeout = 30_000;
        listening.headersTimeout = 10_000;
        // A socket with no traffic either way for 30 s is closed: a client that stops reading its answer cannot keep it.
        listening.timeout = 30_000;
        // Headers and bodies are bounded per request; this bounds the sockets themselves, so trickling clients cannot run out the file descriptors.
        boundConnections(listening, { ...config.api.connections, metrics });
        listening.once('error', (err: NodeJS.ErrnoException) => {
          reject(
            new Error(
              err.code === 'EADDRINUSE'
                ? `Port ${config.http.port} (API) is already in use. Stop whatever is listening there, or set PORT to a free port.`
                : err.message,
            ),
          );
        });
        server = listening;
      }),
    stop: async () => {
      if (server) await new Promise<void>((resolve) => server?.close(() => resolve()));
      // The workflow starts the last requests left running, before the clients they use close (a start cut off waits for the relay).
      await deps.deliveries.dispatcher.drain();
      // After the last request (no more starts), before the clients it uses close: its tasks in hand finish.
      await worker?.stop();
      // The last moves' stock levels, so other processes (and the next start) list them.
      await deps.resources.inventory.ledger.copyPending();
      await Promise.all([mongo.close(), temporal.close(), tracing?.shutdown()]);
    },
  };
}
