import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import type { OutboxFlusher } from '../../../src/events/outbox';
import { relayOnce } from '../../../src/events/relay';
import { adjustStock } from '../../../src/inventory/use-cases';
import { verify } from '../../../src/receiver';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { bodyErrors, webhookName } from '../../support/webhook-schemas';
import { waitFor } from '../../support/wait';

type Schemas = components['schemas'];
type StockEnvelopeV1 = Schemas['StockUpdatedEventV1'] | Schemas['StockLowEventV1'];
type StockEnvelopeV2 = Schemas['StockUpdatedEventV2'] | Schemas['StockLowEventV2'];

describe('stock events reach subscribers, signed', () => {
  let api: TestApi;
  let worker: TestWorker;
  const receivers: TestReceiver[] = [];
  beforeAll(async () => {
    api = await startTestApi({ DELIVERY_RETRY_SCHEDULE: '1s', DELIVERY_MAX_ATTEMPTS: '5', DELIVERY_JITTER: '0' });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await worker.stop();
    await api.close();
  });

  it('needs resources:read to subscribe to them, as order events do', async () => {
    const { client } = await api.clientWith(['webhooks:write']);
    const res = await client.POST('/api/webhooks/v1/subscribe', { body: { url: 'http://127.0.0.1:9/x', events: ['stock.updated', 'stock.low'] } });
    expect(res.response.status).toBe(403);
    expect(res.error?.errors?.map((e) => e.path)).toEqual(['/body/events/0', '/body/events/1']);
  });

  it('delivers stock.updated for an order and an adjustment, and stock.low when the level crosses, in v1 and v2 envelopes', async () => {
    const v1 = await startReceiver((_req, res) => res.writeHead(200).end('ok'));
    const v2 = await startReceiver((_req, res) => res.writeHead(204).end());
    receivers.push(v1, v2);
    const { client } = await api.clientWith(['webhooks:write', 'resources:read', 'orders:write'], 'stock-watcher');
    const events = ['stock.updated', 'stock.low'] as const;
    const sub1 = (await client.POST('/api/webhooks/v1/subscribe', { body: { url: v1.url, events: [...events] } })).data!;
    const sub2 = (await client.POST('/api/webhooks/v2/subscribe', { body: { url: v2.url, events: [...events] } })).data!;
    const { client: admin } = await api.clientWith(['admin'], 'ops');

    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 3, quantity: 2 }] } });
    expect(order.response.status).toBe(201);
    const adjusted = await admin.PATCH('/api/inventory/stock/{product_id}', { params: { path: { product_id: 9 } }, body: { quantity: 4 } });
    expect(adjusted.response.status).toBe(200);

    await waitFor(() => v1.received.length === 3 && v2.received.length === 3, 30_000);
    const got1 = v1.received.map((r) => verify<StockEnvelopeV1>(r.body, r.headers, sub1.secret));
    const got2 = v2.received.map((r) => verify<StockEnvelopeV2>(r.body, r.headers, sub2.secret));
    for (const e of got1) expect(bodyErrors(webhookName(1, e.event), e), e.event).toEqual([]);
    for (const e of got2) expect(bodyErrors(webhookName(2, e.event), e), e.event).toEqual([]);
    const byKind = (list: Array<StockEnvelopeV1 | StockEnvelopeV2>) =>
      list.map((e) => [e.event, e.data.product_id, e.data.quantity, 'reason' in e.data ? e.data.reason : e.data.low_stock_threshold]).sort((a, b) => String(a).localeCompare(String(b)));
    const expected = [
      ['stock.low', 9, 4, 5],
      ['stock.updated', 3, 38, 'order'],
      ['stock.updated', 9, 4, 'adjustment'],
    ];
    expect(byKind(got1)).toEqual(expected);
    expect(byKind(got2)).toEqual(expected);
    expect(got1.find((e) => e.data.product_id === 3)!.data).toMatchObject({ previous_quantity: 40 });
    // Same events, same ids, whatever the envelope version.
    expect(new Set(got1.map((e) => e.id))).toEqual(new Set(got2.map((e) => e.id)));
  });

  it('the relay delivers a stock move\'s events when the process died between writing the move and dispatching it', async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(200).end('ok'));
    receivers.push(receiver);
    const { client } = await api.clientWith(['webhooks:write', 'resources:read'], 'stock-relay');
    const sub = (await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['stock.updated'] } })).data!;
    // Announced and written, then the process died before the flush.
    const outbox: OutboxFlusher = {
      announce: (events, source) => api.dispatcher.announce(events, source),
      announcePlanned: (write) => api.dispatcher.announcePlanned(write),
      readdress: (write) => api.dispatcher.readdress(write),
      withdraw: (events) => api.dispatcher.withdraw(events),
      flush: () => Promise.reject(new Error('process died')),
    };
    const crashing = { ...api.deps.resources.inventory, outbox };
    expect((await adjustStock(crashing, 11, { delta: 5 })).quantity).toBe(65);
    expect(receiver.received).toEqual([]);

    expect(await relayOnce(api.relay, { graceMs: 0, abandonMs: 60_000, batch: 50 })).toMatchObject({ flushed: 1, failed: 0 });
    await waitFor(() => receiver.received.length === 1, 30_000);
    const got = verify<Schemas['StockUpdatedEventV1']>(receiver.received[0]!.body, receiver.received[0]!.headers, sub.secret);
    expect(got.data).toEqual({ product_id: 11, sku: 'GD-003', previous_quantity: 60, quantity: 65, reason: 'adjustment', url: `${api.baseUrl}/api/inventory/stock/11` });
  });
});
