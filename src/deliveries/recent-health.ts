import type { components } from '../../generated/api';
import type { AttemptDoc } from './attempts';
import { eventIdTime } from './event-groups';

/** One subscription's health at a glance; the contract's SubscriptionHealth. */
export type SubscriptionHealth = components['schemas']['SubscriptionHealth'];

/** How far back "recent" reaches: the list shows the last hour's success rate. */
export const RECENT_HEALTH_MS = 60 * 60 * 1000;

/** Most attempts read per event group for it: a busy subscription's rate is a sample of its last hour. */
export const RECENT_HEALTH_CAP = 2000;

/** The success rate of attempts started since `since` to events emitted since then (rows of their event groups may reach further back). */
export function recentHealth(subscriptionId: string, rows: ReadonlyArray<Pick<AttemptDoc, 'event_id' | 'outcome' | 'started_at'>>, since: Date): SubscriptionHealth {
  let attempts = 0;
  let delivered = 0;
  for (const row of rows) {
    const emitted = eventIdTime(row.event_id);
    if (row.started_at < since || (emitted !== undefined && emitted < since.getTime())) continue;
    attempts++;
    if (row.outcome === 'delivered') delivered++;
  }
  return { subscription_id: subscriptionId, since: since.toISOString(), attempts, delivered, ...(attempts ? { success_rate: delivered / attempts } : {}) };
}
