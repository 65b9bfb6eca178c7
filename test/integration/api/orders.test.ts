import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { components } from '../../../generated/api';
import { ADMIN_OWNER } from '../../../src/auth/api-keys';
import { createClient, type WebhookServiceClient } from '../../../src/client';
import { loadConfig } from '../../../src/config/config';
import type { OutboxFlusher } from '../../../src/events/outbox';
import { createApp } from '../../../src/http/app';
import { createLogger } from '../../../src/logger';
import { type CounterDoc, type OrderDoc, orderKey } from '../../../src/orders/repository';
import { demoOrderSeq } from '../../../src/seed/demo-data';
import { seedDemoData } from '../../../src/seed/seed';
import { createAppDeps } from '../../../src/compose/app-deps';
import { inertOutbox, startTestApi, type TestApi } from '../../support/api';

type Order = components['schemas']['Order'];
type Problem = components['schemas']['Problem'];

describe('orders API: create, read, change status, outbox', () => {
  let api: TestApi;
  let client: WebhookServiceClient;
  let key: string;
  beforeAll(async () => {
    // Events stay in the outbox here, so tests see exactly what each write stored;
    // flushing them into the event log is covered by the delivery tests.
    api = await startTestApi({}, { outbox: inertOutbox });
    // Orders, not stock, are the matter here (inventory.test.ts has the demo's levels): no line may sell out.
    await seedDemoData(api.mongo.db, { stock: 100_000 });
    ({ client, key } = await api.clientWith(['resources:read', 'orders:write']));
  });
  afterAll(async () => {
    await api.close();
  });

  const orders = () => api.mongo.db.collection<OrderDoc>('orders');
  const stored = async (id: number) => (await orders().findOne({ _id: orderKey(id) }))!;
  /** The order's own events in its outbox (the stock events of its reservation are beside them). */
  const orderEvents = async (id: number) => (await stored(id)).outbox.filter((e) => e.type.startsWith('order.'));
  /** Everything a failed create must leave untouched: the orders and the id counter. */
  const snapshot = async () => ({
    orders: await orders().countDocuments(),
    seq: (await api.mongo.db.collection<CounterDoc>('counters').findOne({ _id: 'orders' }))?.seq,
  });
  const create = async (items: Array<{ product_id: number; quantity: number }>, user_id = 1) => {
    const res = await client.POST('/api/orders/', { body: { user_id, items } });
    expect(res.response.status).toBe(201);
    return res.data!;
  };
  /** A raw request, for bodies and paths the typed client cannot express. */
  async function raw(method: string, path: string, body: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
      body,
    });
    return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Problem };
  }

  describe('POST /api/orders/', () => {
    it('creates a pending order priced from the catalog, with Location, and stores one order.created event', async () => {
      const before = await snapshot();
      const res = await client.POST('/api/orders/', {
        body: { user_id: 1, items: [{ product_id: 3, quantity: 3 }, { product_id: 11, quantity: 1 }] },
      });
      expect(res.response.status).toBe(201);
      expectTypeOf(res.data!).toEqualTypeOf<Order>();
      const order = res.data!;
      expect(order).toEqual({
        id: before.seq! + 1,
        user_id: 1,
        status: 'pending',
        items: [
          { product_id: 3, quantity: 3, unit_price: 12.99 },
          { product_id: 11, quantity: 1, unit_price: 5.5 },
        ],
        total: 44.47,
        currency: 'EUR',
        date: expect.any(String) as unknown,
        updated_at: order.date,
      });
      expect(order).not.toHaveProperty('outbox');
      expect(Math.abs(Date.parse(order.date) - Date.now())).toBeLessThan(60_000);
      expect(res.response.headers.get('location')).toBe(`/api/orders/${order.id}`);

      const doc = await stored(order.id);
      // One order.created, and the stock.updated of each product it reserved, all in the one insert.
      expect(doc.outbox.map((e) => [e.type, e.data.product_id])).toEqual([
        ['order.created', undefined],
        ['stock.updated', 3],
        ['stock.updated', 11],
      ]);
      expect(doc.outbox[0]).toEqual({
        id: expect.stringMatching(/^evt_[A-Za-z0-9]{22}$/) as unknown,
        type: 'order.created',
        data: { order_id: order.id, total: 44.47, currency: 'EUR', status: 'pending', user_id: 1, item_count: order.items.length, items: order.items },
        created_at: new Date(order.date),
        // The request's id, as its response and its log lines carry it.
        request_id: res.response.headers.get('x-request-id'),
        // Whose data it carries: the owner of the key that ordered.
        owner_id: 'owner-a',
        // The first of its order's events: ordered subscriptions get them in this order.
        seq: 1,
      });
      // The first order of this API process reserved a block of 16 ids with one counter write.
      expect(await snapshot()).toEqual({ orders: before.orders + 1, seq: before.seq! + 16 });
    });

    it('continues the counter past the demo orders and hands out increasing ids', async () => {
      const a = await create([{ product_id: 1, quantity: 1 }], 2);
      const b = await create([{ product_id: 1, quantity: 1 }], 2);
      expect(a.id).toBeGreaterThan(demoOrderSeq);
      expect(b.id).toBe(a.id + 1);
    });

    it('accepts the bare /api/orders path as the same operation', async () => {
      const res = await fetch(`${api.baseUrl}/api/orders`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ user_id: 3, items: [{ product_id: 6, quantity: 2 }] }),
      });
      const order = (await res.json()) as Order;
      expect(res.status, JSON.stringify(order)).toBe(201);
      expect(order.total).toBe(398);
      expect(res.headers.get('location')).toBe(`/api/orders/${order.id}`);
    });

    it('keeps repeated products as separate lines and the total exact', async () => {
      const order = await create([
        { product_id: 8, quantity: 3 },
        { product_id: 8, quantity: 7 },
        { product_id: 2, quantity: 10000 },
      ]);
      expect(order.items).toHaveLength(3);
      expect(order.total).toBe(399999.9);
    });

    it('appears first in the user’s order list', async () => {
      const order = await create([{ product_id: 12, quantity: 1 }], 4);
      const list = await client.GET('/api/users/{user_id}/orders', { params: { path: { user_id: 4 } } });
      expect(list.data!.data[0]).toEqual({ id: order.id, total: 129, date: order.date });
    });

    it('gives 422 naming /body/user_id for an unknown user, writing nothing', async () => {
      const before = await snapshot();
      const res = await client.POST('/api/orders/', { body: { user_id: 999, items: [{ product_id: 1, quantity: 1 }] } });
      expect(res.response.status).toBe(422);
      expect(res.response.headers.get('content-type')).toContain('application/problem+json');
      expect(res.error).toMatchObject({ status: 422, errors: [{ path: '/body/user_id', message: 'no user 999' }] });
      expect(await snapshot()).toEqual(before);
    });

    it('gives 422 naming each unknown product by its index, writing nothing', async () => {
      const before = await snapshot();
      const res = await client.POST('/api/orders/', {
        body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }, { product_id: 500, quantity: 1 }, { product_id: 501, quantity: 2 }] },
      });
      expect(res.response.status).toBe(422);
      expect(res.error!.errors).toEqual([
        { path: '/body/items/1/product_id', message: 'no product 500' },
        { path: '/body/items/2/product_id', message: 'no product 501' },
      ]);
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      ['quantity 0', '/body/items/0/quantity', { user_id: 1, items: [{ product_id: 1, quantity: 0 }] }],
      ['quantity above 10000', '/body/items/0/quantity', { user_id: 1, items: [{ product_id: 1, quantity: 10001 }] }],
      ['a fractional quantity', '/body/items/0/quantity', { user_id: 1, items: [{ product_id: 1, quantity: 1.5 }] }],
      ['quantity as a string', '/body/items/0/quantity', { user_id: 1, items: [{ product_id: 1, quantity: '2' }] }],
      ['missing items', '/body/items', { user_id: 1 }],
      ['empty items', '/body/items', { user_id: 1, items: [] }],
      ['missing user_id', '/body/user_id', { items: [{ product_id: 1, quantity: 1 }] }],
      ['an extra property', '/body/coupon', { user_id: 1, items: [{ product_id: 1, quantity: 1 }], coupon: 'FREE' }],
      ['an extra item property', '/body/items/0/price', { user_id: 1, items: [{ product_id: 1, quantity: 1, price: 0 }] }],
    ])('gives 400 for %s naming %s, writing nothing', async (_name, path, body) => {
      const before = await snapshot();
      const res = await raw('POST', '/api/orders/', JSON.stringify(body));
      expect(res.status).toBe(400);
      expect(res.type).toContain('application/problem+json');
      expect(res.body.errors?.map((e) => e.path)).toContain(path);
      expect(await snapshot()).toEqual(before);
    });

    it('gives 400 for malformed JSON, writing nothing', async () => {
      const before = await snapshot();
      const res = await raw('POST', '/api/orders/', '{"user_id": 1, "items": [');
      expect(res.status).toBe(400);
      expect(res.type).toContain('application/problem+json');
      expect(res.body).toMatchObject({ status: 400, title: 'Malformed JSON' });
      expect(await snapshot()).toEqual(before);
    });

    it('needs orders:write: 403 with resources:read only, 401 without a key, writing nothing', async () => {
      const before = await snapshot();
      const { client: reader } = await api.clientWith(['resources:read']);
      const body = { user_id: 1, items: [{ product_id: 1, quantity: 1 }] };
      const denied = await reader.POST('/api/orders/', { body });
      expect(denied.response.status).toBe(403);
      expect(denied.error).toMatchObject({ status: 403, title: 'Forbidden' });
      const anonymous = await api.anonymous().POST('/api/orders/', { body });
      expect(anonymous.response.status).toBe(401);
      const patch = await reader.PATCH('/api/orders/{order_id}', { params: { path: { order_id: 1 } }, body: { status: 'cancelled' } });
      expect(patch.response.status).toBe(403);
      expect(await snapshot()).toEqual(before);
      expect((await stored(1)).status).toBe('delivered');
    });
  });

  describe('GET /api/orders/{order_id}', () => {
    it('returns a created order as it was created', async () => {
      const created = await create([{ product_id: 5, quantity: 2 }]);
      const res = await client.GET('/api/orders/{order_id}', { params: { path: { order_id: created.id } } });
      expect(res.response.status).toBe(200);
      expectTypeOf(res.data!).toEqualTypeOf<Order>();
      expect(res.data).toEqual(created);
    });

    it("returns a demo order to the operator's keys; to another owner it does not exist", async () => {
      const { client: operator } = await api.clientWith(['resources:read'], ADMIN_OWNER);
      const res = await operator.GET('/api/orders/{order_id}', { params: { path: { order_id: 1 } } });
      expect(res.data).toMatchObject({ id: 1, user_id: 1, status: 'delivered', total: 68.88, currency: 'EUR' });
      const hidden = await client.GET('/api/orders/{order_id}', { params: { path: { order_id: 1 } } });
      expect(hidden.response.status).toBe(404);
      expect(hidden.error).toMatchObject({ status: 404, detail: 'No order 1' });
    });

    it('gives 404 for an unknown order and 400 for a non-numeric id', async () => {
      const res = await client.GET('/api/orders/{order_id}', { params: { path: { order_id: 99_999 } } });
      expect(res.response.status).toBe(404);
      expect(res.error).toMatchObject({ status: 404, detail: 'No order 99999' });
      const bad = await fetch(`${api.baseUrl}/api/orders/abc`, { headers: { Authorization: `Bearer ${key}` } });
      expect(bad.status).toBe(400);
    });
  });

  describe('PATCH /api/orders/{order_id}', () => {
    const patch = (order_id: number, status: Order['status']) =>
      client.PATCH('/api/orders/{order_id}', { params: { path: { order_id } }, body: { status } });

    it('moves pending → paid, storing a second event order.updated with previous_status', async () => {
      const created = await create([{ product_id: 4, quantity: 2 }]);
      const res = await patch(created.id, 'paid');
      expect(res.response.status).toBe(200);
      expectTypeOf(res.data!).toEqualTypeOf<Order>();
      expect(res.data).toEqual({ ...created, status: 'paid', updated_at: expect.any(String) as unknown });
      expect(Date.parse(res.data!.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));

      expect((await stored(created.id)).status).toBe('paid');
      const events = await orderEvents(created.id);
      expect(events).toHaveLength(2);
      expect(events[1]).toEqual({
        id: expect.stringMatching(/^evt_/) as unknown,
        type: 'order.updated',
        data: { order_id: created.id, total: 37, currency: 'EUR', status: 'paid', previous_status: 'pending', user_id: 1, item_count: created.items.length, items: created.items },
        created_at: new Date(res.data!.updated_at),
        request_id: res.response.headers.get('x-request-id'),
        owner_id: 'owner-a',
        seq: 2,
      });
      expect(events[1]!.id).not.toBe(events[0]!.id);

      const read = await client.GET('/api/orders/{order_id}', { params: { path: { order_id: created.id } } });
      expect(read.data).toEqual(res.data);
    });

    it('walks the whole lifecycle pending → paid → shipped → delivered, one event per move', async () => {
      const created = await create([{ product_id: 9, quantity: 1 }]);
      for (const status of ['paid', 'shipped', 'delivered'] as const) {
        expect((await patch(created.id, status)).data!.status).toBe(status);
      }
      expect((await orderEvents(created.id)).map((e) => [e.type, e.data.previous_status, e.data.status])).toEqual([
        ['order.created', undefined, 'pending'],
        ['order.updated', 'pending', 'paid'],
        ['order.updated', 'paid', 'shipped'],
        ['order.updated', 'shipped', 'delivered'],
      ]);
    });

    it.each([
      ['pending', 'cancelled'],
      ['paid', 'cancelled'],
    ] as const)('allows %s → %s', async (from, to) => {
      const created = await create([{ product_id: 10, quantity: 1 }]);
      if (from === 'paid') await patch(created.id, 'paid');
      const res = await patch(created.id, to);
      expect(res.response.status).toBe(200);
      expect(res.data!.status).toBe(to);
    });

    it('treats the same status as a no-op: 200, no new event, updated_at unchanged', async () => {
      const created = await create([{ product_id: 1, quantity: 1 }]);
      const res = await patch(created.id, 'pending');
      expect(res.response.status).toBe(200);
      expect(res.data).toEqual(created);
      expect(await orderEvents(created.id)).toHaveLength(1);
    });

    it.each([
      ['pending', 'shipped'],
      ['pending', 'delivered'],
      ['paid', 'pending'],
      ['paid', 'delivered'],
      ['shipped', 'cancelled'],
      ['shipped', 'paid'],
      ['delivered', 'cancelled'],
      ['cancelled', 'paid'],
    ] as const)('refuses %s → %s with a 409 problem, changing nothing', async (from, to) => {
      const created = await create([{ product_id: 1, quantity: 1 }]);
      const path: Order['status'][] = {
        pending: [],
        paid: ['paid'],
        shipped: ['paid', 'shipped'],
        delivered: ['paid', 'shipped', 'delivered'],
        cancelled: ['cancelled'],
      }[from] as Order['status'][];
      for (const step of path) await patch(created.id, step);
      const before = await stored(created.id);
      const res = await patch(created.id, to);
      expect(res.response.status).toBe(409);
      expect(res.response.headers.get('content-type')).toContain('application/problem+json');
      expect(res.error).toMatchObject({ status: 409, errors: [{ path: '/body/status', message: `${from} → ${to} is not allowed` }] });
      expect(await stored(created.id)).toEqual(before);
    });

    it('gives 404 for an unknown order and 400 for an unknown status', async () => {
      const res = await patch(99_999, 'paid');
      expect(res.response.status).toBe(404);
      const bad = await raw('PATCH', '/api/orders/1', JSON.stringify({ status: 'refunded' }));
      expect(bad.status).toBe(400);
      expect(bad.body.errors?.map((e) => e.path)).toEqual(['/body/status']);
      const extra = await raw('PATCH', '/api/orders/1', JSON.stringify({ status: 'paid', note: 'x' }));
      expect(extra.status).toBe(400);
    });
  });

  describe('outbox flush', () => {
    /** The app over the same database, with `outbox` as its flusher. */
    async function appWith(outbox: OutboxFlusher) {
      const config = loadConfig({ CALLBACK_ALLOW_PRIVATE: 'true', VALIDATE_RESPONSES: 'true' });
      const deps = createAppDeps({ db: api.mongo.db, temporal: api.temporal, logger: createLogger('silent', 'test'), config, outbox });
      const server: Server = createApp(deps).listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      const own = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: key });
      return { client: own, close: () => new Promise((r) => server.close(r)) };
    }

    it('flushes the order’s outbox after creating and after changing it, not after a no-op', async () => {
      const calls: Array<[string, number, number]> = [];
      const recorder: OutboxFlusher = {
        ...inertOutbox,
        async flush(source) {
          // The event is already stored when the flush is asked for (stock moves' flushes are the inventory tests' matter).
          if (source.collection === 'orders') calls.push([source.collection, source.id, (await stored(source.id)).outbox.length]);
        },
      };
      const own = await appWith(recorder);
      try {
        const created = await own.client.POST('/api/orders/', { body: { user_id: 2, items: [{ product_id: 7, quantity: 1 }] } });
        expect(created.response.status).toBe(201);
        const id = created.data!.id;
        // order.created and stock.updated
        expect(calls).toEqual([['orders', id, 2]]);
        await own.client.PATCH('/api/orders/{order_id}', { params: { path: { order_id: id } }, body: { status: 'paid' } });
        await own.client.PATCH('/api/orders/{order_id}', { params: { path: { order_id: id } }, body: { status: 'paid' } });
        expect(calls).toEqual([
          ['orders', id, 2],
          ['orders', id, 3],
        ]);
        const refused = await own.client.POST('/api/orders/', { body: { user_id: 999, items: [{ product_id: 7, quantity: 1 }] } });
        expect(refused.response.status).toBe(422);
        expect(calls).toHaveLength(2);
      } finally {
        await own.close();
      }
    });

    it('still answers 201 and 200 when the flush fails: the event stays in the outbox for the relay', async () => {
      const failing: OutboxFlusher = { ...inertOutbox, flush: () => Promise.reject(new Error('dispatcher unavailable')) };
      const own = await appWith(failing);
      try {
        const created = await own.client.POST('/api/orders/', { body: { user_id: 2, items: [{ product_id: 8, quantity: 2 }] } });
        expect(created.response.status).toBe(201);
        expect(created.data!.total).toBe(19.98);
        const id = created.data!.id;
        expect((await stored(id)).outbox.map((e) => e.type)).toEqual(['order.created', 'stock.updated']);
        const updated = await own.client.PATCH('/api/orders/{order_id}', { params: { path: { order_id: id } }, body: { status: 'cancelled' } });
        expect(updated.response.status).toBe(200);
        expect((await stored(id)).outbox.map((e) => e.type)).toEqual(['order.created', 'stock.updated', 'order.updated']);
      } finally {
        await own.close();
      }
    });
  });
});
