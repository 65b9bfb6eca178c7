import type { Client } from '@temporalio/client';
import type { DispatchNotes } from '../events/dispatch-notes';
import { laneTaskQueues } from '../events/lanes';
import { retryingKey } from '../../workflows/search-attributes';
import type { GaugeSource } from './metrics';

/**
 * Deliveries waiting for a retry, read from Temporal visibility: the event workflows of the
 * task queue and its bulk lane that list retrying subscriptions, summed. At most `maxWorkflows` are read per
 * scrape, so a huge backlog reads as that bound rather than stalling the scrape.
 */
export function retryingDeliveries(client: () => Promise<Client>, taskQueue: string, maxWorkflows = 10_000): GaugeSource {
  const queues = laneTaskQueues(taskQueue).map((q) => `TaskQueue = '${q.replace(/'/g, "\\'")}'`);
  const query = `(${queues.join(' OR ')}) AND ExecutionStatus = 'Running' AND ${retryingKey.name} IS NOT NULL`;
  return async () => {
    let total = 0;
    let seen = 0;
    for await (const run of (await client()).workflow.list({ query, pageSize: 1000 })) {
      total += run.typedSearchAttributes.get(retryingKey)?.length ?? 0;
      if (++seen >= maxWorkflows) break;
    }
    return total;
  };
}

/** Held notes are counted at most this often: on FerretDB the count reads every one of a flood's. */
const HELD_COUNT_EVERY_MS = 60_000;

/**
 * Dispatch notes the relay has yet to start: the ones not held older than `graceMs`, plus held
 * ones past their due time as counted within the last minute.
 */
export function relayBacklog(notes: DispatchNotes, graceMs: number, now: () => number = Date.now): GaugeSource {
  let held: { at: number; count: number } | undefined;
  return async () => {
    const at = now();
    if (!held || at - held.at >= HELD_COUNT_EVERY_MS) held = { at, count: await notes.countHeldDue() };
    return (await notes.countWaiting(new Date(at - graceMs))) + held.count;
  };
}
