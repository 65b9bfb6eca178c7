import type { Db } from 'mongodb';
import { type HeldCursor, HeldDeliveryRepository } from '../src/deliveries/held';
import { drainRate } from '../src/subscriptions/hold';
import { SubscriptionRepository } from '../src/subscriptions/repository';
import type { SubscriptionStatus } from '../src/contract/types';

/** A page of a drain: the subscription's state now, the rate to start at, and the held deliveries in emission order. */
export interface HeldPage {
  state: SubscriptionStatus | 'deleted';
  /** Deliveries per second to start. */
  rate: number;
  items: Array<{ id: string; eventId: string; eventType: string }>;
  /** Where the next page starts; absent when this one reached the end. */
  next?: HeldCursor;
}

/** Builds the activities of a drain (workflows/drain.ts): reading what a subscription holds, and letting it go. */
export function createHeldActivities(deps: { db: Db }) {
  const held = new HeldDeliveryRepository(deps.db);
  const subscriptions = new SubscriptionRepository(deps.db);
  return {
    /** The next page of a subscription's held deliveries; none while it is not active (a drain stops there). */
    async heldPage(input: { subscriptionId: string; limit: number; after?: HeldCursor }): Promise<HeldPage> {
      const sub = await subscriptions.findForDelivery(input.subscriptionId);
      if (!sub || sub.status !== 'active') return { state: sub?.status ?? 'deleted', rate: 1, items: [] };
      const page = await held.page(sub._id, input.limit, input.after);
      return {
        state: 'active',
        rate: drainRate(sub),
        items: page.docs.map((d) => ({ id: d._id, eventId: d.event_id, eventType: d.event_type })),
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
