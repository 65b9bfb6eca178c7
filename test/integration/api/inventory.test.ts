import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import type { WebhookServiceClient } from '../../../src/client';
import { type StockMoveDoc, StockLedger } from '../../../src/inventory/repository';
import { relayOnce } from '../../../src/events/relay';
import { heldUnits, planReservation, reserveStock, sweepStockIntents } from '../../../src/inventory/use-cases';
import type { OrderDoc } from '../../../src/orders/repository';
import { seedDemoData } from '../../../src/seed/seed';
import { inertOutbox, startTestApi, type TestApi } from '../../support/api';
import { waitFor } from '../../support/wait';

type Problem = components['schemas']['Problem'] & { short_items?: Array<components['schemas']['ShortItem']> };

describe('inventory: orders reserve stock, cancellations return it, admins adjust it', () => {
  let api: TestApi;
  let client: WebhookServiceClient;
  let admin: WebhookServiceClient;
  let adminKey: string;
  beforeAll(async () => {
    // Events stay in the outboxes: each test sees exactly what a write stored.
    api = await startTestApi({}, { outbox: inertOutbox });
    await seedDemoData(api.mongo.db);
    ({ client } = await api.clientWith(['resources:read', 'orders:write']));
    ({ client: admin, key: adminKey } = await api.clientWith(['admin'], 'ops'));
  });
  afterAll(async () => {
    await api.close();
  });

  const db = () => api.mongo.db;
  const inventory = () => api.deps.resources.inventory;
  const level = async (productId: number) => (await client.GET('/api/inventory/stock')).data!.data.find((s) => s.product_id === productId)!;
  const moves = (productId: number) => db().collection<StockMoveDoc>('stock_moves').find({ product_id: productId }).sort({ seq: 1 }).toArray();
  /** Everything a refused request must leave as it was. */
  const snapshot = async () => ({
    orders: await db().collection('orders').countDocuments(),
    counter: (await db().collection<{ _id: string; seq: number }>('counters').findOne({ _id: 'orders' }))?.seq,
    stock: (await client.GET('/api/inventory/stock')).data!.data,
    moves: await db().collection('stock_moves').countDocuments(),
    intents: await db().collection('stock_intents').countDocuments(),
    notes: await db().collection('dispatch_notes').countDocuments(),
    events: await db().collection('events').countDocuments(),
  });
  async function order(items: Array<{ product_id: number; quantity: number }>) {
    const res = await client.POST('/api/orders/', { body: { user_id: 1, items } });
    expect(res.response.status, JSON.stringify(res.error)).toBe(201);
    return res.data!;
  }
  async function cancel(id: number) {
    const res = await client.PATCH('/api/orders/{order_id}', { params: { path: { order_id: id } }, body: { status: 'cancelled' } });
    expect(res.response.status).toBe(200);
  }
  const stored = async (id: number) => (await db().collection<OrderDoc>('orders').findOne({ id }))!;

  it('an order takes its units from stock and carries a stock.updated event per product', async () => {
    expect((await level(3)).quantity).toBe(40);
    const created = await order([
      { product_id: 3, quantity: 3 },
      { product_id: 11, quantity: 1 },
      { product_id: 3, quantity: 2 },
    ]);
    expect([(await level(3)).quantity, (await level(11)).quantity]).toEqual([35, 59]);
    const doc = await stored(created.id);
    expect(doc.outbox.map((e) => [e.type, e.data])).toEqual([
      ['order.created', expect.anything()],
      ['stock.updated', { product_id: 3, sku: 'BK-003', previous_quantity: 40, quantity: 35, reason: 'order' }],
      ['stock.updated', { product_id: 11, sku: 'GD-003', previous_quantity: 60, quantity: 59, reason: 'order' }],
    ]);
    expect(await db().collection('stock_intents').countDocuments()).toBe(0);
  });

  it('refuses 2,000 units of a product with 14 in stock: 409 naming each short item and what is available, nothing written', async () => {
    const before = await snapshot();
    const res = await fetch(`${api.baseUrl}/api/orders/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        user_id: 1,
        items: [
          { product_id: 2, quantity: 1 },
          { product_id: 1, quantity: 2000 },
          { product_id: 12, quantity: 4 },
        ],
      }),
    });
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await res.json()) as Problem;
    expect(problem).toMatchObject({
      title: 'Insufficient Stock',
      status: 409,
      errors: [
        { path: '/body/items/1/quantity', message: '2000 units of product 1 asked for, 14 in stock' },
        { path: '/body/items/2/quantity', message: '4 units of product 12 asked for, 3 in stock' },
      ],
      short_items: [
        { product_id: 1, requested: 2000, available: 14 },
        { product_id: 12, requested: 4, available: 3 },
      ],
    });
    expect(await snapshot()).toEqual(before);
  });

  it('cancelling returns the units exactly once, also when cancels race', async () => {
    const first = await order([{ product_id: 4, quantity: 2 }]);
    const second = await order([{ product_id: 4, quantity: 5 }]);
    expect((await level(4)).quantity).toBe(15);
    await cancel(first.id);
    await cancel(first.id);
    expect((await level(4)).quantity).toBe(17);
    await Promise.all([cancel(second.id), cancel(second.id), cancel(second.id)].map((p) => p.catch(() => undefined)));
    expect((await level(4)).quantity).toBe(22);
    const returns = (await moves(4)).filter((m) => m.reason === 'cancellation');
    expect(returns.map((m) => [m._id, m.delta, m.outbox.map((e) => e.type)])).toEqual([
      [`return:${first.id}:4`, 2, ['stock.updated']],
      [`return:${second.id}:4`, 5, ['stock.updated']],
    ]);
    expect(returns[0]!.outbox[0]!.data).toEqual({ product_id: 4, sku: 'BK-004', previous_quantity: 15, quantity: 17, reason: 'cancellation' });
  });

  it('GET /api/inventory/stock/{product_id} reads one level as the list shows it (stock events link there); unknown products 404', async () => {
    const one = await client.GET('/api/inventory/stock/{product_id}', { params: { path: { product_id: 5 } } });
    expect(one.response.status).toBe(200);
    expect(one.data).toEqual(await level(5));
    const missing = await client.GET('/api/inventory/stock/{product_id}', { params: { path: { product_id: 999_999 } } });
    expect(missing.response.status).toBe(404);
    expect(missing.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  describe('PATCH /api/inventory/stock/{product_id}', () => {
    const adjust = (productId: number, body: components['schemas']['StockAdjustment']) =>
      admin.PATCH('/api/inventory/stock/{product_id}', { params: { path: { product_id: productId } }, body });

    it('adds a delta, sets a level and a threshold, each a stock.updated (adjustment); stock.low when the level crosses', async () => {
      const added = await adjust(9, { delta: 6 });
      expect(added.response.status).toBe(200);
      expect(added.data).toMatchObject({ product_id: 9, sku: 'GD-001', quantity: 24, low_stock_threshold: 5 });
      expect((await adjust(9, { low_stock_threshold: 10 })).data).toMatchObject({ quantity: 24, low_stock_threshold: 10 });
      expect((await adjust(9, { quantity: 10 })).data).toMatchObject({ quantity: 10, low_stock_threshold: 10 });
      expect((await adjust(9, { delta: -4 })).data).toMatchObject({ quantity: 6 });
      expect((await level(9)).quantity).toBe(6);
      expect((await moves(9)).map((m) => [m.reason, m.delta, m.outbox.map((e) => [e.type, e.data])])).toEqual([
        ['adjustment', 6, [['stock.updated', { product_id: 9, sku: 'GD-001', previous_quantity: 18, quantity: 24, reason: 'adjustment' }]]],
        // A threshold alone moves no unit: no event.
        ['adjustment', 0, []],
        [
          'adjustment',
          -14,
          [
            ['stock.updated', { product_id: 9, sku: 'GD-001', previous_quantity: 24, quantity: 10, reason: 'adjustment' }],
            ['stock.low', { product_id: 9, sku: 'GD-001', previous_quantity: 24, quantity: 10, low_stock_threshold: 10 }],
          ],
        ],
        // Already low: no second stock.low.
        ['adjustment', -4, [['stock.updated', { product_id: 9, sku: 'GD-001', previous_quantity: 10, quantity: 6, reason: 'adjustment' }]]],
      ]);
    });

    it('refuses bad input with a 4xx problem naming it, and writes nothing', async () => {
      const before = await snapshot();
      const below = await adjust(10, { delta: -26 });
      expect(below.response.status).toBe(409);
      expect(below.error).toMatchObject({ errors: [{ path: '/body/delta' }], short_items: [{ product_id: 10, requested: 26, available: 25 }] });
      const both = await adjust(10, { quantity: 3, delta: 1 });
      expect([both.response.status, both.error?.errors]).toEqual([400, [{ path: '/body/delta', message: expect.any(String) as unknown }]]);
      const empty = await adjust(10, {});
      expect(empty.response.status).toBe(400);
      const negative = await adjust(10, { quantity: -1 });
      expect([negative.response.status, negative.error?.errors?.[0]?.path]).toEqual([400, '/body/quantity']);
      expect((await adjust(999, { delta: 1 })).response.status).toBe(404);
      const notAdmin = await client.PATCH('/api/inventory/stock/{product_id}', { params: { path: { product_id: 10 } }, body: { delta: 1 } });
      expect(notAdmin.response.status).toBe(403);
      expect(await snapshot()).toEqual(before);
    });

    it('repeats a delta sent again with the same Idempotency-Key only once', async () => {
      const send = () =>
        admin.PATCH('/api/inventory/stock/{product_id}', {
          params: { path: { product_id: 5 }, header: { 'Idempotency-Key': 'restock-5-a' } },
          body: { delta: 5 },
        });
      expect((await send()).data!.quantity).toBe(40);
      const again = await send();
      expect([again.data!.quantity, again.response.headers.get('idempotent-replayed')]).toEqual([40, 'true']);
      expect((await level(5)).quantity).toBe(40);
    });
  });

  describe('no unit is lost when a process dies mid-way', () => {
    it('the relay gives back what a reservation took when its order never got written, once past the lease', async () => {
      // The API noted the order and took the units, then died before writing it.
      const plan = planReservation([{ product_id: 7, quantity: 4 }], new Date());
      const reservation = { id: plan.id, items: heldUnits(plan), order_id: 990_001 };
      await api.dispatcher.announcePlanned({ source: { collection: 'orders', id: 990_001 }, eventIds: ['evt_lost_order', ...plan.ids.flat()], reservation, at: plan.startedAt });
      await reserveStock(inventory(), plan);
      expect((await level(7)).quantity).toBe(8);
      // Not yet: it could still be a request in flight.
      const opts = { graceMs: 0, abandonMs: 0, batch: 50 };
      expect(await relayOnce(api.relay, opts)).toMatchObject({ abandoned: 0, failed: 0 });
      const pastLease = { ...api.relay, reservations: { ...api.relay.reservations, graceMs: 0 } };
      expect(await relayOnce(pastLease, opts)).toMatchObject({ abandoned: 1, failed: 0 });
      await waitFor(async () => (await level(7)).quantity === 12, 5_000);
      expect((await moves(7)).map((m) => m._id)).toEqual([`take:${plan.id}:7`, `release:${plan.id}:7`]);
      expect(await api.notes.count('evt_lost_order')).toBe(0);
      // Once only: the note is gone, and releasing again finds its release done.
      await api.relay.reservations.release(reservation);
      expect(await moves(7)).toHaveLength(2);
    });

    it('the relay keeps the units of an order that was written before the process died, and flushes its events', async () => {
      const created = await order([{ product_id: 9, quantity: 2 }]);
      const doc = await stored(created.id);
      // Died after the insert, before the dispatch: the note as it was written.
      const reservation = { id: doc.reservation_id!, items: [{ product_id: 9, quantity: 2 }], order_id: created.id };
      await api.dispatcher.announcePlanned({ source: { collection: 'orders', id: created.id }, eventIds: doc.outbox.map((e) => e.id), reservation, at: new Date(0) });
      const pastLease = { ...api.relay, reservations: { ...api.relay.reservations, graceMs: 0 } };
      expect(await relayOnce(pastLease, { graceMs: 0, abandonMs: 0, batch: 50 })).toMatchObject({ flushed: doc.outbox.length, abandoned: 0, failed: 0 });
      expect(await api.notes.count(doc.outbox[0]!.id)).toBe(0);
      const ops = (await moves(9)).map((m) => m._id);
      expect(ops).toContain(`take:${doc.reservation_id}:9`);
      expect(ops).not.toContain(`release:${doc.reservation_id}:9`);
    });

    it('the sweeper gives back what a reservation noted by an earlier version took when its order never got written', async () => {
      const plan = planReservation([{ product_id: 6, quantity: 1 }], new Date());
      await db()
        .collection('stock_intents')
        .insertOne({ _id: `reserve:${plan.id}` as never, kind: 'reserve', items: heldUnits(plan), created_at: new Date() });
      const before = (await level(6)).quantity;
      await reserveStock(inventory(), plan);
      expect(await sweepStockIntents(inventory(), { graceMs: 60_000, batch: 10 })).toEqual({ released: 0, completed: 0, failed: 0 });
      // (A racing cancel of an earlier test may have left a return intent: only releases are counted here.)
      expect(await sweepStockIntents(inventory(), { graceMs: 0, batch: 10 })).toMatchObject({ released: 1, failed: 0 });
      await waitFor(async () => (await level(6)).quantity === before, 5_000);
      expect(await sweepStockIntents(inventory(), { graceMs: 0, batch: 10 })).toMatchObject({ released: 0, failed: 0 });
    });

    it('the sweeper keeps the units of an order that was written before the process died', async () => {
      const created = await order([{ product_id: 8, quantity: 20 }]);
      // Died after the insert, before the note was removed: put the note back as it was.
      const reservationId = (await stored(created.id)).reservation_id!;
      await db()
        .collection('stock_intents')
        .insertOne({ _id: `reserve:${reservationId}` as never, kind: 'reserve', items: [{ product_id: 8, quantity: 20 }], order_id: created.id, created_at: new Date(0) });
      expect(await sweepStockIntents(inventory(), { graceMs: 0, batch: 10 })).toEqual({ released: 0, completed: 1, failed: 0 });
      expect((await level(8)).quantity).toBe(100);
    });

    it('the sweeper returns the units of an order cancelled just before the process died', async () => {
      const created = await order([{ product_id: 10, quantity: 5 }]);
      expect((await level(10)).quantity).toBe(20);
      const doc = await stored(created.id);
      // The return was noted and the status changed, then the process died.
      await db().collection('stock_intents').insertOne({ _id: `return:${created.id}` as never, kind: 'return', items: [{ product_id: 10, quantity: 5 }], order_id: created.id, created_at: new Date(0) });
      await api.deps.resources.orders.transition(created.id, 'pending', 'cancelled', doc.outbox[0]!, new Date());
      expect(await sweepStockIntents(inventory(), { graceMs: 0, batch: 10 })).toEqual({ released: 0, completed: 1, failed: 0 });
      expect((await level(10)).quantity).toBe(25);
      // The order's later cancel request finds the return done.
      expect(await sweepStockIntents(inventory(), { graceMs: 0, batch: 10 })).toEqual({ released: 0, completed: 0, failed: 0 });
    });

    it('a stored level left behind the ledger by a crash is caught up by the next move', async () => {
      const ledger = new StockLedger(db());
      const head = (await ledger.head(2))!;
      // A move was written, then the process died before copying it to the stock level.
      await db()
        .collection<StockMoveDoc>('stock_moves')
        .insertOne({
          _id: 'adjust:crashed',
          slot: `2:${head.seq + 1}`,
          product_id: 2,
          seq: head.seq + 1,
          delta: -9,
          previous_quantity: head.quantity,
          quantity: head.quantity - 9,
          low_stock_threshold: head.low_stock_threshold,
          reason: 'adjustment',
          created_at: new Date(),
          outbox: [],
        });
      // The stored level says 9, the ledger 0: the order is refused on the ledger's word.
      expect((await level(2)).quantity).toBe(9);
      const refused = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 2, quantity: 1 }] } });
      expect(refused.response.status).toBe(409);
      expect((await admin.PATCH('/api/inventory/stock/{product_id}', { params: { path: { product_id: 2 } }, body: { delta: 3 } })).data!.quantity).toBe(3);
      expect((await level(2)).quantity).toBe(3);
    });
  });
});
