import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import { verify } from '../../../src/receiver';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

type Attempt = components['schemas']['DeliveryAttempt'];
const alertSecret = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;

describe('subscription features over real deliveries', () => {
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
    await worker.stop();
    await api.close();
  });

  async function receiver(status: (n: number) => number = () => 200) {
    const r = await startReceiver((_req, res, n) => res.writeHead(status(n)).end());
    receivers.push(r);
    return r;
  }
  async function owner(ownerId = 'owner-features') {
    return (await api.clientWith(['webhooks:write', 'webhooks:read', 'orders:write'], ownerId)).client;
  }
  async function attemptsOf(client: Awaited<ReturnType<typeof owner>>, id: string): Promise<Attempt[]> {
    const res = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: id } } });
    return res.data?.data ?? [];
  }

  it('sends a test event to one subscription', async () => {
    const r = await receiver();
    const client = await owner();
    const sub = (await client.POST('/api/webhooks/v1/subscribe', { body: { url: r.url, events: ['webhook.test'] } })).data!;
    const res = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path: { subscription_id: sub.id } } });
    expect(res.response.status).toBe(202);
    await waitFor(() => r.received.length === 1, 20_000);
    expect(verify(r.received[0]!.body, r.received[0]!.headers, sub.secret)).toEqual({
      event: 'webhook.test',
      id: res.data!.event_id,
      data: { message: expect.any(String) as unknown, subscription_id: sub.id },
    });
  });

  it('delivers the v2 envelope to a v2 subscription', async () => {
    const r = await receiver();
    const client = await owner();
    const sub = (await client.POST('/api/webhooks/v2/subscribe', { body: { url: r.url, events: ['order.created'] } })).data!;
    await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 4, quantity: 1 }] } });
    await waitFor(() => r.received.length === 1, 20_000);
    const envelope = verify<Record<string, unknown>>(r.received[0]!.body, r.received[0]!.headers, sub.secret);
    expect(Object.keys(envelope)).toEqual(['event', 'id', 'api_version', 'created_at', 'data']);
    expect(envelope.api_version).toBe(2);
  });

  it('after a rotation, deliveries verify with the new and the previous secret', async () => {
    const r = await receiver();
    const client = await owner();
    const sub = (await client.POST('/api/webhooks/v1/subscribe', { body: { url: r.url, events: ['webhook.test'] } })).data!;
    const rotated = (
      await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/rotate-secret', { params: { path: { subscription_id: sub.id } } })
    ).data!;
    await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path: { subscription_id: sub.id } } });
    await waitFor(() => r.received.length === 1, 20_000);
    const got = r.received[0]!;
    expect(verify(got.body, got.headers, rotated.secret)).toBeTruthy();
    expect(verify(got.body, got.headers, sub.secret)).toBeTruthy();
    expect(got.headers['x-signature-previous']).toMatch(/^sha256=/);
  });

  it('does not deliver to a paused subscription; resuming delivers later events', async () => {
    const r = await receiver();
    const client = await owner();
    const sub = (await client.POST('/api/webhooks/v1/subscribe', { body: { url: r.url, events: ['order.created'] } })).data!;
    const path = { subscription_id: sub.id };
    await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path }, body: { status: 'paused' } });
    await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 5, quantity: 1 }] } });
    await new Promise((res) => setTimeout(res, 1500));
    expect(r.received).toHaveLength(0);
    await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path }, body: { status: 'active' } });
    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 5, quantity: 2 }] } });
    await waitFor(() => r.received.length === 1, 20_000);
    expect(JSON.parse(r.received[0]!.body)).toMatchObject({ data: { order_id: order.data!.id } });
  });

  it('exhausted attempts fail, alert once (stored and POSTed signed), and can be recovered', async () => {
    let healthy = false;
    const r = await receiver(() => (healthy ? 200 : 500));
    const client = await owner();
    const sub = (await client.POST('/api/webhooks/v1/subscribe', { body: { url: r.url, events: ['order.created'] } })).data!;
    const since = new Date(Date.now() - 1000).toISOString();
    await client.POST('/api/orders/', { body: { user_id: 3, items: [{ product_id: 6, quantity: 1 }] } });
    await waitFor(() => r.received.length === 5, 30_000);
    await waitFor(async () => (await attemptsOf(client, sub.id)).length === 5, 10_000);
    const eventId = (JSON.parse(r.received[0]!.body) as { id: string }).id;

    const admin = (await api.clientWith(['admin'], 'ops')).client;
    let alerts: components['schemas']['Alert'][] = [];
    await waitFor(async () => {
      alerts = ((await admin.GET('/api/webhooks/v1/alerts')).data?.data ?? []).filter((a) => a.subscription_id === sub.id);
      return alerts.length === 1;
    }, 10_000);
    expect(alerts[0]).toMatchObject({ kind: 'delivery_failed', event_id: eventId });
    await waitFor(() => alertReceiver.received.some((a) => a.body.includes(sub.id)), 10_000);
    const posted = alertReceiver.received.filter((a) => a.body.includes(sub.id));
    expect(posted).toHaveLength(1);
    expect(verify(posted[0]!.body, posted[0]!.headers, alertSecret)).toMatchObject({ type: 'alert', alert: { kind: 'delivery_failed' } });
    expect(r.received).toHaveLength(5);

    healthy = true;
    const recovered = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/recover', {
      params: { path: { subscription_id: sub.id } },
      body: { since },
    });
    expect(recovered.response.status).toBe(202);
    expect(recovered.data!.event_ids).toEqual([eventId]);
    await waitFor(() => r.received.length === 6, 20_000);
    expect((JSON.parse(r.received[5]!.body) as { id: string }).id).toBe(eventId);
  });

  it('redelivers an event as a new series with the same id; another owner gets 404', async () => {
    const r = await receiver();
    const client = await owner('owner-redeliver');
    const sub = (await client.POST('/api/webhooks/v1/subscribe', { body: { url: r.url, events: ['webhook.test'] } })).data!;
    const sent = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path: { subscription_id: sub.id } } });
    await waitFor(() => r.received.length === 1, 20_000);
    const other = await owner('someone-else');
    const denied = await other.POST('/api/webhooks/v1/events/{event_id}/redeliver', { params: { path: { event_id: sent.data!.event_id } } });
    expect(denied.response.status).toBe(404);
    const again = await client.POST('/api/webhooks/v1/events/{event_id}/redeliver', { params: { path: { event_id: sent.data!.event_id } } });
    expect(again.data).toEqual({ event_id: sent.data!.event_id, subscription_ids: [sub.id] });
    await waitFor(() => r.received.length === 2, 20_000);
    expect(r.received[1]!.headers['webhook-id']).toBe(sent.data!.event_id);
  });

  it('a 410 disables the subscription and raises a subscription_disabled alert', async () => {
    const r = await receiver(() => 410);
    const client = await owner();
    const sub = (await client.POST('/api/webhooks/v1/subscribe', { body: { url: r.url, events: ['webhook.test'] } })).data!;
    await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path: { subscription_id: sub.id } } });
    await waitFor(async () => {
      const s = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: sub.id } } });
      return s.data?.status === 'disabled';
    }, 20_000);
    const s = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: sub.id } } });
    expect(s.data!.disabled_reason).toContain('410');
    const admin = (await api.clientWith(['admin'], 'ops')).client;
    await waitFor(async () => ((await admin.GET('/api/webhooks/v1/alerts')).data?.data ?? []).some((a) => a.subscription_id === sub.id && a.kind === 'subscription_disabled'), 10_000);
    expect(r.received).toHaveLength(1);
  });
});
