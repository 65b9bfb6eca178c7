import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OrderDoc, OrderRepository, orderKey } from '../../../src/orders/repository';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, type TestApi } from '../../support/api';

describe('orders under concurrency', () => {
  let api: TestApi;
  beforeAll(async () => {
    // 60 orders at once test id allocation, not load shedding: no bound on requests in flight.
    api = await startTestApi({ API_MAX_IN_FLIGHT: '0' });
    // Ids and events are the matter here (inventory-concurrency.test.ts races for stock): no order may sell out.
    await seedDemoData(api.mongo.db, { stock: 100_000 });
  });
  afterAll(async () => {
    await api.close();
  });

  it('creates every one of 60 concurrent orders with distinct ids, and logs each event once', async () => {
    const { client } = await api.clientWith(['orders:write', 'webhooks:write', 'resources:read']);
    await client.POST('/api/webhooks/v1/subscribe', { body: { url: 'http://127.0.0.1:9/x', events: ['order.created'] } });
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => client.POST('/api/orders/', { body: { user_id: 1 + (i % 5), items: [{ product_id: 1 + (i % 12), quantity: 1 }] } })),
    );
    const statuses = results.map((r) => r.response.status);
    const problems = results.filter((r) => r.error).map((r) => r.error);
    expect(problems).toEqual([]);
    expect(statuses.every((s) => s === 201)).toBe(true);
    const ids = new Set(results.map((r) => r.data!.id));
    expect(ids.size).toBe(60);
    expect(await api.mongo.db.collection('events').countDocuments({ type: 'order.created' })).toBe(60);
  });

  it('two API processes sharing the counter (each reserving blocks of ids) never hand out one id twice', async () => {
    // Two repositories stand for two processes; FerretDB's findAndModify may give both the same block.
    const processes = [new OrderRepository(api.mongo.db, 4), new OrderRepository(api.mongo.db, 4)];
    const build = (id: number): OrderDoc => ({
      _id: orderKey(id),
      id,
      owner_id: 'test',
      user_id: 1,
      status: 'pending',
      items: [{ product_id: 1, quantity: 1, unit_price: 1 }],
      total: 1,
      currency: 'EUR',
      date: new Date(),
      updated_at: new Date(),
      outbox: [],
    });
    // Each order takes the next id of its process until one is free, as placing an order does.
    const insertNext = async (repo: OrderRepository): Promise<OrderDoc> => {
      for (;;) {
        const doc = build(await repo.nextId());
        if (await repo.insertNew(doc)) return doc;
      }
    };
    const docs = await Promise.all(processes.flatMap((repo) => Array.from({ length: 30 }, () => insertNext(repo))));
    expect(new Set(docs.map((d) => d.id)).size).toBe(60);
    expect(await api.mongo.db.collection('orders').countDocuments({ id: { $in: docs.map((d) => d.id) } })).toBe(60);
  });
});
