import { describe, expect, it } from 'vitest';
import { createOrderingActivities, type OrderedDelivery } from '../../../activities/ordering';
import { fakeDb } from '../deliveries/fake-held-db';

/** An outbox entry of order 7: its own events by their place among the order's, its take's stock events by their product's. */
const entry = (id: string, type: string, seq: number) => ({ id, type, seq, data: {}, created_at: new Date(0) });
const ordered = (id: string, ...subs: string[]) => ({ _id: id, subscription_ids: subs, ordered_ids: subs });

/** The ordering activities over a fake database holding order 7 (its outbox as given) and the logged events. */
function harness(outbox: ReturnType<typeof entry>[], logged: ReturnType<typeof ordered>[]) {
  const { db, of } = fakeDb();
  of('orders').set('7', { _id: '7', outbox });
  for (const e of logged) of('events').set(e._id, e);
  const activities = createOrderingActivities({ db, now: () => new Date(0) });
  const delivery = (eventId: string, seq: number): OrderedDelivery => ({ eventId, subscriptionId: 's', key: 'order:7', seq });
  return { activities, delivery, of };
}

describe('the ordering activities', () => {
  it("order a key's events by the order's own events only, not by the stock events of its take", async () => {
    // stock.low of the take's move 1 sits at its product's place 3, as order.updated (shipped) does at the order's.
    const { activities, delivery, of } = harness(
      [entry('evt_a1', 'order.created', 1), entry('evt_z', 'stock.low', 3), entry('evt_a2', 'order.updated', 2), entry('evt_a3', 'order.updated', 3), entry('evt_a4', 'order.updated', 4)],
      [ordered('evt_a1', 's'), ordered('evt_z', 's'), ordered('evt_a2', 's'), ordered('evt_a3', 's'), ordered('evt_a4', 's')],
    );
    // shipped ended there; the stock event (another key) has not and must not hold delivered back.
    of('ordering_marks').set('s|evt_a3', { _id: 's|evt_a3', at: new Date(0) });
    expect(await activities.orderingTurn(delivery('evt_a4', 4))).toEqual({ go: true });
    expect(await activities.orderingDone(delivery('evt_a1', 1))).not.toContain('evt_z');
  });
});
