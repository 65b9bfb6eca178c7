import { assertSourceAddress } from '../../activities/http-post';
import { createAlertActivities } from '../../activities/alerts';
import type { Config } from '../config/config';
import { loadContract } from '../contract/openapi';
import { backfillLists } from '../db/backfill-lists';
import { prepareDatabase } from '../db/indexes';
import { OperationalNotices } from '../alerts/repository';
import { createMongo } from '../db/mongo';
import { DeliveryRate } from '../deliveries/delivery-rate';
import { DispatchNotes } from '../events/dispatch-notes';
import { relayGraceMs, startRelay } from '../events/relay';
import { AttemptRepository } from '../deliveries/attempts';
import { HeldDeliveryRepository } from '../deliveries/held';
import { startHoldSweep } from '../deliveries/hold-sweep';
import { drainStarter } from '../temporal/start-drain';
import { startStockSweeper } from '../inventory/use-cases';
import type { Logger } from '../logger';
import { installRetentionSchedule } from '../retention/install-schedule';
import { getFreePort } from '../lib/free-port';
import { startDeprecationWatch } from '../subscriptions/deprecated-versions';
import { SubscriptionRepository } from '../subscriptions/repository';
import { relayBacklog, retryingDeliveries } from '../telemetry/delivery-gauges';
import { createWorkerMetrics } from '../telemetry/metrics';
import { tracingFromConfig } from '../telemetry/tracing';
import { TemporalGateway } from '../temporal/connection';
import { ensureTemporalSetup, TemporalSetupError } from '../temporal/setup';
import { versionDeprecations } from '../webhooks/versions';
import { createLaneWorkers } from '../worker/create-worker';
import { startMetricsServer } from '../worker/metrics-server';
import { runWorkerUntilStopped } from '../worker/run-worker';
import { installWorkerRuntime } from '../worker/runtime-logger';
import { closeBrokers, deliveryActivityDeps, deliveryWorkflowBundle, postingSettings } from './delivery-worker';
import { deliverySettings, eventDispatch, ownerLanes, processStock, relayDeps } from './shared';

/** A worker process, built: `run` polls until `stopping` resolves, then closes everything. */
export interface WorkerProcess {
  run(stopping: Promise<void>): Promise<void>;
}

/** What the process does when it must not go on (e.g. search attributes it may not register). */
export type Fatal = (message: string) => never;

/**
 * Composition root of the worker process: the SDK runtime and metrics, tracing, the database, the
 * relay and sweepers beside the Temporal worker, and the worker's activities over them. Rejects,
 * with a message naming the fix, when the source address, the database or the metrics port is unusable.
 */
