import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../../src/receiver';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

const key = `k1:${randomBytes(32).toString('base64')}`;

describe('custom headers: sent with every delivery, sealed at rest, masked on read, forbidden names refused', () => {
  let api: TestApi;
  let worker: TestWorker;
  let receiver: TestReceiver;

  beforeAll(async () => {
    api = await startTestApi({ SECRET_ENCRYPTION_KEY: key });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
    receiver = await startReceiver((_req, res) => res.writeHead(200).end());
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await api?.close();
  });

  const raw = async (id: string) => JSON.stringify(await api.mongo.db.collection('subscriptions').findOne({ _id: id as never }));

  it('delivers the headers, keeps the values sealed and never returns them', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write']);
    const token = 'k_live_custom_header_value_42';
    const created = await client.POST('/api/webhooks/v1/subscribe', {
      body: { url: receiver.url, events: ['order.created'], headers: { 'X-Api-Key': token, 'X-Tenant': 'acme' } },
    });
    expect(created.response.status).toBe(201);
    const { id, secret } = created.data!;
    expect(created.data!.headers).toEqual({ 'X-Api-Key': '********', 'X-Tenant': '********' });
    const got = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } } });
    expect(got.data!.headers).toEqual({ 'X-Api-Key': '********', 'X-Tenant': '********' });
    expect(JSON.stringify(got.data)).not.toContain(token);

    const stored = await raw(id);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain('acme');
    expect(stored.match(/enc:v1:k1:/g)).toHaveLength(3);

    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    await waitFor(() => receiver.received.length === 1, 20_000);
    const delivery = receiver.received[0]!;
    expect(delivery.headers['x-api-key']).toBe(token);
    expect(delivery.headers['x-tenant']).toBe('acme');
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(verify(delivery.body, delivery.headers, secret)).toMatchObject({ event: 'order.created' });

    // PATCH replaces the whole set; `{}` removes it.
    const patched = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } }, body: { headers: { 'X-Other': 'v' } } });
    expect(patched.data!.headers).toEqual({ 'X-Other': '********' });
    expect(await raw(id)).not.toContain(token);
    const cleared = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } }, body: { headers: {} } });
    expect(cleared.response.status).toBe(200);
    expect(cleared.data!.headers).toBeUndefined();
    expect(await raw(id)).not.toContain('"headers"');
    await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } } });
  });

  it.each(['Content-Type', 'host', 'X-Signature-Previous', 'webhook-signature', 'Transfer-Encoding', 'Proxy-Authorization', 'connection', 'TE'])(
    'refuses %s with a 422 naming the field, and writes nothing',
    async (name) => {
      const { client, principal } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read'], `owner-${randomBytes(4).toString('hex')}`);
      const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['order.created'], headers: { 'X-Fine': '1', [name]: 'x' } } });
      expect(created.response.status, JSON.stringify(created.error)).toBe(422);
      expect(JSON.stringify(created.error)).toContain(`/body/headers/${name}`);
      expect(await api.mongo.db.collection('subscriptions').countDocuments({ owner_id: principal.ownerId })).toBe(0);

      const ok = await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['order.created'], headers: { 'X-Fine': 'kept' } } });
      const id = ok.data!.id;
      const before = await raw(id);
      const patched = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } }, body: { headers: { [name]: 'x' } } });
      expect(patched.response.status).toBe(422);
      expect(JSON.stringify(patched.error)).toContain(`/body/headers/${name}`);
      expect(await raw(id)).toBe(before);
    },
  );

  it('refuses more than 20 headers', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'resources:read']);
    const headers = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v']));
    const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['order.created'], headers } });
    expect(created.response.status).toBeGreaterThanOrEqual(400);
    expect(created.response.status).toBeLessThan(500);
    expect(JSON.stringify(created.error)).toContain('headers');
  });
});
