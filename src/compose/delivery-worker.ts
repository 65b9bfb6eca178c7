import { hostname } from 'node:os';
import type { Db } from 'mongodb';
import { bundleWorkflowCode, Runtime, type WorkerOptions } from '@temporalio/worker';
import type { ActivityDeps } from '../../activities';
import { BrokerPools } from '../../activities/broker-pools';
import type { Logger } from '../logger';
import type { Config } from '../config/config';
import type { WorkerMetrics } from '../telemetry/metrics';
import type { Tracing } from '../telemetry/tracing';
import { userAgent } from '../version';
import { prebuiltWorkflowBundle, preloadModules, tracingWorkflowInterceptors, workflowsPath } from '../worker/create-worker';
import { secretBox } from './shared';

/** How POSTs leave a delivery worker, deliveries and operator notifications alike. */
export function postingSettings(config: Config) {
  return {
    allowPrivate: config.api.allowPrivateCallbacks,
    timeoutMs: config.delivery.timeoutMs,
    sourceAddress: config.delivery.sourceAddress,
    proxy: config.delivery.proxy,
    userAgent,
    alertUrl: config.delivery.alertUrl,
    alertSecret: config.delivery.alertSecret,
    alertsPerOwnerPerHour: config.delivery.alertsPerOwnerPerHour,
  };
}

/**
 * The delivery activities' dependencies from the configuration; `role` names the process in the
 * worker's identity. `brokers` holds the process's broker connections: {@link closeBrokers} once
 * the worker stopped.
 */
export function deliveryActivityDeps(config: Config, db: Db, role: 'worker' | 'api', metrics?: WorkerMetrics): ActivityDeps & { brokers: BrokerPools } {
  return {
    brokers: new BrokerPools(),
    db,
    workerIdentity: `${role}@${hostname()}:${process.pid}`,
    ...postingSettings(config),
    payloads: config.delivery.payloads,
    disableAfterMs: config.delivery.disableAfterMs,
    maxInFlight: config.delivery.maxInFlight,
    subscriptionCacheTtlMs: config.delivery.subscriptionCacheTtlMs,
    holdMaxMs: config.delivery.holdMaxMs,
    retentionBusyShare: config.retention.busyShare,
    metrics,
    secretBox: secretBox(config),
  };
}

/**
 * Closes a stopped worker's broker connections, bounded (a broker that does not answer leaves its
 * socket to the process's exit), and says so when one did not close in time.
 */
export async function closeBrokers(brokers: BrokerPools, logger: Logger): Promise<void> {
  const unclosed = await brokers.close();
  if (unclosed > 0) logger.warn({ unclosed }, 'broker connections did not close in time; they end with the process');
}

/** The compiled build's prebuilt workflow bundle, else one bundled now (once per process: a rebuilt worker reuses it). */
export async function deliveryWorkflowBundle(tracing: Tracing | undefined): Promise<NonNullable<WorkerOptions['workflowBundle']>> {
  return (
    prebuiltWorkflowBundle(tracing !== undefined) ??
    (await bundleWorkflowCode({
      workflowsPath,
      preloadModules,
      ...(tracing ? { workflowInterceptorModules: tracingWorkflowInterceptors } : {}),
      logger: Runtime.instance().logger,
    }))
  );
}
