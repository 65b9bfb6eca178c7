import { randomBytes } from 'node:crypto';
import type { SubscriptionCreate } from '../../../src/contract/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../../src/receiver';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { startTestKafka, type TestKafka } from '../../support/kafka';
import { waitFor } from '../../support/wait';

describe('a Kafka destination through the API, the workflow and the worker', () => {
  let api: TestApi;
  let worker: TestWorker;
  let kafka: TestKafka;

  beforeAll(async () => {
    kafka = await startTestKafka();
    await kafka.createTopic('shop-orders');
    // Sealed at rest only with a key, as signing secrets are.
    api = await startTestApi({ SECRET_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}` });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
  }, 180_000);
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await kafka?.close();
  });

  const url = () => `kafka://${kafka.broker}`;
  const destination = () => ({ type: 'kafka' as const, topic: 'shop-orders', sasl_mechanism: 'plain' as const, username: kafka.user, password: kafka.password });

  it('creates it with its credentials sealed and masked, and an order arrives keyed by its id, verifiable', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write']);
    const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: url(), events: ['order.created'], destination: destination() } });
    expect(created.response.status).toBe(201);
    const { id, secret } = created.data!;
    expect(created.data!.destination).toEqual({ type: 'kafka', topic: 'shop-orders', sasl_mechanism: 'plain', username: '********', password: '********' });
    const stored = JSON.stringify(await api.mongo.db.collection('subscriptions').findOne({ _id: id as never }));
    expect(stored).not.toContain(kafka.password);

    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    const [got] = await kafka.read('shop-orders', 1);
    const event = verify<{ event: string; data: { order_id: number } }>(got!.body, got!.headers, secret);
    expect(event).toMatchObject({ event: 'order.created' });
    expect(got!.key).toBe(`order:${event.data.order_id}`);

    const attempts = () => client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: id } } });
    await waitFor(async () => ((await attempts()).data?.data.length ?? 0) > 0, 10_000);
    expect((await attempts()).data!.data).toMatchObject([{ outcome: 'delivered', state: 'delivered' }]);
    await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } } });
  }, 60_000);

  it('refuses what does not fit, naming the field, and writes nothing', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read']);
    const before = await api.mongo.db.collection('subscriptions').countDocuments();
    const noPassword = { type: 'kafka' as const, topic: 'shop-orders', username: kafka.user };
    const cases: Array<[SubscriptionCreate, string]> = [
      [{ url: 'https://erp.example.com/hooks', events: ['order.created'], destination: destination() }, '/body/url'],
      [{ url: `${url()}/shop-orders`, events: ['order.created'], destination: destination() }, '/body/url'],
      [{ url: url(), events: ['order.created'], destination: noPassword }, '/body/destination/password'],
      [{ url: url(), events: ['order.created'], destination: { ...destination(), topic: 'no spaces' } }, '/body/destination'],
      [{ url: url(), events: ['order.created'], destination: { ...destination(), brokers: ['no-port.example.com'] } }, '/body/destination'],
      [{ url: url(), events: ['order.created'], destination: destination(), auth: { type: 'bearer' as const, token: 't' } }, '/body/auth'],
    ];
    for (const [body, pointer] of cases) {
      const r = await client.POST('/api/webhooks/v1/subscribe', { body });
      expect([400, 422], JSON.stringify(body)).toContain(r.response.status);
      expect(JSON.stringify(r.error), JSON.stringify(body)).toContain(pointer);
    }
    expect(await api.mongo.db.collection('subscriptions').countDocuments()).toBe(before);
  });

  it('a new broker url needs the destination (and its credentials) again', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read']);
    const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: url(), events: ['order.created'], destination: destination() } });
    expect(created.response.status).toBe(201);
    const path = { params: { path: { subscription_id: created.data!.id } } };
    const newHost = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { ...path, body: { url: 'kafkas://kafka-1.example.com:9093' } });
    expect(newHost.response.status).toBe(422);
    expect(JSON.stringify(newHost.error)).toContain('/body/destination');
    await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', path);
  });
});
