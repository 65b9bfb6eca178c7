import { randomBytes } from 'node:crypto';
import type { SubscriptionCreate } from '../../../src/contract/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../../src/receiver';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { drain, startTestRabbit, type TestRabbit } from '../../support/rabbitmq';
import { waitFor } from '../../support/wait';

describe('a RabbitMQ destination through the API, the workflow and the worker', () => {
  let api: TestApi;
  let worker: TestWorker;
  let rabbit: TestRabbit;
  let queue: string;

  beforeAll(async () => {
    rabbit = await startTestRabbit();
    const ch = await (await rabbit.admin()).createChannel();
    await ch.assertExchange('shop', 'topic', { durable: true });
    queue = (await ch.assertQueue('', { exclusive: false, durable: true })).queue;
    await ch.bindQueue(queue, 'shop', 'orders.#');
    await ch.close();
    // Sealed at rest only with a key, as signing secrets are.
    api = await startTestApi({ SECRET_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}` });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await rabbit?.close();
  });

  const destination = () => ({ type: 'rabbitmq' as const, exchange: 'shop', routing_key: 'orders.created', username: rabbit.user, password: rabbit.password });

  it('creates it with its credentials sealed and masked, and an order arrives on the queue, verifiable', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write']);
    const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: rabbit.url, events: ['order.created'], destination: destination() } });
    expect(created.response.status).toBe(201);
    const { id, secret } = created.data!;
    expect(created.data!.destination).toEqual({ type: 'rabbitmq', exchange: 'shop', routing_key: 'orders.created', username: '********', password: '********' });
    const stored = JSON.stringify(await api.mongo.db.collection('subscriptions').findOne({ _id: id as never }));
    expect(stored).not.toContain(rabbit.password);

    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    const admin = await rabbit.admin();
    const got: Awaited<ReturnType<typeof drain>> = [];
    await waitFor(async () => (got.push(...(await drain(admin, queue))), got.length >= 1), 30_000);
    expect(got).toHaveLength(1);
    expect(verify(got[0]!.body, got[0]!.headers, secret)).toMatchObject({ event: 'order.created' });

    const attempts = () => client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: id } } });
    // Logged just after the broker's confirm.
    await waitFor(async () => ((await attempts()).data?.data.length ?? 0) > 0, 10_000);
    expect((await attempts()).data!.data).toMatchObject([{ outcome: 'delivered', state: 'delivered' }]);
    await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } } });
  });

  it('refuses a url and destination that do not fit, naming the field, and writes nothing', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read']);
    const before = await api.mongo.db.collection('subscriptions').countDocuments();
    const cases: Array<[SubscriptionCreate, string]> = [
      [{ url: 'https://erp.example.com/hooks', events: ['order.created'], destination: destination() }, '/body/url'],
      [{ url: rabbit.url, events: ['order.created'] }, '/body/url'],
      [{ url: rabbit.url, events: ['order.created'], destination: destination(), auth: { type: 'bearer' as const, token: 't' } }, '/body/auth'],
      [{ url: `amqp://hooks:pw@127.0.0.1:${new URL(rabbit.url).port}`, events: ['order.created'], destination: destination() }, '/body/url'],
    ];
    for (const [body, pointer] of cases) {
      const r = await client.POST('/api/webhooks/v1/subscribe', { body });
      // 400 for a url no kind takes (as before), 422 for one that does not fit its destination.
      expect([400, 422], JSON.stringify(body)).toContain(r.response.status);
      expect(JSON.stringify(r.error), JSON.stringify(body)).toContain(pointer);
    }
    expect(await api.mongo.db.collection('subscriptions').countDocuments()).toBe(before);
  });

  it('moves an HTTP subscription to RabbitMQ and back only with both fields, and a new broker url only with its credentials again', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read']);
    const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: 'http://127.0.0.1:9/hooks', events: ['order.created'] } });
    const path = { params: { path: { subscription_id: created.data!.id } } };
    expect((await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { ...path, body: { destination: destination() } })).response.status).toBe(422);
    const moved = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { ...path, body: { url: rabbit.url, destination: destination() } });
    expect(moved.response.status).toBe(200);
    expect(moved.data!.destination).toMatchObject({ type: 'rabbitmq', password: '********' });
    const newHost = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { ...path, body: { url: 'amqps://mq.example.com/orders' } });
    expect(newHost.response.status).toBe(422);
    expect(JSON.stringify(newHost.error)).toContain('/body/destination');
    const back = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { ...path, body: { url: 'http://127.0.0.1:9/hooks', destination: { type: 'http' } } });
    expect(back.response.status).toBe(200);
    expect(back.data).not.toHaveProperty('destination');
    await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', path);
  });
});
