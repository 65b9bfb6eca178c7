import { log } from '@temporalio/activity';
import { HeldDeliveryRepository } from '../src/deliveries/held';
import type { SubscriptionDoc, SubscriptionRepository } from '../src/subscriptions/repository';
import type { AttemptInput, AttemptResult } from '../workflows/delivery-model';
import type { CachedEvent } from './event-cache';

/** DELIVERY_HOLD_LIMIT's default. */
export const DEFAULT_HOLD_LIMIT_MS = 7 * 24 * 60 * 60 * 1000;

/** Longest a held delivery sleeps before it looks at its subscription again: what a lost resume signal costs at most. */
export const HOLD_RECHECK_MS = 60 * 60 * 1000;

/** How soon a delivery whose hold could not be recorded (the database away) tries again. */
const HOLD_RETRY_MS = 5_000;

/** What holding reads and writes. */
export interface HoldDeps {
  held: HeldDeliveryRepository;
  subscriptions: Pick<SubscriptionRepository, 'findForDelivery'>;
  now: () => Date;
  holdLimitMs?: number | undefined;
}

/** The attempt activity's part in a pause: holding a paused subscription's deliveries and letting them go. */
export interface Holds {
  /** Holds `holder`'s delivery of `event` to the paused `sub`, or fails it past the hold limit; never throws (a round's other POSTs may be out). */
  hold(sub: SubscriptionDoc, event: CachedEvent, holder: string): Promise<AttemptResult>;
  /** Drops the markers of the round's deliveries that were held and are held no longer; never throws. */
  releaseDone(holder: string, inputs: readonly AttemptInput[], results: readonly AttemptResult[]): Promise<void>;
}

/** When the subscription was paused (epoch ms): one paused before `paused_at` was kept counts from its last change. */
function pausedAt(sub: SubscriptionDoc): number {
  return (sub.paused_at ?? sub.updated_at).getTime();
}

/** Whether a round's answer keeps its delivery held. */
function stillHeld(r: AttemptResult): boolean {
  return r.outcome === 'deferred' && r.hold === 'paused';
}

/**
 * Holds by a marker per delivery (HeldDeliveryRepository), which resume reads to wake the
 * holding workflows in emission order. The marker is written before the subscription is read
 * again, and resume writes the status before it reads the markers: a delivery held as resume
 * runs is either found by it or sees the resume itself.
 */
export function holdsOf(deps: HoldDeps): Holds {
  const limit = deps.holdLimitMs ?? DEFAULT_HOLD_LIMIT_MS;
  return {
    async hold(sub, event, holder) {
      const now = deps.now();
      const since = pausedAt(sub);
      const deadline = since + limit;
      try {
        if (now.getTime() >= deadline) {
          await deps.held.release(holder, sub._id);
          const reason = `held longer than the hold limit (${Math.round(limit / 1000)} s) since the subscription was paused at ${new Date(since).toISOString()}`;
          return { outcome: 'expired', reason, pausedAt: since };
        }
        await deps.held.hold({ _id: HeldDeliveryRepository.id(holder, sub._id), subscription_id: sub._id, workflow_id: holder, event_id: event._id, emitted_at: event.created_at, held_at: now });
        const current = await deps.subscriptions.findForDelivery(sub._id);
        if (current?.status === 'paused') return { outcome: 'deferred', reason: 'subscription paused', hold: 'paused', waitMs: Math.min(deadline - now.getTime(), HOLD_RECHECK_MS) };
        // Resumed (or disabled, deleted) since the round read it: the next round sees that at once.
        return { outcome: 'deferred', reason: `subscription ${current?.status ?? 'deleted'} while its delivery was held`, hold: 'paused', waitMs: 0 };
      } catch (err) {
        return { outcome: 'deferred', reason: `hold not recorded: ${String(err)}`, hold: 'paused', waitMs: HOLD_RETRY_MS };
      }
    },
    async releaseDone(holder, inputs, results) {
      const done = inputs.filter((input, i) => input.wasHeld && !stillHeld(results[i]!));
      if (done.length === 0) return;
      await Promise.all(
        done.map((input) =>
          deps.held.release(holder, input.subscriptionId).catch((err: unknown) => {
            log.warn('held-delivery marker not removed; the held count stays high until it is', { subscriptionId: input.subscriptionId, holder, error: String(err) });
          }),
        ),
      );
    },
  };
}
