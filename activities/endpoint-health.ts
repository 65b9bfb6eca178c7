import type { SubscriptionDoc, SubscriptionRepository } from '../src/subscriptions/repository';
import type { AttemptLogEntry, RecordedRound } from './attempt';

/**
 * Tracks each subscription's streak of failed attempts (`failing_since`, unset by a delivered
 * one) and reports those failing longer than `disableAfterMs`, as Svix disables an endpoint
 * whose every delivery failed for five days.
 */
export class EndpointHealth {
  /** Whether this worker last read the subscription with a failure streak: a delivery then needs no write when it had none. */
  private readonly lastSeenFailing = new Map<string, boolean>();

  constructor(
    private readonly subscriptions: Pick<SubscriptionRepository, 'clearFailing' | 'markFailing' | 'failingSince'>,
    private readonly disableAfterMs: number,
    private readonly now: () => Date,
  ) {}

  /** Notes what an attempt's read of its subscription showed. */
  seen(sub: Pick<SubscriptionDoc, '_id' | 'failing_since'>): void {
    this.lastSeenFailing.set(sub._id, sub.failing_since !== undefined);
    // Bounded: an entry only saves a write, so forgetting all of them is always safe.
    if (this.lastSeenFailing.size > 10_000) this.lastSeenFailing.clear();
  }

  /** Applies a logged round's outcomes to the streaks; idempotent, so a retried log write may repeat it. */
  async track(entries: readonly AttemptLogEntry[]): Promise<RecordedRound> {
    const delivered = new Set(entries.filter((e) => e.result.outcome === 'delivered').map((e) => e.subscriptionId));
    const firstFailure = new Map<string, number>();
    for (const e of entries) {
      if (delivered.has(e.subscriptionId) || e.result.outcome === 'delivered') continue;
      firstFailure.set(e.subscriptionId, Math.min(firstFailure.get(e.subscriptionId) ?? Infinity, e.result.startedAt));
    }
    // Unknown to this worker (another ran the POST, or a restart) counts as possibly failing.
    const recovered = [...delivered].filter((id) => this.lastSeenFailing.get(id) !== false);
    if (recovered.length > 0) {
      await this.subscriptions.clearFailing(recovered);
      for (const id of recovered) this.lastSeenFailing.set(id, false);
    }
    if (firstFailure.size === 0) return { failing: [] };
    await Promise.all([...firstFailure].map(([id, at]) => this.subscriptions.markFailing(id, new Date(at))));
    for (const id of firstFailure.keys()) this.lastSeenFailing.set(id, true);
    if (this.disableAfterMs <= 0) return { failing: [] };
    const cutoff = new Date(this.now().getTime() - this.disableAfterMs);
    const rows = await this.subscriptions.failingSince([...firstFailure.keys()], cutoff);
    return { failing: rows.map((r) => ({ subscriptionId: r._id, since: r.failing_since!.getTime() })) };
  }
}
