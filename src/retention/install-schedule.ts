import type { Client } from '@temporalio/client';
import type { Config } from '../config/config';
import type { Logger } from '../logger';
import { longestDeliverySpanMs } from './delivery-span';
import { ensureRetentionSchedule, removeRetentionSchedule, type RetentionSchedule, retentionScheduleId } from './schedule';

/** The retention schedule this configuration asks for; undefined when RETENTION_DAYS=off. */
export function retentionSchedule(config: Config): RetentionSchedule | undefined {
  const { days, intervalMs, batchSize } = config.retention;
  if (days === undefined) return undefined;
  return { taskQueue: config.temporal.taskQueue, intervalMs, input: { retentionDays: days, eventGraceMs: longestDeliverySpanMs(config.delivery.policy), batchSize } };
}

/**
 * Brings the retention schedule to what `config` asks for (or removes it when retention is off),
 * retrying with backoff while Temporal is unreachable, in the background: the worker starts
 * delivering meanwhile. Resolves when done or when `stopping` resolves.
 */
export async function installRetentionSchedule(opts: { config: Config; client: () => Promise<Client>; logger: Logger; stopping: Promise<void> }): Promise<void> {
  const want = retentionSchedule(opts.config);
  let stopped = false;
  void opts.stopping.then(() => (stopped = true));
  for (let failures = 0; !stopped; failures++) {
    try {
      const client = await opts.client();
      if (want) {
        const done = await ensureRetentionSchedule(client, want);
        opts.logger.info({ scheduleId: retentionScheduleId(want.taskQueue), schedule: done, retentionDays: want.input.retentionDays, everyMs: want.intervalMs }, 'retention schedule ready');
      } else if (await removeRetentionSchedule(client, opts.config.temporal.taskQueue)) {
        opts.logger.info('retention off: schedule removed');
      }
      return;
    } catch (err) {
      const delay = Math.min(60_000, 1000 * 2 ** Math.min(failures, 6));
      opts.logger.warn({ err: (err as Error).message, retryInMs: delay }, 'retention schedule not installed yet; retrying');
      await Promise.race([new Promise((r) => setTimeout(r, delay)), opts.stopping]);
    }
  }
}
