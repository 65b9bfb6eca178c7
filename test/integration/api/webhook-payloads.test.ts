import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventType, SubscriptionVersion } from '../../../src/contract/types';
import { type ReceivedEvent, verify } from '../../../src/receiver';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { type Received, startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';
import { alertWebhook, bodyErrors, disabledWebhook, headerErrors, webhookName } from '../../support/webhook-schemas';

const alertSecret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
const eventTypes: EventType[] = ['order.created', 'order.updated', 'webhook.test'];

/**
 * Every body the service POSTs, checked against the contract's `webhooks` section over the real
 * stack (API, Temporal worker, MongoDB, loopback receivers): v1 and v2 envelopes of each event
 * type, and the admin alerts. Each must match its entry's schema with no field the contract does
 * not describe, carry the declared headers, and verify with the receiver kit.
 */
describe('delivered webhook payloads match the contract', () => {
  let api: TestApi;
  let worker: TestWorker;
  let alertReceiver: TestReceiver;
  const receivers: TestReceiver[] = [];

  beforeAll(async () => {
    alertReceiver = await startReceiver((_req, res) => res.writeHead(200).end());
    api = await startTestApi({
      DELIVERY_RETRY_SCHEDULE: '300ms',
      DELIVERY_MAX_ATTEMPTS: '5',
      DELIVERY_JITTER: '0',
      ADMIN_ALERT_URL: alertReceiver.url,
      ADMIN_ALERT_SECRET: alertSecret,
    });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
  });
  afterAll(async () => {
    await Promise.all([...receivers, alertReceiver].map((r) => r.close()));
    await worker?.stop();
    await api?.close();
  });

  async function receiver(status: number): Promise<TestReceiver> {
    const r = await startReceiver((_req, res) => res.writeHead(status).end());
    receivers.push(r);
    return r;
  }

  /** Checks one received POST against webhook `name`: headers, signature, body (closed), and strictness. */
  function expectMatchesContract(name: string, got: Received, secret: string): void {
    expect(got.method).toBe('POST');
    expect(got.headers['content-type']).toMatch(/^application\/json/);
    expect(headerErrors(name, got.headers), `${name} headers`).toEqual([]);
    const body = verify<Record<string, unknown>>(got.body, got.headers, secret);
    expect(bodyErrors(name, body, 'closed'), `${name} body ${got.body}`).toEqual([]);
    // The contract closes envelopes, fixed per version: an unknown field must fail. Operational webhooks may grow.
    const extended = bodyErrors(name, { ...body, unknown_field: 1 }, 'open');
    if (name === alertWebhook || name === disabledWebhook) expect(extended, `${name} with an unknown field`).toEqual([]);
    else expect(extended, `${name} with an unknown field`).not.toEqual([]);
  }

  it('sends v1 and v2 envelopes of order.created, order.updated and webhook.test, and alerts, exactly as described', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write'], 'owner-payloads');
    const subscribe = async (version: SubscriptionVersion, url: string, events: EventType[]) => {
      const res = await client.POST(version === 1 ? '/api/webhooks/v1/subscribe' : '/api/webhooks/v2/subscribe', { body: { url, events } });
      expect(res.response.status).toBe(201);
      return res.data!;
    };

    const delivered = { 1: await receiver(200), 2: await receiver(200) } as const;
    const subs = {
      1: await subscribe(1, delivered[1].url, eventTypes),
      2: await subscribe(2, delivered[2].url, eventTypes),
    } as const;
    // Alerts: a receiver that answers 410 gets its subscription disabled; one that keeps failing exhausts its attempts.
    const gone = await subscribe(2, (await receiver(410)).url, ['order.created']);
    const failing = await subscribe(1, (await receiver(500)).url, ['order.created']);

    const created = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 4, quantity: 2 }] } });
    expect(created.response.status).toBe(201);
    const order = created.data!;
    const updated = await client.PATCH('/api/orders/{order_id}', { params: { path: { order_id: order.id } }, body: { status: 'paid' } });
    expect(updated.response.status).toBe(200);
    for (const sub of [subs[1], subs[2]]) {
      const test = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path: { subscription_id: sub.id } } });
      expect(test.response.status).toBe(202);
    }

    await waitFor(() => delivered[1].received.length >= 3 && delivered[2].received.length >= 3, 30_000);
    for (const version of [1, 2] as const) {
      const got = delivered[version].received;
      expect(got, `v${version} deliveries`).toHaveLength(3);
      const envelopes = got.map((r) => verify<ReceivedEvent>(r.body, r.headers, subs[version].secret));
      expect(envelopes.map((e) => e.event).sort()).toEqual([...eventTypes].sort());
      got.forEach((r, i) => expectMatchesContract(webhookName(version, envelopes[i]!.event), r, subs[version].secret));

      for (const envelope of envelopes) {
        expect('api_version' in envelope).toBe(version === 2);
        switch (envelope.event) {
          case 'order.created':
            expect(envelope.data).toEqual({ order_id: order.id, total: order.total, currency: order.currency, status: 'pending', user_id: 1, item_count: 1, items: order.items, url: `${api.baseUrl}/api/orders/${order.id}` });
            break;
          case 'order.updated':
            expect(envelope.data).toEqual({
              order_id: order.id,
              total: order.total,
              currency: order.currency,
              status: 'paid',
              previous_status: 'pending',
              user_id: 1,
              item_count: 1,
              items: order.items,
              url: `${api.baseUrl}/api/orders/${order.id}`,
            });
            break;
          case 'webhook.test':
            expect(envelope.data.subscription_id).toBe(subs[version].id);
            expect(envelope.data.url).toBe(`${api.baseUrl}/api/webhooks/v1/subscriptions/${subs[version].id}`);
            break;
        }
      }
    }

    // Two alerts, and the operational webhook of the 410's disable: each as its contract entry says.
    await waitFor(() => alertReceiver.received.length >= 3, 30_000);
    const isAlert = (r: Received) => (JSON.parse(r.body) as { type: string }).type === 'alert';
    const alertPosts = alertReceiver.received.filter(isAlert);
    const alerts = alertPosts.map((r) => {
      expectMatchesContract(alertWebhook, r, alertSecret);
      return (JSON.parse(r.body) as { alert: { id: string; kind: string; subscription_id: string } }).alert;
    });
    expect(alerts.map((a) => [a.kind, a.subscription_id]).sort()).toEqual(
      [
        ['delivery_failed', failing.id],
        ['subscription_disabled', gone.id],
      ].sort(),
    );
    alertPosts.forEach((r, i) => expect(r.headers['webhook-id']).toBe(alerts[i]!.id));
    const operational = alertReceiver.received.filter((r) => !isAlert(r));
    expect(operational).toHaveLength(1);
    expectMatchesContract(disabledWebhook, operational[0]!, alertSecret);
    expect(JSON.parse(operational[0]!.body)).toMatchObject({ type: 'subscription.disabled', data: { subscription_id: gone.id } });
  });
});
