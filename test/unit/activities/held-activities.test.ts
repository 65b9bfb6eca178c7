import { describe, expect, it } from 'vitest';
import { createHeldActivities } from '../../../activities/held';
import { HeldDeliveryRepository, type HeldDoc, heldSlot } from '../../../src/deliveries/held';
import { fakeDb } from '../deliveries/fake-held-db';

const t0 = Date.UTC(2026, 10, 27, 6);
const sub = 'sub_drain';

function record(n: number): HeldDoc {
  const emitted = new Date(t0 + n * 60_000);
  return { _id: `held_${n}`, subscription_id: sub, event_id: `evt_${n}`, event_type: 'order.created', emitted_at: emitted, held_at: new Date(t0 + n * 60_000), origin: `event/evt_${n}`, attempt: 1, slot: heldSlot(sub, emitted).id };
}

describe('a drain page', () => {
  it('gives up the claims a failed try left when it finds the subscription paused again', async () => {
    const f = fakeDb();
    const now = () => new Date(t0 + 3_600_000);
    const repo = new HeldDeliveryRepository(f.db, () => now().getTime());
    await repo.hold([record(0), record(1)]);
    f.of('subscriptions').set(sub, { _id: sub, status: 'active', url: 'https://example.test/hook', updated_at: new Date(t0) });
    // A try claims the page for the drain, then fails before it returns.
    expect((await repo.claim((await repo.page(sub, 10)).docs, 'drain')).size).toBe(2);
    f.of('subscriptions').get(sub)!.status = 'paused';
    const activities = createHeldActivities({ db: f.db, raiseAlert: () => Promise.resolve(), holdMaxMs: 3_600_000 * 72, now });
    expect(await activities.heldPage({ subscriptionId: sub, limit: 10 })).toMatchObject({ state: 'paused', items: [] });
    // The expiry may now fail them: the drain that claimed them has ended.
    expect([...(await repo.claim([record(0), record(1)], 'expiry'))].sort()).toEqual(['held_0', 'held_1']);
  });
});

describe('a drain page failing what the expiry claimed', () => {
  it('logs and releases them without a second alert: the expiry alerted on them', async () => {
    const f = fakeDb();
    const now = () => new Date(t0 + 3_600_000);
    const repo = new HeldDeliveryRepository(f.db, () => now().getTime());
    await repo.hold([record(0), record(1)]);
    f.of('subscriptions').set(sub, { _id: sub, status: 'active', url: 'https://example.test/hook', updated_at: new Date(t0) });
    await repo.claim([record(0)], 'expiry');
    const alerts: string[] = [];
    const activities = createHeldActivities({ db: f.db, raiseAlert: (a) => Promise.resolve(void alerts.push(a.key)), holdMaxMs: 3_600_000 * 72, now });
    const page = await activities.heldPage({ subscriptionId: sub, limit: 10 });
    expect(page.items.map((i) => i.id)).toEqual(['held_1']);
    expect(alerts).toEqual([]);
    expect([...f.of('held_deliveries').keys()]).toEqual(['held_1']);
  });
});

describe('a drain page of an ordered subscription', () => {
  it("carries each held event's key and place when it was logged with the subscription in order, and reads no event otherwise", async () => {
    const f = fakeDb();
    const now = () => new Date(t0 + 3_600_000);
    const repo = new HeldDeliveryRepository(f.db, () => now().getTime());
    await repo.hold([record(0), record(1), record(2)]);
    f.of('events').set('evt_0', { _id: 'evt_0', type: 'order.created', data: { order_id: 7 }, seq: 1, ordered_ids: [sub] });
    // From before the subscription asked for ordering: drained as it was.
    f.of('events').set('evt_1', { _id: 'evt_1', type: 'order.created', data: { order_id: 8 }, seq: 1, ordered_ids: [] });
    f.of('subscriptions').set(sub, { _id: sub, status: 'active', url: 'https://example.test/hook', updated_at: new Date(t0), ordering: 'per_key' });
    const activities = createHeldActivities({ db: f.db, raiseAlert: () => Promise.resolve(), holdMaxMs: 3_600_000 * 72, now });
    const page = await activities.heldPage({ subscriptionId: sub, limit: 10 });
    expect(page.items.map((i) => [i.id, i.ordering])).toEqual([
      ['held_0', { key: 'order:7', seq: 1 }],
      ['held_1', undefined],
      // Its event is gone (retention): the run logs that, ungated.
      ['held_2', undefined],
    ]);
    // An unordered subscription's page reads no event.
    f.of('subscriptions').get(sub)!.ordering = undefined;
    f.ops.length = 0;
    expect((await activities.heldPage({ subscriptionId: sub, limit: 10 })).items).toEqual(['held_0', 'held_1', 'held_2'].map((id, i) => ({ id, eventId: `evt_${i}`, eventType: 'order.created' })));
    expect(f.ops.filter((op) => op.startsWith('events.'))).toEqual([]);
  });
});
