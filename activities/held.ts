import type { Db } from 'mongodb';
import { AttemptRepository } from '../src/deliveries/attempts';
import { type HeldCursor, HeldDeliveryRepository, isOwnDelivery } from '../src/deliveries/held';
import { alertHoldExpired, expiredAttempt, type HoldAlert } from '../src/deliveries/hold-sweep';
import { log } from '@temporalio/activity';
import { DEFAULT_HOLD_MAX_MS, drainRate, heldPastLimit } from '../src/subscriptions/hold';
import { SubscriptionRepository } from '../src/subscriptions/repository';
import type { SubscriptionStatus } from '../src/contract/types';
import { EventRepository } from '../src/events/repository';
import { orderingKey } from '../src/webhooks/ordering-key';

/** A page of a drain: the subscription's state now, the rate to start at, and the held deliveries in emission order. */
export interface HeldPage {
  state: SubscriptionStatus | 'deleted';
  /** Deliveries per second to start. */
  rate: number;
  items: Array<{ id: string; eventId: string; eventType: string; ordering?: HeldOrdering }>;
  /** Where the next page starts; absent when this one reached the end. */
  next?: HeldCursor;
}

/** The place of a held delivery's event in its key, when the subscription gets it in order: its drained run is gated too. */
export interface HeldOrdering {
  key: string;
  seq: number;
}

/** What the drain's activities need beside the database. */
export interface HeldActivityDeps {
  db: Db;
  /** SUBSCRIPTION_HOLD_MAX (absent: its default). */
  holdMaxMs?: number | undefined;
  raiseAlert: HoldAlert;
  now?: () => Date;
}

/** Builds the activities of a drain (workflows/drain.ts): reading what a subscription holds, and letting it go. */
export function createHeldActivities(deps: HeldActivityDeps) {
  const held = new HeldDeliveryRepository(deps.db, deps.now && (() => deps.now!().getTime()));
  const subscriptions = new SubscriptionRepository(deps.db);
  const attempts = new AttemptRepository(deps.db);
  const events = new EventRepository(deps.db);
  const holdMaxMs = deps.holdMaxMs ?? DEFAULT_HOLD_MAX_MS;
  /** The event's place in its key, when it was logged with the subscription in order. */
  async function orderingOf(eventId: string, subscriptionId: string): Promise<{ ordering?: HeldOrdering }> {
    const event = await events.orderingOf(eventId);
    if (!event || event.seq === undefined || !event.ordered_ids?.includes(subscriptionId)) return {};
    return { ordering: { key: orderingKey(event), seq: event.seq } };
  }

  return {
    /**
     * The next page of a subscription's held deliveries; none while it is not active (a drain
     * stops there, giving up its claims of that page). Each is claimed for the drain first: one the hold sweep's expiry claimed
     * (a drain stalled while paused again) is never sent. It and those held longer than the
     * hold limit are failed here as `hold_expired` (logged, released, one alert per resume):
     * a long drain is bounded too, and what the expiry left half done ends.
     */
    async heldPage(input: { subscriptionId: string; limit: number; after?: HeldCursor }): Promise<HeldPage> {
      const sub = await subscriptions.findForDelivery(input.subscriptionId);
      if (!sub || sub.status !== 'active') {
        // A try that claimed this page and failed before returning left the drain's claims: the drain ends here, so the expiry may have them.
        const left = await held.page(input.subscriptionId, input.limit, input.after);
        await held.unclaim(left.docs.map((d) => d._id), 'drain');
        return { state: sub?.status ?? 'deleted', rate: 1, items: [] };
      }
      const page = await held.page(sub._id, input.limit, input.after);
      const mine = await held.claim(page.docs, 'drain');
      const now = deps.now?.() ?? new Date();
      // One the expiry claimed is past the limit by its judgement: failed as it would (the same attempt id, so logged once), never sent.
      const expired = page.docs.filter((d) => !mine.has(d._id) || heldPastLimit(d.held_at, now.getTime(), holdMaxMs));
      if (expired.length > 0) {
        const onError = (err: unknown): void => void log.warn('hold-expired alert not sent; it stays stored', { err: String(err), subscriptionId: sub._id });
        // One alert per resume, and none for what the expiry claimed: it alerted on those already. The resume's write set updated_at.
        if (expired.some((d) => mine.has(d._id))) await alertHoldExpired({ raiseAlert: deps.raiseAlert, holdMaxMs, onError }, sub._id, `hold-expired@resume:${sub.updated_at.getTime()}`, `drained after a resume at ${sub.updated_at.toISOString()}`);
        await attempts.recordMany(expired.map((d) => expiredAttempt(d, sub.url, now)));
        await held.release(expired.map((d) => d._id));
      }
      const kept = page.docs.filter((d) => !expired.includes(d));
      const items = kept.map((d) => ({ id: d._id, eventId: d.event_id, eventType: d.event_type }));
      return {
        state: 'active',
        rate: drainRate(sub),
        // Only an ordered subscription reads its events' places: one point read each.
        items: sub.ordering === 'per_key' ? await Promise.all(items.map(async (item, i) => ({ ...item, ...(isOwnDelivery(kept[i]!) ? await orderingOf(item.eventId, sub._id) : {}) }))) : items,
        ...(page.next ? { next: page.next } : {}),
      };
    },
    /** Deletes held records whose deliveries were started. */
    async releaseHeld(input: { ids: string[] }): Promise<void> {
      await held.release(input.ids);
    },
    /** Clears the subscription's emptied slots; `empty` when it holds nothing any more. */
    async settleHeld(input: { subscriptionId: string }): Promise<{ empty: boolean }> {
      return { empty: await held.settle(input.subscriptionId) };
    },
  };
}
