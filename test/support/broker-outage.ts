import { expect } from 'vitest';
import type { createAttemptActivities } from '../../activities/attempt';
import type { EventDoc } from '../../src/events/repository';

/** A broker the test support started and can stop and start again on the same port and data. */
export interface StoppableBroker {
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * The outage every broker destination test runs: first attempts of `events`, the broker stopped
 * before the ninth; at least 12 fail and none is a stop (`rejected`), since a broker that is down
 * is a retry; then, the broker back, each failed one's second attempt is delivered.
 */
export async function deliverAcrossOutage(activities: ReturnType<typeof createAttemptActivities>, subscriptionId: string, events: readonly EventDoc[], broker: StoppableBroker): Promise<void> {
  const outcomes = new Map<string, string>();
  for (const [i, e] of events.entries()) {
    if (i === 8) await broker.stop();
    const [r] = await activities.postAttempts([{ eventId: e._id, subscriptionId, attempt: 1 }]);
    outcomes.set(e._id, r!.outcome);
  }
  const failed = events.filter((e) => outcomes.get(e._id) !== 'delivered');
  expect(failed.length).toBeGreaterThanOrEqual(12);
  expect(new Set(failed.map((e) => outcomes.get(e._id)))).not.toContain('rejected');
  await broker.start();
  for (const e of failed) {
    const [r] = await activities.postAttempts([{ eventId: e._id, subscriptionId, attempt: 2 }]);
    expect(r, JSON.stringify(r)).toMatchObject({ outcome: 'delivered' });
  }
}
