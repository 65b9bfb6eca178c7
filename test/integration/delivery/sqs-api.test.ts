import { randomBytes } from 'node:crypto';
import type { SubscriptionCreate } from '../../../src/contract/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../../src/receiver';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { startTestSqs, type TestSqs } from '../../support/sqs';
import { waitFor } from '../../support/wait';

describe('an SQS destination through the API, the workflow and the worker', () => {
  let api: TestApi;
  let worker: TestWorker;
  let sqs: TestSqs;

  beforeAll(async () => {
    sqs = await startTestSqs(['shop-orders']);
    // Sealed at rest only with a key, as signing secrets are.
    api = await startTestApi({ SECRET_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}` });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
  }, 180_000);
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await sqs?.close();
  });

  const url = () => sqs.queueUrl('shop-orders');
  const destination = () => ({ type: 'sqs' as const, region: sqs.region, access_key_id: sqs.accessKeyId, secret_access_key: sqs.secretAccessKey });

  it('creates it with its credentials sealed and masked, and an order arrives on the queue, verifiable', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write']);
    const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: url(), events: ['order.created'], destination: destination() } });
    expect(created.response.status).toBe(201);
    const { id, secret } = created.data!;
    expect(created.data!.destination).toEqual({ type: 'sqs', region: sqs.region, access_key_id: '********', secret_access_key: '********' });
    const stored = JSON.stringify(await api.mongo.db.collection('subscriptions').findOne({ _id: id as never }));
    expect(stored).not.toContain(sqs.secretAccessKey);
    expect(stored).not.toContain(sqs.accessKeyId);

    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    const [got] = await sqs.read('shop-orders', 1);
    expect(verify(got!.body, got!.attributes, secret)).toMatchObject({ event: 'order.created' });

    const attempts = () => client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: id } } });
    await waitFor(async () => ((await attempts()).data?.data.length ?? 0) > 0, 10_000);
    expect((await attempts()).data!.data).toMatchObject([{ outcome: 'delivered', state: 'delivered' }]);
    await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } } });
  }, 60_000);

  it('refuses what does not fit, naming the field, and writes nothing', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read']);
    const before = await api.mongo.db.collection('subscriptions').countDocuments();
    const five = { 'X-A': '1', 'X-B': '2', 'X-C': '3', 'X-D': '4', 'X-E': '5' };
    // Sent as a client without the contract's types would: the schema refuses it.
    const noSecret = { type: 'sqs', region: sqs.region, access_key_id: sqs.accessKeyId } as unknown as SubscriptionCreate['destination'];
    const cases: Array<[SubscriptionCreate, string]> = [
      [{ url: 'https://erp.example.com/hooks', events: ['order.created'], destination: destination() }, '/body/url'],
      [{ url: `${url()}?Action=SendMessage`, events: ['order.created'], destination: destination() }, '/body/url'],
      [{ url: 'amqps://mq.example.com/orders', events: ['order.created'], destination: destination() }, '/body/url'],
      [{ url: 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders', events: ['order.created'], destination: { ...destination(), region: 'us-east-1' } }, '/body/destination/region'],
      [{ url: url(), events: ['order.created'], destination: destination(), headers: five }, '/body/headers'],
      [{ url: url(), events: ['order.created'], destination: destination(), headers: { 'X-Tenant!': 'acme' } }, '/body/headers/X-Tenant!'],
      [{ url: url(), events: ['order.created'], destination: noSecret }, '/body/destination'],
      [{ url: url(), events: ['order.created'], destination: destination(), auth: { type: 'bearer' as const, token: 't' } }, '/body/auth'],
    ];
    for (const [body, pointer] of cases) {
      const r = await client.POST('/api/webhooks/v1/subscribe', { body });
      expect([400, 422], JSON.stringify(body)).toContain(r.response.status);
      expect(JSON.stringify(r.error), JSON.stringify(body)).toContain(pointer);
    }
    expect(await api.mongo.db.collection('subscriptions').countDocuments()).toBe(before);
  });

  it('a PATCH keeps the attribute limit, and a new queue url needs the destination (and its keys) again', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read']);
    const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: url(), events: ['order.created'], destination: destination(), headers: { 'X-Tenant': 'acme' } } });
    expect(created.response.status).toBe(201);
    const path = { params: { path: { subscription_id: created.data!.id } } };
    const tooMany = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { ...path, body: { headers: { 'X-A': '1', 'X-B': '2', 'X-C': '3', 'X-D': '4', 'X-E': '5' } } });
    expect(tooMany.response.status).toBe(422);
    expect(JSON.stringify(tooMany.error)).toContain('/body/headers');
    const newQueue = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { ...path, body: { url: sqs.queueUrl('other-queue') } });
    expect(newQueue.response.status).toBe(422);
    expect(JSON.stringify(newQueue.error)).toContain('/body/destination');
    await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', path);
  });
});
