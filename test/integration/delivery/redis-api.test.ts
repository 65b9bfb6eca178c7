import { randomBytes } from 'node:crypto';
import type { SubscriptionCreate } from '../../../src/contract/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_BODY_FIELD } from '../../../activities/redis-publish';
import { verify } from '../../../src/receiver';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { startTestRedis, type TestRedis } from '../../support/redis';
import { waitFor } from '../../support/wait';

describe('a Redis Streams destination through the API, the workflow and the worker', () => {
  let api: TestApi;
  let worker: TestWorker | undefined;
  let redis: TestRedis;

  beforeAll(async () => {
    redis = await startTestRedis();
    // Sealed at rest only with a key, as signing secrets are.
    api = await startTestApi({ SECRET_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}` });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await redis?.close();
  });

  const destination = () => ({ type: 'redis' as const, stream: 'shop:orders', maxlen: 1000, password: redis.password });

  it('creates it with its credentials sealed and masked, and an order arrives on the stream, verifiable', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write']);
    const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: `${redis.url}/0`, events: ['order.created'], destination: destination() } });
    expect(created.response.status).toBe(201);
    const { id, secret } = created.data!;
    expect(created.data!.destination).toEqual({ type: 'redis', stream: 'shop:orders', maxlen: 1000, password: '********' });
    const stored = JSON.stringify(await api.mongo.db.collection('subscriptions').findOne({ _id: id as never }));
    expect(stored).not.toContain(redis.password);

    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    let got: Awaited<ReturnType<TestRedis['read']>> = [];
    await waitFor(async () => ((got = await redis.read('shop:orders')), got.length >= 1), 30_000);
    expect(got).toHaveLength(1);
    const { [REDIS_BODY_FIELD]: body, ...headers } = got[0]!.fields;
    expect(verify(body!, headers, secret)).toMatchObject({ event: 'order.created' });

    const attempts = () => client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: id } } });
    await waitFor(async () => ((await attempts()).data?.data.length ?? 0) > 0, 10_000);
    expect((await attempts()).data!.data).toMatchObject([{ outcome: 'delivered', state: 'delivered' }]);
    await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } } });
  });

  it("closes the worker's connection to the server when the worker stops", async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write']);
    const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: redis.url, events: ['order.created'], destination: { ...destination(), stream: 'shop:stopping' } } });
    expect(created.response.status).toBe(201);
    const id = created.data!.id;
    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    await waitFor(async () => (await redis.read('shop:stopping')).length >= 1, 30_000);
    // Pooled: open after the delivery, until 60 s unused or the worker's stop.
    expect(await redis.clientNames()).toContain(`webhooks-${id}`);
    await worker!.stop();
    worker = undefined;
    // The server drops a closed client as it reads the close: asked until then, briefly.
    await waitFor(async () => !(await redis.clientNames()).includes(`webhooks-${id}`), 5000);
  });

  it('refuses what does not fit, naming the field, and writes nothing', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read']);
    const before = await api.mongo.db.collection('subscriptions').countDocuments();
    const port = new URL(redis.url).port;
    const cases: Array<[SubscriptionCreate, string]> = [
      [{ url: 'https://erp.example.com/hooks', events: ['order.created'], destination: destination() }, '/body/url'],
      [{ url: redis.url, events: ['order.created'] }, '/body/url'],
      [{ url: `${redis.url}/orders`, events: ['order.created'], destination: destination() }, '/body/url'],
      [{ url: redis.url, events: ['order.created'], destination: { type: 'redis', stream: 's', username: 'hooks' } }, '/body/destination/password'],
      [{ url: redis.url, events: ['order.created'], destination: { type: 'redis', stream: 's', maxlen: 0 } }, '/body/destination'],
      [{ url: `redis://:pw@127.0.0.1:${port}`, events: ['order.created'], destination: destination() }, '/body/url'],
    ];
    for (const [body, pointer] of cases) {
      const r = await client.POST('/api/webhooks/v1/subscribe', { body });
      expect([400, 422], JSON.stringify(body)).toContain(r.response.status);
      expect(JSON.stringify(r.error), JSON.stringify(body)).toContain(pointer);
    }
    expect(await api.mongo.db.collection('subscriptions').countDocuments()).toBe(before);
  });
});
