import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { seedDemoData } from '../../../src/seed/seed';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { createApiMetrics } from '../../../src/telemetry/metrics';
import { startTestApi, type TestApi } from '../../support/api';
import { counts, moved } from '../../support/db-commands';

const v1 = '/api/webhooks/v1';
const hook = 'http://127.0.0.1:9/hooks';
const ttlMs = 1000;

describe('the fan-out cache: an API process sees its own subscription writes at once, other processes\' within SUBSCRIPTION_CACHE_TTL', () => {
  let api: TestApi;
  const metrics = createApiMetrics();

  beforeAll(async () => {
    api = await startTestApi({ SUBSCRIPTION_CACHE_TTL: `${ttlMs}ms` }, { metrics });
    await seedDemoData(api.mongo.db, { stock: 100_000 });
  });
  afterAll(async () => {
    await api.close();
  });

  const ownerClient = async (owner: string) => (await api.clientWith(['orders:write', 'webhooks:write', 'resources:read'], owner)).client;

  /** Places an order; returns who its `order.created` went to (none: not logged, nobody subscribed) and the API's commands on `subscriptions`. */
  async function order(client: WebhookServiceClient): Promise<{ subscribers: string[]; subscriptionReads: number }> {
    const before = await counts(metrics.dbCommands);
    const res = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(res.response.status).toBe(201);
    const spent = moved(before, await counts(metrics.dbCommands));
    const stored = await api.deps.resources.orders.findById(res.data!.id);
    const eventId = stored!.outbox.find((e) => e.type === 'order.created')!.id;
    const logged = await api.events.find(eventId);
    return { subscribers: logged?.subscription_ids ?? [], subscriptionReads: spent['find subscriptions'] ?? 0 };
  }

  it('gives the next event to a subscription created, paused, resumed through this process, at once', async () => {
    const client = await ownerClient('owner-own-writes');
    // Reads (and caches) that nobody subscribes.
    expect((await order(client)).subscribers).toEqual([]);
    const created = await client.POST(`${v1}/subscribe`, { body: { url: hook, events: ['order.created'] } });
    expect(created.response.status).toBe(201);
    const id = created.data!.id;
    expect((await order(client)).subscribers).toEqual([id]);

    expect((await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: id } }, body: { status: 'paused' } })).response.status).toBe(200);
    // A pause holds: the paused subscription still gets the event (its delivery is held until resumed).
    expect((await order(client)).subscribers).toEqual([id]);
    expect((await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: id } }, body: { status: 'active' } })).response.status).toBe(200);
    expect((await order(client)).subscribers).toEqual([id]);

    expect((await client.DELETE(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: id } } })).response.status).toBe(204);
    expect((await order(client)).subscribers).toEqual([]);
  });

  it('picks up a change made in the database by another process once SUBSCRIPTION_CACHE_TTL has passed', async () => {
    const client = await ownerClient('owner-elsewhere');
    const id = (await client.POST(`${v1}/subscribe`, { body: { url: hook, events: ['order.created'] } })).data!.id;
    expect((await order(client)).subscribers).toEqual([id]);
    // Another process pauses it (as a release before holds did: no paused_at, so it takes no events); this one's writes are not involved.
    await api.mongo.db.collection<SubscriptionDoc>('subscriptions').updateOne({ _id: id }, { $set: { status: 'paused' } });
    await sleep(ttlMs + 100);
    expect((await order(client)).subscribers).toEqual([]);
  });
});

describe('the fan-out cache saves the reads of orders within SUBSCRIPTION_CACHE_TTL', () => {
  let api: TestApi;
  const metrics = createApiMetrics();

  beforeAll(async () => {
    // Long enough that the two orders below always fall within it.
    api = await startTestApi({ SUBSCRIPTION_CACHE_TTL: '1m' }, { metrics });
    await seedDemoData(api.mongo.db, { stock: 100_000 });
  });
  afterAll(async () => {
    await api.close();
  });

  it('reads the subscribers of an owner and event type once, and again after a write of this process', async () => {
    const { client } = await api.clientWith(['orders:write', 'webhooks:write', 'resources:read'], 'owner-reads');
    const id = (await client.POST(`${v1}/subscribe`, { body: { url: hook, events: ['order.created'] } })).data!.id;
    const place = async () => {
      const before = await counts(metrics.dbCommands);
      const res = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
      expect(res.response.status).toBe(201);
      return moved(before, await counts(metrics.dbCommands))['find subscriptions'] ?? 0;
    };
    expect(await place()).toBeGreaterThan(0);
    expect(await place()).toBe(0);
    expect((await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: id } }, body: { description: 'changed' } })).response.status).toBe(200);
    expect(await place()).toBeGreaterThan(0);
  });
});
