import { randomBytes } from 'node:crypto';
import type { SubscriptionCreate } from '../../../src/contract/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../../src/receiver';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { startTestNats, type TestNats } from '../../support/nats';
import { waitFor } from '../../support/wait';

describe('a NATS JetStream destination through the API, the workflow and the worker', () => {
  let api: TestApi;
  let worker: TestWorker;
  let nats: TestNats;

  beforeAll(async () => {
    nats = await startTestNats();
    await nats.addStream('SHOP', ['shop.orders.>']);
    // Sealed at rest only with a key, as signing secrets are.
    api = await startTestApi({ SECRET_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}` });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await nats?.close();
  });

  const destination = () => ({ type: 'nats' as const, subject: 'shop.orders.created', username: nats.user, password: nats.password });

  it('creates it with its credentials sealed and masked, and an order arrives in the stream, verifiable', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write']);
    const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: nats.url, events: ['order.created'], destination: destination() } });
    expect(created.response.status).toBe(201);
    const { id, secret } = created.data!;
    expect(created.data!.destination).toEqual({ type: 'nats', subject: 'shop.orders.created', username: '********', password: '********' });
    const read = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } } });
    expect(read.data!.destination).toEqual({ type: 'nats', subject: 'shop.orders.created', username: '********', password: '********' });
    const stored = JSON.stringify(await api.mongo.db.collection('subscriptions').findOne({ _id: id as never }));
    expect(stored).not.toContain(nats.password);

    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    let got: Awaited<ReturnType<TestNats['read']>> = [];
    await waitFor(async () => ((got = await nats.read('SHOP')), got.length >= 1), 30_000);
    expect(got).toHaveLength(1);
    expect(verify(got[0]!.body, got[0]!.headers, secret)).toMatchObject({ event: 'order.created' });

    const attempts = () => client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: id } } });
    await waitFor(async () => ((await attempts()).data?.data.length ?? 0) > 0, 10_000);
    expect((await attempts()).data!.data).toMatchObject([{ outcome: 'delivered', state: 'delivered' }]);
    await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } } });
  });

  it('refuses what does not fit, naming the field, and writes nothing', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read']);
    const before = await api.mongo.db.collection('subscriptions').countDocuments();
    const port = new URL(nats.url).port;
    const cases: Array<[SubscriptionCreate, string]> = [
      [{ url: 'https://erp.example.com/hooks', events: ['order.created'], destination: destination() }, '/body/url'],
      [{ url: nats.url, events: ['order.created'] }, '/body/url'],
      [{ url: `${nats.url}/stream`, events: ['order.created'], destination: destination() }, '/body/url'],
      [{ url: nats.url, events: ['order.created'], destination: { type: 'nats', subject: 's', username: 'hooks' } }, '/body/destination/password'],
      [{ url: nats.url, events: ['order.created'], destination: { type: 'nats', subject: 's', token: 't', username: 'u', password: 'p' } }, '/body/destination/token'],
      [{ url: nats.url, events: ['order.created'], destination: { type: 'nats', subject: 'shop.*' } }, '/body/destination'],
      [{ url: `nats://hooks:pw@127.0.0.1:${port}`, events: ['order.created'], destination: destination() }, '/body/url'],
      [{ url: nats.url, events: ['order.created'], destination: destination(), auth: { type: 'bearer' as const, token: 't' } }, '/body/auth'],
    ];
    for (const [body, pointer] of cases) {
      const r = await client.POST('/api/webhooks/v1/subscribe', { body });
      expect([400, 422], JSON.stringify(body)).toContain(r.response.status);
      expect(JSON.stringify(r.error), JSON.stringify(body)).toContain(pointer);
    }
    expect(await api.mongo.db.collection('subscriptions').countDocuments()).toBe(before);
  });

  it('a new NATS url needs its destination again, so credentials never follow another address', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read']);
    const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: nats.url, events: ['order.created'], destination: { type: 'nats', subject: 'shop.orders.x', token: 'a-token' } } });
    expect(created.response.status).toBe(201);
    expect(created.data!.destination).toEqual({ type: 'nats', subject: 'shop.orders.x', token: '********' });
    const path = { params: { path: { subscription_id: created.data!.id } } };
    const moved = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { ...path, body: { url: 'tls://nats.example.com:4222' } });
    expect(moved.response.status).toBe(422);
    expect(JSON.stringify(moved.error)).toContain('/body/destination');
    await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', path);
  });
});
