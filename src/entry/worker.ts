/** Entry point: the Temporal worker alone (`npm run worker`); scale out by running several. */
import { hostname } from 'node:os';
import { loadConfig } from '../config/config';
import { backfillLists } from '../db/backfill-lists';
import { prepareDatabase } from '../db/indexes';
import { createMongo } from '../db/mongo';
import { EventDispatcher } from '../events/dispatcher';
import { startRelay } from '../events/relay';
import { deliverySettings, inventoryDeps, relayDeps, secretBox } from '../services';
import { startStockSweeper } from '../inventory/use-cases';
import { OrderRepository } from '../resources/repository';
import { createLogger } from '../logger';
import { DispatchNotes } from '../events/dispatch-notes';
import { getFreePort } from '../runtime/ports';
import { relayBacklog, retryingDeliveries } from '../telemetry/delivery-gauges';
import { createWorkerMetrics } from '../telemetry/metrics';
import { startMetricsServer } from '../worker/metrics-server';
import { TemporalGateway } from '../temporal/connection';
import { userAgent } from '../version';
import { Runtime, bundleWorkflowCode } from '@temporalio/worker';
import { createWorker, prebuiltWorkflowBundle, tracingWorkflowInterceptors, workflowsPath } from '../worker/create-worker';
import { tracingFromConfig } from '../telemetry/tracing';
import { runWorkerUntilStopped } from '../worker/run-worker';
import { installWorkerRuntime } from '../worker/runtime-logger';
import { installRetentionSchedule } from '../retention/install-schedule';
import { ensureTemporalSetup, TemporalSetupError } from '../temporal/setup';
import { supervisorPid, watchParent } from './shutdown';
import { assertSourceAddress } from '../../activities/http-post';
import { createAlertActivities } from '../../activities/alerts';
import { loadContract } from '../contract/openapi';
import { startDeprecationWatch } from '../subscriptions/deprecated-versions';
import { versionDeprecations } from '../webhooks/versions';

const config = loadConfig();
const logger = createLogger(config.logLevel, 'worker', config.logFormat);
// An address this host does not have would fail every POST: fail at start instead, saying which variable.
if (config.delivery.sourceAddress) {
  await assertSourceAddress(config.delivery.sourceAddress).catch((err: unknown) => {
    logger.fatal((err as Error).message);
    process.exit(1);
  });
}
// Every event links to its resource (data.url); without PUBLIC_URL the link names this host's API address.
if (!config.api.portal.publicUrl && config.env === 'production') {
  logger.warn({ apiUrl: config.delivery.payloads.apiUrl }, 'PUBLIC_URL is unset: events link to the API at its listen address, which receivers elsewhere may not reach');
}
const metricsOn = config.metrics.workerPort !== 0;
// The SDK's exporter listens on a private loopback port; our /metrics appends what it serves.
const sdkMetricsPort = metricsOn ? await getFreePort() : undefined;
installWorkerRuntime(logger, config.logLevel, sdkMetricsPort ? `127.0.0.1:${sdkMetricsPort}` : undefined);
const tracing = tracingFromConfig(config.tracing, 'worker');
const mongo = createMongo(config.mongo.connectUri, config.mongo.dbName, 'webhook-service-worker', tracing?.tracer);
await prepareDatabase(mongo.db).catch((err: unknown) => {
  logger.fatal((err as Error).message);
  process.exit(1);
});

const stopping = new Promise<void>((resolve) => {
  process.once('SIGINT', () => resolve());
  process.once('SIGTERM', () => resolve());
  const supervisor = supervisorPid();
  if (supervisor) watchParent(resolve, supervisor);
});

// The relay re-dispatches what a crash or a Temporal outage left behind.
const temporal = new TemporalGateway(config.temporal.connectAddress, config.temporal.namespace, { traced: tracing !== undefined });
const metrics = metricsOn
  ? createWorkerMetrics({
      retrying: retryingDeliveries(() => temporal.client(), config.temporal.taskQueue),
      relayBacklog: relayBacklog(new DispatchNotes(mongo.db), config.delivery.relayIntervalMs),
    })
  : undefined;
