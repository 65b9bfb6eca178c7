import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type WebhookServiceClient } from '../../../src/client';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, type TestApi } from '../../support/api';

const v1 = '/api/webhooks/v1';
const hook = 'http://127.0.0.1:9/hooks';
const owner = 'owner-data';

describe('security: reading or re-sending event data takes the scopes reading the resource takes', () => {
  let api: TestApi;
  let full: WebhookServiceClient;
  let subscriptionId: string;
  let orderEventId: string;
  let testEventId: string;

  beforeAll(async () => {
    api = await startTestApi();
    await seedDemoData(api.mongo.db, { stock: 1000 });
    ({ client: full } = await api.clientWith(['webhooks:read', 'webhooks:write', 'resources:read', 'orders:write'], owner));
    const sub = await full.POST(`${v1}/subscribe`, { body: { url: hook, events: ['order.created', 'webhook.test'] } });
    expect(sub.response.status).toBe(201);
    subscriptionId = sub.data!.id;
    const order = await full.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    const test = await full.POST(`${v1}/subscriptions/{subscription_id}/test`, { params: { path: { subscription_id: subscriptionId } } });
    expect(test.response.status).toBe(202);
    testEventId = test.data!.event_id;
    const listed = await full.GET(`${v1}/subscriptions/{subscription_id}/events`, { params: { path: { subscription_id: subscriptionId } } });
    const orderEvent = listed.data?.data.find((e) => e.type === 'order.created');
    expect(orderEvent?.data).toMatchObject({ order_id: order.data!.id });
    orderEventId = orderEvent!.id;
  });
  afterAll(async () => {
    await api.close();
  });

  const portalWith = async (scopes: Parameters<TestApi['clientWith']>[0]): Promise<WebhookServiceClient> => {
    const { client } = await api.clientWith(scopes, owner);
    const { data } = await client.POST(`${v1}/portal-sessions`, {});
    return createClient({ baseUrl: api.baseUrl, headers: { Authorization: `Bearer ${data!.token}` } });
  };

  it('lists order events without their data for a webhooks:read key or a portal session without resources:read', async () => {
    const readOnly = (await api.clientWith(['webhooks:read'], owner)).client;
    const session = await portalWith(['webhooks:read', 'webhooks:write']);
    for (const caller of [readOnly, session]) {
      const { data, response } = await caller.GET(`${v1}/subscriptions/{subscription_id}/events`, { params: { path: { subscription_id: subscriptionId } } });
      expect(response.status).toBe(200);
      const order = data!.data.find((e) => e.id === orderEventId);
      expect(order).toMatchObject({ type: 'order.created', data_withheld: ['resources:read'] });
      expect(order).not.toHaveProperty('data');
      expect(JSON.stringify(data)).not.toContain('"total"');
      // Test events need no scope beyond webhooks:read: shown in full.
      expect(data!.data.find((e) => e.id === testEventId)?.data).toMatchObject({ subscription_id: subscriptionId });
    }
  });

  it('shows the data to a caller holding resources:read', async () => {
    const session = await portalWith(['webhooks:read', 'webhooks:write', 'resources:read']);
    const { data } = await session.GET(`${v1}/subscriptions/{subscription_id}/events`, { params: { path: { subscription_id: subscriptionId } } });
    const order = data!.data.find((e) => e.id === orderEventId);
    expect(order?.data).toHaveProperty('total');
    expect(order).not.toHaveProperty('data_withheld');
  });

  it("withholds another owner's data on an admin key's all-owners subscription from the owner's lesser keys", async () => {
    const { client: admin } = await api.clientWith(['admin'], owner);
    const sub = await admin.POST(`${v1}/subscribe`, { body: { url: hook, events: ['order.created'] } });
    expect(sub.response.status).toBe(201);
    const { client: other } = await api.clientWith(['orders:write', 'resources:read'], 'owner-other');
    const order = await other.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    const path = { params: { path: { subscription_id: sub.data!.id } } };

    const lesser = (await api.clientWith(['webhooks:read', 'resources:read'], owner)).client;
    const seen = await lesser.GET(`${v1}/subscriptions/{subscription_id}/events`, path);
    expect(seen.response.status).toBe(200);
    const foreign = seen.data!.data.find((e) => e.type === 'order.created');
    expect(foreign).toMatchObject({ data_withheld: ['admin'] });
    expect(JSON.stringify(seen.data)).not.toContain('"total"');
    const byAdmin = await admin.GET(`${v1}/subscriptions/{subscription_id}/events`, path);
    expect(byAdmin.data!.data.find((e) => e.id === foreign!.id)?.data).toMatchObject({ order_id: order.data!.id });
  });

  it("shows a receiver's answer, which may echo the payload, only to who may read the subscription's events", async () => {
    await api.deps.deliveries.attempts.record({
      _id: 'att_echoed_payload',
      event_id: orderEventId,
      subscription_id: subscriptionId,
      series: 'echo-series',
      attempt: 1,
      started_at: new Date(),
      duration_ms: 3,
      outcome: 'delivered',
      status_code: 200,
      response_excerpt: '{"echo":{"total":12.99}}',
      url: hook,
      state: 'delivered',
    });
    const path = { params: { path: { subscription_id: subscriptionId } } };
    const readOnly = (await api.clientWith(['webhooks:read'], owner)).client;
    const hidden = await readOnly.GET(`${v1}/subscriptions/{subscription_id}/attempts`, path);
    expect(hidden.response.status).toBe(200);
    const attempt = hidden.data!.data.find((a) => a.id === 'att_echoed_payload');
    expect(attempt).toMatchObject({ status_code: 200, state: 'delivered' });
    expect(attempt).not.toHaveProperty('response_excerpt');
    const shown = await full.GET(`${v1}/subscriptions/{subscription_id}/attempts`, path);
    expect(shown.data!.data.find((a) => a.id === 'att_echoed_payload')?.response_excerpt).toBe('{"echo":{"total":12.99}}');
  });

  it('refuses to redeliver or recover order events without resources:read: 403 naming the scope, nothing noted', async () => {
    const writer = (await api.clientWith(['webhooks:read', 'webhooks:write'], owner)).client;
    const session = await portalWith(['webhooks:read', 'webhooks:write']);
    const notes = () => api.mongo.db.collection('dispatch_notes').countDocuments({ kind: 'redelivery' });
    const before = await notes();
    for (const caller of [writer, session]) {
      const redeliver = await caller.POST(`${v1}/events/{event_id}/redeliver`, { params: { path: { event_id: orderEventId } }, body: {} });
      expect(redeliver.response.status).toBe(403);
      expect(redeliver.response.headers.get('content-type')).toContain('application/problem+json');
      expect(redeliver.error?.detail).toContain('resources:read');
      const recover = await caller.POST(`${v1}/subscriptions/{subscription_id}/recover`, {
        params: { path: { subscription_id: subscriptionId } },
        body: { since: new Date(0).toISOString() },
      });
      expect(recover.response.status).toBe(403);
      expect(recover.error?.detail).toContain('resources:read');
    }
    expect(await notes()).toBe(before);
    // A test event carries no resource data, but the subscription receives order events: sending to it takes what creating it would.
    const test = await writer.POST(`${v1}/events/{event_id}/redeliver`, { params: { path: { event_id: testEventId } }, body: {} });
    expect(test.response.status).toBe(403);
    expect(test.error?.detail).toContain('resources:read');
    expect(await notes()).toBe(before);
    const allowed = await full.POST(`${v1}/events/{event_id}/redeliver`, { params: { path: { event_id: orderEventId } }, body: {} });
    expect(allowed.response.status).toBe(202);
  });
});