export async function composeWorker(config: Config, logger: Logger, fatal: Fatal): Promise<WorkerProcess> {
  // An address this host does not have would fail every POST: fail at start instead, saying which variable.
  if (config.delivery.sourceAddress) await assertSourceAddress(config.delivery.sourceAddress);
  // Every event links to its resource (data.url); without PUBLIC_URL the link names this host's API address.
  if (!config.api.portal.publicUrl && config.env === 'production') {
    logger.warn({ apiUrl: config.delivery.payloads.apiUrl }, 'PUBLIC_URL is unset: events link to the API at its listen address, which receivers elsewhere may not reach');
  }
  const metricsOn = config.metrics.workerPort !== 0;
  // The SDK's exporter listens on a private loopback port; our /metrics appends what it serves.
  const sdkMetricsPort = metricsOn ? await getFreePort() : undefined;
  installWorkerRuntime(logger, config.logLevel, sdkMetricsPort ? `127.0.0.1:${sdkMetricsPort}` : undefined);
  const tracing = tracingFromConfig(config.tracing, 'worker');
  // The relay re-dispatches what a crash or a Temporal outage left behind.
  const temporal = new TemporalGateway(config.temporal.connectAddress, config.temporal.namespace, { traced: tracing !== undefined });
  // Before the database client, which counts its commands in them; the backlog is read on scrapes only, after it exists.
  const metrics = metricsOn
    ? createWorkerMetrics({
        retrying: retryingDeliveries(() => temporal.client(), config.temporal.taskQueue),
        relayBacklog: () => backlog(),
      })
    : undefined;
  const mongo = createMongo(config.mongo.connectUri, config.mongo.dbName, 'webhook-service-worker', tracing?.tracer, config.metrics.dbCommands ? metrics?.dbCommands : undefined);
  const backlog = relayBacklog(new DispatchNotes(mongo.db), relayGraceMs(config.delivery.relayIntervalMs));
  await prepareDatabase(mongo.db);
  const metricsServer = metrics
    ? await startMetricsServer({
        host: config.http.host,
        port: config.metrics.workerPort,
        registry: metrics.registry,
        sdkMetricsUrl: `http://127.0.0.1:${sdkMetricsPort}/metrics`,
        token: config.metrics.token,
      }).catch((err: NodeJS.ErrnoException) => {
        throw new Error(
          err.code === 'EADDRINUSE'
            ? `Port ${config.metrics.workerPort} (worker metrics) is already in use. Stop whatever is listening there, or set WORKER_METRICS_PORT to a free port (0: no worker metrics).`
            : err.message,
        );
      })
    : undefined;
  if (metricsServer) logger.info({ port: config.metrics.workerPort, host: config.http.host }, 'worker metrics listening');

  const posting = postingSettings(config);
  const activityDeps = deliveryActivityDeps(config, mongo.db, 'worker', metrics);
  const workflowBundle = await deliveryWorkflowBundle(tracing);

  return {
    run: async (stopping) => {
      const subscriptions = new SubscriptionRepository(mongo.db);
      const dispatch = eventDispatch(mongo.db, { fanout: subscriptions, temporal: () => temporal.client(), settings: deliverySettings(config), lanes: ownerLanes(config), logger, metrics });
      const { dispatcher } = dispatch;
      const stock = processStock(mongo.db, dispatcher, logger);
      const relay = startRelay(relayDeps(mongo.db, dispatch, logger, metrics, stock), config.delivery.relayIntervalMs);
      // Releases stock reservations whose order a crash kept from being written, finishes interrupted returns.
      const stockSweeper = startStockSweeper(stock.inventory, config.delivery.relayIntervalMs);
      // Deprecated versions still in use: counted now and hourly, the administrator told once a day per version.
      const { notifyOperator, raiseAlert } = createAlertActivities({ db: mongo.db, ...posting });
      // Held deliveries: drains a crash kept from starting, and holds past SUBSCRIPTION_HOLD_MAX.
      const holdSweep = startHoldSweep(
        {
          held: new HeldDeliveryRepository(mongo.db),
          subscriptions,
          attempts: new AttemptRepository(mongo.db),
          raiseAlert,
          startDrain: drainStarter(() => temporal.client(), deliverySettings(config)),
          holdMaxMs: config.delivery.holdMaxMs,
          logger,
        },
        config.delivery.relayIntervalMs,
      );
      const deprecationWatch = startDeprecationWatch({ subscriptions, notices: new OperationalNotices(mongo.db), deprecations: versionDeprecations(loadContract()), notifyOperator, logger });
      // Every worker makes sure of the schedule; creating it is idempotent, so racing workers are fine.
      // Not awaited at exit: a call stuck on a Temporal outage must not hold up a stop.
      void installRetentionSchedule({ config, client: () => temporal.client(), logger, stopping });
      // In the background: lists and retention see data stored before lists existed once it is tagged.
      void backfillLists(mongo.db).then(
        (tagged) => Object.values(tagged).some((n) => n > 0) && logger.info({ tagged }, 'listed documents stored before lists existed'),
        (err: unknown) => logger.warn({ err }, 'tagging documents stored before lists existed failed; the next start tries again'),
      );

      // Rate-limit slots a crashed worker left behind; nothing reads a past second's slot.
      void new DeliveryRate(mongo.db).sweepPast().then(
        (deleted) => deleted > 0 && logger.info({ deleted }, 'deleted rate-limit slots left by a stopped worker'),
        (err: unknown) => logger.warn({ err }, 'deleting old rate-limit slots failed; the next start tries again'),
      );

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
              // Unregistered attributes fail every workflow task: stop here, saying what to run.
              if (err instanceof TemporalSetupError) fatal(err.message);
              throw err;
            });
            if (setup.namespaceCreated || setup.added.length > 0) logger.info({ namespace: config.temporal.namespace, ...setup }, 'temporal namespace set up');
            setupDone = true;
          }
          return createLaneWorkers({
            connection,
            namespace: config.temporal.namespace,
            taskQueue: config.temporal.taskQueue,
            workflowBundle,
            tracing,
            deps: activityDeps,
            bulkConcurrency: config.delivery.fairShare.bulkConcurrency,
            targetCpu: config.delivery.workerTargetCpu,
          });
        },
      });
      // The Temporal worker has stopped running activities: no delivery uses a broker connection any more.
      await Promise.all([relay.stop(), stockSweeper.stop(), deprecationWatch.stop(), holdSweep.stop(), closeBrokers(activityDeps.brokers, logger)]);
      await dispatcher.drain();
      metricsServer?.close();
      await Promise.all([temporal.close(), mongo.close(), tracing?.shutdown()]);
      logger.info('worker stopped');
    },
  };
}