const metricsServer = metrics
  ? await startMetricsServer({
      host: config.http.host,
      port: config.metrics.workerPort,
      registry: metrics.registry,
      sdkMetricsUrl: `http://127.0.0.1:${sdkMetricsPort}/metrics`,
      token: config.metrics.token,
    }).catch((err: NodeJS.ErrnoException) => {
      logger.fatal(
        err.code === 'EADDRINUSE'
          ? `Port ${config.metrics.workerPort} (worker metrics) is already in use. Stop whatever is listening there, or set WORKER_METRICS_PORT to a free port (0: no worker metrics).`
          : err.message,
      );
      process.exit(1);
    })
  : undefined;
if (metricsServer) logger.info({ port: config.metrics.workerPort, host: config.http.host }, 'worker metrics listening');
const dispatcher = new EventDispatcher({ db: mongo.db, temporal: () => temporal.client(), settings: deliverySettings(config), logger, metrics });
const relay = startRelay(relayDeps(mongo.db, dispatcher, logger, metrics), config.delivery.relayIntervalMs);
// Releases stock reservations whose order a crash kept from being written, finishes interrupted returns.
const stockSweeper = startStockSweeper(inventoryDeps(mongo.db, new OrderRepository(mongo.db), dispatcher, logger), config.delivery.relayIntervalMs);
// Deprecated versions still in use: counted now and hourly, the administrator told once a day per version.
// How POSTs leave this worker, deliveries and operator notifications alike.
const posting = {
  allowPrivate: config.api.allowPrivateCallbacks,
  timeoutMs: config.delivery.timeoutMs,
  sourceAddress: config.delivery.sourceAddress,
  proxy: config.delivery.proxy,
  userAgent,
  alertUrl: config.delivery.alertUrl,
  alertSecret: config.delivery.alertSecret,
};
const { notifyOperator } = createAlertActivities({ db: mongo.db, ...posting });
const deprecationWatch = startDeprecationWatch({ db: mongo.db, deprecations: versionDeprecations(loadContract()), notifyOperator, logger });
// Every worker makes sure of the schedule; creating it is idempotent, so racing workers are fine.
// Not awaited at exit: a call stuck on a Temporal outage must not hold up a stop.
void installRetentionSchedule({ config, client: () => temporal.client(), logger, stopping });
// In the background: lists and retention see data stored before lists existed once it is tagged.
void backfillLists(mongo.db).then(
  (tagged) => Object.values(tagged).some((n) => n > 0) && logger.info({ tagged }, 'listed documents stored before lists existed'),
  (err: unknown) => logger.warn({ err }, 'tagging documents stored before lists existed failed; the next start tries again'),
);

// The compiled build's prebuilt bundle, else bundled once: a worker rebuilt after a Temporal outage reuses it.
const workflowBundle =
  prebuiltWorkflowBundle(tracing !== undefined) ??
  (await bundleWorkflowCode({
    workflowsPath,
    ...(tracing ? { workflowInterceptorModules: tracingWorkflowInterceptors } : {}),
    logger: Runtime.instance().logger,
  }));
logger.info(
  { taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace, workflowBundle: 'codePath' in workflowBundle ? workflowBundle.codePath : 'bundled at start' },
  'worker starting',
);
let setupDone = false;
await runWorkerUntilStopped({
  address: config.temporal.connectAddress,
  logger,
  stopping,
  create: async (connection) => {
    // Namespace and search attributes, once per process; Temporal being away is retried like any outage.
    if (!setupDone) {
      const setup = await ensureTemporalSetup(connection, { namespace: config.temporal.namespace }).catch((err: unknown) => {
        if (!(err instanceof TemporalSetupError)) throw err;
        // Unregistered attributes fail every workflow task: stop here, saying what to run.
        logger.fatal(err.message);
        process.exit(1);
      });
      if (setup.namespaceCreated || setup.added.length > 0) logger.info({ namespace: config.temporal.namespace, ...setup }, 'temporal namespace set up');
      setupDone = true;
    }
    return createWorker({
      connection,
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      workflowBundle,
      tracing,
      deps: {
        db: mongo.db,
        workerIdentity: `worker@${hostname()}:${process.pid}`,
        ...posting,
        payloads: config.delivery.payloads,
        disableAfterMs: config.delivery.disableAfterMs,
        maxInFlight: config.delivery.maxInFlight,
        retentionBusyShare: config.retention.busyShare,
        metrics,
        secretBox: secretBox(config),
      },
    });
  },
});
await Promise.all([relay.stop(), stockSweeper.stop(), deprecationWatch.stop()]);
metricsServer?.close();
await Promise.all([temporal.close(), mongo.close(), tracing?.shutdown()]);
logger.info('worker stopped');
process.exit(0);
