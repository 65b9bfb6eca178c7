import type { Db } from 'mongodb';
import type { Config } from '../config/config';
import type { Logger } from '../logger';
import type { Tracing } from '../telemetry/tracing';
import type { TemporalGateway } from '../temporal/connection';
import { createLaneWorkers } from '../worker/create-worker';
import { runWorkerUntilStopped } from '../worker/run-worker';
import { Runtime } from '@temporalio/worker';
import { assertSourceAddress } from '../../activities/http-post';
import { installWorkerRuntime } from '../worker/runtime-logger';
import { closeBrokers, deliveryActivityDeps, deliveryWorkflowBundle } from './delivery-worker';

/** Routes the SDK's logs into the API's logger, unless the embedding process (tests) installed a runtime of its own first. */
export function installApiRuntime(logger: Logger, level: string): void {
  if (!Runtime._instance) installWorkerRuntime(logger, level);
}

/**
 * The API's own delivery worker (API_DELIVERY_WORKER), on the API client's NativeConnection so
 * the workflows this process starts get their first task in the start's reply. The worker process
 * still runs the relay, sweepers and schedules, and takes every task this one does not.
 */
export async function startDeliveryWorker(config: Config, logger: Logger, temporal: TemporalGateway, db: Db, tracing: Tracing | undefined): Promise<{ stop(): Promise<void> }> {
  // As the worker process does: POSTs from an address this host lacks would all fail.
  if (config.delivery.sourceAddress) await assertSourceAddress(config.delivery.sourceAddress);
  const workflowBundle = await deliveryWorkflowBundle(tracing);
  const deps = deliveryActivityDeps(config, db, 'api');
  let stop!: () => void;
  const stopping = new Promise<void>((resolve) => (stop = resolve));
  const running = runWorkerUntilStopped({
    address: config.temporal.connectAddress,
    logger,
    stopping,
    shared: () => temporal.nativeConnection(),
    create: (connection) => createLaneWorkers({ connection, namespace: config.temporal.namespace, taskQueue: config.temporal.taskQueue, workflowBundle, tracing, deps, bulkConcurrency: config.delivery.fairShare.bulkConcurrency, targetCpu: config.delivery.workerTargetCpu }),
  });
  return {
    stop: async () => {
      stop();
      await running;
      await closeBrokers(deps.brokers, logger);
    },
  };
}
