import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/client';
import type { OrderStatus } from '../../../src/contract/types';
import { newOutboxEvent, type OutboxEvent } from '../../../src/events/outbox';
import { CLAIM_LEASE_MS, CLAIM_WRITE_WITHIN_MS } from '../../../src/orders/claim-lease';
import { type OrderDoc, OrderRepository, orderKey } from '../../../src/orders/repository';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, type TestApi } from '../../support/api';
import { startApiProcess } from '../../support/api-process';
import { waitFor } from '../../support/wait';

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

  const build = (id: number, outbox: OutboxEvent[] = []): OrderDoc => ({
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
    outbox,
  });
  const stored = async (id: number) => (await api.mongo.db.collection<OrderDoc>('orders').findOne({ _id: orderKey(id) }))!;
  /** A pending order `id` with its order.created (place 1), as placing it writes it. */
  const pendingOrder = async (id: number): Promise<OutboxEvent> => {
    const created = newOutboxEvent('order.created', { order_id: id, total: 1, currency: 'EUR', status: 'pending', user_id: 1 }, { seq: 1 });
    expect(await new OrderRepository(api.mongo.db).insertNew(build(id, [created]))).toBe(true);
    return created;
  };
  const updatedEvent = (id: number, to: OrderStatus) =>
    newOutboxEvent('order.updated', { order_id: id, total: 1, currency: 'EUR', status: to, user_id: 1, previous_status: 'pending' }, { seq: 2 });

  it('two processes changing one order from the same status at once: exactly one change lands, with its event, in each of 20 races', async () => {
    // Two repositories stand for two API processes; on FerretDB v1 both conditional updates could match.
    const processes = [new OrderRepository(api.mongo.db), new OrderRepository(api.mongo.db)];
    const targets = ['paid', 'cancelled'] as const;
    for (let race = 0; race < 20; race++) {
      const id = 95_000 + race;
      const created = await pendingOrder(id);
      const events = targets.map((to) => updatedEvent(id, to));
      const outcomes = await Promise.all(processes.map((repo, i) => repo.transition(id, 'pending', targets[i]!, events[i]!, new Date())));
      const won = outcomes.map((o) => o.kind === 'written');
      expect(won.filter(Boolean), `race ${race}`).toHaveLength(1);
      // The other found the winner's change landed, or its claim not yet landed (busy: retry at once).
      expect([{ kind: 'changed' }, { kind: 'busy', cause: 'held', retryAfterMs: 0 }], `race ${race}`).toContainEqual(outcomes[won.indexOf(false)]);
      const winner = won.indexOf(true);
      const order = await stored(id);
      expect(order.status).toBe(targets[winner]);
      // The winner's event is the order's second, alone in its place.
      expect(order.outbox.map((e) => [e.id, e.seq])).toEqual([
        [created.id, 1],
        [events[winner]!.id, 2],
      ]);
    }
  });

  it('a claim whose claimer died before its change holds the place within its lease only; then the next claim takes it', async () => {
    const repo = new OrderRepository(api.mongo.db);
    const claims = api.mongo.db.collection<{ _id: string; event_id: string; at: Date }>('order_claims');
    const id = 95_100;
    await pendingOrder(id);
    // A process claimed place 2 just now and may still be writing: the other change is busy (retry at once), nothing written.
    await claims.insertOne({ _id: `order:${id}#2`, event_id: 'evt_in_flight', at: new Date() });
    expect(await repo.transition(id, 'pending', 'paid', updatedEvent(id, 'paid'), new Date())).toEqual({ kind: 'busy', cause: 'held', retryAfterMs: 0 });
    expect((await stored(id)).status).toBe('pending');
    // The claim is a lease old and its change never landed: its claimer died, the next generation of the place is free.
    await claims.updateOne({ _id: `order:${id}#2` }, { $set: { at: new Date(Date.now() - CLAIM_LEASE_MS - 1000) } });
    const paid = updatedEvent(id, 'paid');
    expect(await repo.transition(id, 'pending', 'paid', paid, new Date())).toEqual({ kind: 'written' });
    expect((await stored(id)).outbox.map((e) => e.id)).toContain(paid.id);
    expect(await claims.findOne({ _id: `order:${id}#2.1` })).toMatchObject({ event_id: paid.id });
    // A claim of a change that did land, stale or not, is no way around it: a change from the old status is a conflict.
    expect(await repo.transition(id, 'pending', 'cancelled', updatedEvent(id, 'cancelled'), new Date())).toEqual({ kind: 'changed' });
    await claims.updateOne({ _id: `order:${id}#2.1` }, { $set: { at: new Date(Date.now() - CLAIM_LEASE_MS - 1000) } });
    expect(await repo.transition(id, 'pending', 'cancelled', updatedEvent(id, 'cancelled'), new Date())).toEqual({ kind: 'changed' });
    expect((await stored(id)).status).toBe('paid');
  });

  it('a claimer that has not started its write within half the lease writes nothing and is busy until its lease ends: the next claimant may take its place then', async () => {
    const repo = new OrderRepository(api.mongo.db);
    const id = 95_200;
    await pendingOrder(id);
    const slow = () => new Promise<void>((resolve) => setTimeout(resolve, CLAIM_WRITE_WITHIN_MS + 500));
    const outcome = await repo.transition(id, 'pending', 'paid', updatedEvent(id, 'paid'), new Date(), slow);
    expect(outcome).toMatchObject({ kind: 'busy', cause: 'too_slow' });
    // What is left of the lease after the wait: at most its other half less the 500 ms over it.
    expect(outcome.kind === 'busy' && outcome.retryAfterMs).toBeLessThanOrEqual(CLAIM_LEASE_MS - CLAIM_WRITE_WITHIN_MS - 500);
    const order = await stored(id);
    expect(order.status).toBe('pending');
    expect(order.outbox).toHaveLength(1);
  });

  it('concurrent PATCHes of one order through two API processes: one 200 with its event logged, the other 409 or 503 problem+json writing nothing', async () => {
    const { client, key } = await api.clientWith(['orders:write', 'webhooks:write', 'resources:read']);
    await client.POST('/api/webhooks/v1/subscribe', { body: { url: 'http://127.0.0.1:9/x', events: ['order.updated'] } });
    const other = await startApiProcess(api);
    try {
      const viaOther = createClient({ baseUrl: other.baseUrl, apiKey: key });
      for (let race = 0; race < 8; race++) {
        const placed = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
        const id = placed.data!.id;
        const path = { params: { path: { order_id: id } } };
        expect((await client.PATCH('/api/orders/{order_id}', { ...path, body: { status: 'paid' } })).response.status).toBe(200);
        // From paid, shipped and cancelled exclude each other in either order: one must be refused, whoever reads first.
        const [shipped, cancelled] = await Promise.all([
          client.PATCH('/api/orders/{order_id}', { ...path, body: { status: 'shipped' } }),
          viaOther.PATCH('/api/orders/{order_id}', { ...path, body: { status: 'cancelled' } }),
        ]);
        const statuses = [shipped, cancelled].map((r) => r.response.status).sort();
        // The loser saw the winner's change landed (409), or its claim not yet landed (503, retry after 1 s).
        expect([[200, 409], [200, 503]], `race ${race}`).toContainEqual(statuses);
        const [winner, loser] = shipped.response.status === 200 ? [shipped, cancelled] : [cancelled, shipped];
        expect(loser.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        if (loser.response.status === 503) expect(loser.response.headers.get('retry-after')).toBe('1');
        const order = await stored(id);
        expect(order.status).toBe(winner.data!.status);
        // Every answered change has its event, each in a place of its own.
        const updates = order.outbox.filter((e) => e.type === 'order.updated');
        expect(updates.map((e) => [e.seq, e.data.status])).toEqual([
          [2, 'paid'],
          [3, winner.data!.status],
        ]);
        for (const e of updates) await waitFor(async () => (await api.events.find(e.id)) !== undefined, 10_000);
      }
    } finally {
      await other.process.stop();
    }
  });

  it('a PATCH whose place is held past its holder\'s write window answers 503 problem+json with Retry-After, writing nothing; after the lease it lands', async () => {
    const { client } = await api.clientWith(['orders:write', 'resources:read']);
    const placed = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    const id = placed.data!.id;
    const before = await stored(id);
    const claims = api.mongo.db.collection<{ _id: string; event_id: string; at: Date }>('order_claims');
    // A change claimed place 2 a second past its write window and stopped: it will never write.
    await claims.insertOne({ _id: `order:${id}#2`, event_id: 'evt_stopped', at: new Date(Date.now() - CLAIM_WRITE_WITHIN_MS - 1000) });
    const path = { params: { path: { order_id: id } } };
    const busy = await client.PATCH('/api/orders/{order_id}', { ...path, body: { status: 'paid' } });
    expect(busy.response.status).toBe(503);
    expect(busy.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    // The rest of the lease, in whole seconds rounded up: at most 4 of the 10 s.
    const retryAfter = Number(busy.response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual((CLAIM_LEASE_MS - CLAIM_WRITE_WITHIN_MS - 1000) / 1000);
    expect(busy.error).toMatchObject({ status: 503, title: 'Order Change In Progress', detail: expect.stringContaining(`Retry after ${retryAfter} s`) as unknown });
    const after = await stored(id);
    expect([after.status, after.outbox.map((e) => e.id)]).toEqual([before.status, before.outbox.map((e) => e.id)]);
    // Once the lease has passed the same request takes the next generation of the place.
    await claims.updateOne({ _id: `order:${id}#2` }, { $set: { at: new Date(Date.now() - CLAIM_LEASE_MS - 1000) } });
    const retried = await client.PATCH('/api/orders/{order_id}', { ...path, body: { status: 'paid' } });
    expect(retried.response.status).toBe(200);
    expect((await stored(id)).status).toBe('paid');
  });

  it('two API processes sharing the counter (each reserving blocks of ids) never hand out one id twice', async () => {
    // Two repositories stand for two processes; FerretDB's findAndModify may give both the same block.
    const processes = [new OrderRepository(api.mongo.db, 4), new OrderRepository(api.mongo.db, 4)];
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
