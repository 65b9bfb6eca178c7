import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from '../../../src/db/migrations';
import type { DispatchNote } from '../../../src/events/dispatcher';
import { newOutboxEvent } from '../../../src/events/outbox';
import { startTestApi, type TestApi } from '../../support/api';

const migrationId = '2026-11-orders-string-keys-and-dispatch-notes';

describe('data migrations (real Mongo-wire database)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  const legacyOrder = (id: number, outbox: unknown[] = []) => ({
    _id: id,
    user_id: 1,
    status: 'pending',
    items: [{ product_id: 1, quantity: 1, unit_price: 42.9 }],
    total: 42.9,
    currency: 'EUR',
    date: new Date('2025-06-01T10:00:00.000Z'),
    updated_at: new Date('2025-06-01T10:00:00.000Z'),
    outbox,
  });

  it('ran at start on an empty database and is recorded, so a second run applies nothing', async () => {
    expect(await api.mongo.db.collection('migrations').findOne({ _id: migrationId as never })).toMatchObject({ _id: migrationId });
    expect(await runMigrations(api.mongo.db)).toEqual([]);
  });

  it('rekeys integer-keyed orders, notes their undispatched and pending events, and the API serves them', async () => {
    const db = api.mongo.db;
    await db.collection('migrations').deleteOne({ _id: migrationId as never });
    const waiting = newOutboxEvent('order.created', { order_id: 41 });
    const pending = newOutboxEvent('order.updated', { order_id: 40 });
    await db.collection('orders').insertMany([legacyOrder(41, [waiting]) as never, legacyOrder(40) as never]);
    // A crash between copying order 39 and deleting its original, in an earlier run.
    await db.collection('orders').insertMany([legacyOrder(39) as never, { ...legacyOrder(39), _id: '39', id: 39 } as never]);
    await db.collection('events').insertOne({ _id: pending.id as never, type: pending.type, data: pending.data, created_at: pending.created_at, subscription_ids: [], dispatch_state: 'pending' });

    expect(await runMigrations(db)).toEqual([migrationId]);

    expect(await db.collection('orders').countDocuments({ _id: { $in: [39, 40, 41] } as never })).toBe(0);
    expect((await db.collection<{ _id: string; id: number }>('orders').find({ _id: { $in: ['39', '40', '41'] } }).toArray()).map((o) => [o._id, o.id])).toEqual(
      expect.arrayContaining([
        ['39', 39],
        ['40', 40],
        ['41', 41],
      ]),
    );
    expect(await db.collection('orders').countDocuments({ _id: '39' as never })).toBe(1);
    const notes = db.collection<DispatchNote>('dispatch_notes');
    expect(await notes.findOne({ _id: waiting.id })).toMatchObject({ source: { collection: 'orders', id: 41 } });
    expect(await notes.findOne({ _id: pending.id })).toMatchObject({ _id: pending.id });

    const { client } = await api.clientWith(['resources:read', 'orders:write']);
    const got = await client.GET('/api/orders/{order_id}', { params: { path: { order_id: 41 } } });
    expect(got.response.status).toBe(200);
    expect(got.data).toMatchObject({ id: 41, total: 42.9, status: 'pending' });
    expect(await runMigrations(db)).toEqual([]);
  });
});
