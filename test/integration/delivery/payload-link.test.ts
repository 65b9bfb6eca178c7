import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import type { SubscriptionVersion } from '../../../src/contract/types';
import { verify } from '../../../src/receiver';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';
import { bodyErrors, webhookName } from '../../support/webhook-schemas';

type Schemas = components['schemas'];
type OrderEnvelope = Schemas['OrderCreatedEventV1'] | Schemas['OrderCreatedEventV2'];
type StockEnvelope = Schemas['StockUpdatedEventV1'] | Schemas['StockUpdatedEventV2'];

const inlineLimit = 1024;

/**
 * Large data as a link, over the real stack (API, Temporal worker, database, loopback receivers):
 * every delivery links to its resource, an order too large for WEBHOOK_INLINE_LIMIT arrives
 * without its items but signed and marked, and the link reads the full order with the
 * subscriber's own key.
 */
describe('deliveries link to their resource and stay within WEBHOOK_INLINE_LIMIT', () => {
  let api: TestApi;
  let worker: TestWorker;
  const receivers: TestReceiver[] = [];
  beforeAll(async () => {
    api = await startTestApi({ WEBHOOK_INLINE_LIMIT: String(inlineLimit), DELIVERY_RETRY_SCHEDULE: '1s', DELIVERY_MAX_ATTEMPTS: '5', DELIVERY_JITTER: '0' });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await worker?.stop();
    await api?.close();
  });

  async function receiver(): Promise<TestReceiver> {
    const r = await startReceiver((_req, res) => res.writeHead(200).end());
    receivers.push(r);
    return r;
  }

  /** GET on a link a delivery carried, with a bearer key, as a receiver would. */
  async function follow(url: string, key: string): Promise<{ status: number; body: unknown }> {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
    return { status: res.status, body: await res.json() };
  }

  it('sends a large order as its summary and link, signed as sent; the link gives the full order to the owner only', async () => {
    const { client, key } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write'], 'big-buyer');
    const { key: strangerKey } = await api.clientWith(['resources:read'], 'someone-else');
    const rx = { 1: await receiver(), 2: await receiver() } as const;
    const subs = {
      1: (await client.POST('/api/webhooks/v1/subscribe', { body: { url: rx[1].url, events: ['order.created', 'stock.updated'] } })).data!,
      2: (await client.POST('/api/webhooks/v2/subscribe', { body: { url: rx[2].url, events: ['order.created', 'stock.updated'] } })).data!,
    } as const;

    const small = (await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 3, quantity: 2 }] } })).data!;
    // 30 lines of about 50 bytes each: well over the 1024-byte limit.
    const lines = Array.from({ length: 30 }, () => ({ product_id: 11, quantity: 1 }));
    const big = (await client.POST('/api/orders/', { body: { user_id: 2, items: lines } })).data!;
    expect(big.items).toHaveLength(30);

    // Per receiver: two order.created, and a stock.updated per order.
    await waitFor(() => rx[1].received.length >= 4 && rx[2].received.length >= 4, 30_000);
    for (const version of [1, 2] as SubscriptionVersion[]) {
      const got = rx[version].received.map((r) => ({ raw: r.body, body: verify<OrderEnvelope | StockEnvelope>(r.body, r.headers, subs[version].secret) }));
      expect(got).toHaveLength(4);
      for (const { body } of got) expect(bodyErrors(webhookName(version, body.event), body), `v${version} ${body.event}`).toEqual([]);
      const orders = got.filter((g) => g.body.event === 'order.created') as Array<{ raw: string; body: OrderEnvelope }>;
      const ofOrder = (id: number) => orders.find((o) => o.body.data.order_id === id)!;

      // The small order comes whole, with its link.
      const inline = ofOrder(small.id);
      expect(inline.body.data).toEqual({ order_id: small.id, total: small.total, currency: 'EUR', status: 'pending', user_id: 1, item_count: 1, items: small.items, url: `${api.baseUrl}/api/orders/${small.id}` });
      expect(Buffer.byteLength(inline.raw)).toBeLessThanOrEqual(inlineLimit);

      // The large one: its summary, the link and the marker, within the limit; the signature verified over this very body above.
      const linked = ofOrder(big.id);
      expect(Buffer.byteLength(linked.raw)).toBeLessThanOrEqual(inlineLimit);
      expect(linked.body.data).toEqual({ order_id: big.id, total: big.total, currency: 'EUR', status: 'pending', user_id: 2, item_count: 30, url: `${api.baseUrl}/api/orders/${big.id}`, truncated: true });
      expect('api_version' in linked.body).toBe(version === 2);

      // The link, with the subscriber's own key, gives the whole order, items and all.
      const full = await follow(linked.body.data.url, key);
      expect(full).toEqual({ status: 200, body: big });
      // Another owner's key learns nothing from it.
      expect((await follow(linked.body.data.url, strangerKey)).status).toBe(404);

      // Stock events link to the product's stock level, readable with the same key.
      const stock = got.filter((g) => g.body.event === 'stock.updated').map((g) => g.body as StockEnvelope);
      expect(stock.map((s) => s.data.url).sort()).toEqual([`${api.baseUrl}/api/inventory/stock/11`, `${api.baseUrl}/api/inventory/stock/3`]);
      const level = await follow(stock.find((s) => s.data.product_id === 11)!.data.url, key);
      expect(level).toMatchObject({ status: 200, body: { product_id: 11, sku: 'GD-003' } });
    }
  });

  it("an admin key's subscription gets every owner's orders, and the admin key reads their links", async () => {
    const { client: admin, key: adminKey } = await api.clientWith(['admin'], 'ops');
    const rx = await receiver();
    const sub = (await admin.POST('/api/webhooks/v1/subscribe', { body: { url: rx.url, events: ['order.created', 'webhook.test'] } })).data!;
    const { client: buyer } = await api.clientWith(['orders:write'], 'another-buyer');
    const lines = Array.from({ length: 40 }, () => ({ product_id: 8, quantity: 1 }));
    const order = (await buyer.POST('/api/orders/', { body: { user_id: 3, items: lines } })).data!;
    expect((await admin.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path: { subscription_id: sub.id } } })).response.status).toBe(202);

    await waitFor(() => rx.received.length >= 2, 30_000);
    const got = rx.received.map((r) => verify<Schemas['OrderCreatedEventV1'] | Schemas['WebhookTestEventV1']>(r.body, r.headers, sub.secret));
    const created = got.find((g) => g.event === 'order.created') as Schemas['OrderCreatedEventV1'];
    expect(created.data).toMatchObject({ order_id: order.id, item_count: 40, truncated: true });
    expect(await follow(created.data.url, adminKey)).toEqual({ status: 200, body: order });
    // A test event links to the subscription it was sent to.
    const test = got.find((g) => g.event === 'webhook.test') as Schemas['WebhookTestEventV1'];
    expect(test.data.url).toBe(`${api.baseUrl}/api/webhooks/v1/subscriptions/${sub.id}`);
    expect(await follow(test.data.url, adminKey)).toMatchObject({ status: 200, body: { id: sub.id, url: rx.url } });
  });

  it("lists a subscription's events with the same link, and always in full", async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write'], 'history-reader');
    const rx = await receiver();
    const sub = (await client.POST('/api/webhooks/v1/subscribe', { body: { url: rx.url, events: ['order.created'] } })).data!;
    const order = (await client.POST('/api/orders/', { body: { user_id: 4, items: Array.from({ length: 30 }, () => ({ product_id: 8, quantity: 1 })) } })).data!;
    await waitFor(() => rx.received.length >= 1, 30_000);
    const listed = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/events', { params: { path: { subscription_id: sub.id } } });
    expect(listed.data!.data[0]!.data).toEqual({ order_id: order.id, total: order.total, currency: 'EUR', status: 'pending', user_id: 4, item_count: 30, items: order.items, url: `${api.baseUrl}/api/orders/${order.id}` });
  });
});
