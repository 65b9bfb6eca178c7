import type { SubscriptionDoc, SubscriptionRepository } from './repository';

/** One logged attempt, as far as its subscription's streak cares. */
export interface AttemptOutcome {
  subscriptionId: string;
  delivered: boolean;
  /** Epoch ms the attempt started. */
  startedAt: number;
}

/** A subscription whose every attempt failed since `since` (epoch ms), for longer than allowed. */
export interface FailingSubscription {
  subscriptionId: string;
  since: number;
}

/**
 * The subscription's rule for endpoints that keep failing: each subscription keeps the start of
 * its streak of failed attempts (`failing_since`, unset by a delivered one), and those failing
 * longer than `disableAfterMs` are reported for disabling, as Svix disables an endpoint whose
 * every delivery failed for five days.
 */
export class FailingStreaks {
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

  /** Applies a logged round's outcomes to the streaks; idempotent, so a retried log write may repeat it. Returns those failing too long. */
  async track(outcomes: readonly AttemptOutcome[]): Promise<FailingSubscription[]> {
    const delivered = new Set(outcomes.filter((o) => o.delivered).map((o) => o.subscriptionId));
    const firstFailure = new Map<string, number>();
    for (const o of outcomes) {
      if (delivered.has(o.subscriptionId)) continue;
      firstFailure.set(o.subscriptionId, Math.min(firstFailure.get(o.subscriptionId) ?? Infinity, o.startedAt));
    }
    // Unknown to this worker (another ran the POST, or a restart) counts as possibly failing.
    const recovered = [...delivered].filter((id) => this.lastSeenFailing.get(id) !== false);
    if (recovered.length > 0) {
      await this.subscriptions.clearFailing(recovered);
      for (const id of recovered) this.lastSeenFailing.set(id, false);
    }
    if (firstFailure.size === 0) return [];
    await Promise.all([...firstFailure].map(([id, at]) => this.subscriptions.markFailing(id, new Date(at))));
    for (const id of firstFailure.keys()) this.lastSeenFailing.set(id, true);
    if (this.disableAfterMs <= 0) return [];
    const cutoff = new Date(this.now().getTime() - this.disableAfterMs);
    const rows = await this.subscriptions.failingSince([...firstFailure.keys()], cutoff);
    return rows.map((r) => ({ subscriptionId: r._id, since: r.failing_since!.getTime() }));
  }
}
