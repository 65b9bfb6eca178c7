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

/** Dispatch notes older than `graceMs`: events and redeliveries the relay has yet to start. */
export function relayBacklog(notes: DispatchNotes, graceMs: number): GaugeSource {
  return () => notes.countOlderThan(new Date(Date.now() - graceMs));
}
