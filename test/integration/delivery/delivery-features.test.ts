import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Client } from '@temporalio/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import type { WebhookServiceClient } from '../../../src/client';
import type { AttemptDoc } from '../../../src/deliveries/attempts';
import { verify } from '../../../src/receiver';
import { seedDemoData } from '../../../src/seed/seed';
import { eventWorkflowId } from '../../../workflows/ids';
import { deliveryStateKey, failedKey } from '../../../workflows/search-attributes';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { eventOutcome, redeliveryRuns, terminateLeftRunning } from '../../support/event-workflows';
import { type Received, startReceiver, type TestReceiver } from '../../support/receiver';

type Attempt = components['schemas']['DeliveryAttempt'];
type EventType = components['schemas']['EventType'];
const alertSecret = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;

describe('subscription features over real deliveries', () => {
  let api: TestApi;
  let worker: TestWorker;
  let temporal: Client;
  let alertReceiver: TestReceiver;
  const receivers: TestReceiver[] = [];
  // Order events go to every owner's subscriptions: each test deletes its own when it ends, so
  // no later test's events reach them.
  const subscriptions: Array<{ client: WebhookServiceClient; id: string }> = [];

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
    temporal = await api.temporal.client();
  });
  afterEach(async () => {
    for (const { client, id } of subscriptions.splice(0)) {
      await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } } });
    }
    // Every workflow a test started has ended: nothing is left running on the shared server.
    expect(await terminateLeftRunning(temporal, api.config.temporal.taskQueue)).toEqual([]);
  });
  afterAll(async () => {
    await Promise.all([...receivers, alertReceiver].map((r) => r.close()));
    await worker.stop();
    await api.close();
  });

  async function receiver(respond: (n: number, req: Received, res: ServerResponse) => unknown = (_n, _req, res) => res.writeHead(200).end()) {
    const r = await startReceiver((req, res, n) => respond(n, req, res));
    receivers.push(r);
    return r;
  }
  const answering = (status: (n: number) => number) => receiver((n, _req, res) => res.writeHead(status(n)).end());
  /** A client of an owner of the test's own. */
  async function owner(ownerId = `owner-${randomUUID().slice(0, 8)}`) {
    return (await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write'], ownerId)).client;
  }
  async function subscribe(client: WebhookServiceClient, url: string, events: EventType[], version: 'v1' | 'v2' = 'v1') {
    const res = await client.POST(`/api/webhooks/${version}/subscribe`, { body: { url, events } });
    expect(res.response.status).toBe(201);
    subscriptions.push({ client, id: res.data!.id });
    return res.data!;
  }
  async function attemptsOf(client: WebhookServiceClient, id: string): Promise<Attempt[]> {
    const res = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: id } } });
    return res.data?.data ?? [];
  }
  async function sendTest(client: WebhookServiceClient, subscriptionId: string): Promise<string> {
    const res = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path: { subscription_id: subscriptionId } } });
    expect(res.response.status).toBe(202);
    return res.data!.event_id;
  }
  /** Creates an order and returns the id of its order.created event. */
  async function order(client: WebhookServiceClient, productId: number, quantity = 1): Promise<{ orderId: number; eventId: string }> {
    const res = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: productId, quantity }] } });
    expect(res.response.status).toBe(201);
    const outbox = await api.deps.resources.orders.outboxOf(res.data!.id);
    return { orderId: res.data!.id, eventId: outbox.find((e) => e.type === 'order.created')!.id };
  }
  async function alertsOf(subscriptionId: string) {
    const admin = (await api.clientWith(['admin'], 'ops')).client;
    return ((await admin.GET('/api/webhooks/v1/alerts', { params: { query: { limit: 100 } } })).data?.data ?? []).filter((a) => a.subscription_id === subscriptionId);
  }

  it('sends a test event to one subscription', async () => {
    const r = await receiver();
    const client = await owner();
    const sub = await subscribe(client, r.url, ['webhook.test']);
    const eventId = await sendTest(client, sub.id);
    expect(await eventOutcome(temporal, eventWorkflowId(eventId))).toMatchObject({
      state: 'delivered',
      subscriptions: { [sub.id]: { state: 'delivered', attempts: 1, lastStatusCode: 200 } },
    });
    expect(r.received).toHaveLength(1);
    expect(verify(r.received[0]!.body, r.received[0]!.headers, sub.secret)).toEqual({
      event: 'webhook.test',
      id: eventId,
      data: { message: expect.any(String) as unknown, subscription_id: sub.id, url: `${api.baseUrl}/api/webhooks/v1/subscriptions/${sub.id}` },
    });
  });

  it('delivers the v2 envelope to a v2 subscription', async () => {
    const r = await receiver();
    const client = await owner();
    const sub = await subscribe(client, r.url, ['order.created'], 'v2');
    const { eventId } = await order(client, 4);
    expect(await eventOutcome(temporal, eventWorkflowId(eventId))).toMatchObject({ state: 'delivered', subscriptions: { [sub.id]: { state: 'delivered' } } });
    expect(r.received).toHaveLength(1);
    const envelope = verify<Record<string, unknown>>(r.received[0]!.body, r.received[0]!.headers, sub.secret);
    expect(Object.keys(envelope)).toEqual(['event', 'id', 'api_version', 'created_at', 'data']);
    expect(envelope).toMatchObject({ id: eventId, api_version: 2 });
  });

  it('after a rotation, deliveries verify with the new and the previous secret', async () => {
    const r = await receiver();
    const client = await owner();
    const sub = await subscribe(client, r.url, ['webhook.test']);
    const rotated = (
      await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/rotate-secret', { params: { path: { subscription_id: sub.id } } })
    ).data!;
    const eventId = await sendTest(client, sub.id);
    expect((await eventOutcome(temporal, eventWorkflowId(eventId))).state).toBe('delivered');
    expect(r.received).toHaveLength(1);
    const got = r.received[0]!;
    expect(verify(got.body, got.headers, rotated.secret)).toBeTruthy();
    expect(verify(got.body, got.headers, sub.secret)).toBeTruthy();
    expect(got.headers['x-signature-previous']).toMatch(/^sha256=/);
  });

  it('exhausted attempts fail, alert once (stored and POSTed signed), and can be recovered', async () => {
    let healthy = false;
    const r = await answering(() => (healthy ? 200 : 500));
    const client = await owner();
    const sub = await subscribe(client, r.url, ['order.created']);
    const since = new Date(Date.now() - 1000).toISOString();
    const { eventId } = await order(client, 6);

    // The workflow ends Failed once the attempts ran out and the administrator was alerted.
    const outcome = await eventOutcome(temporal, eventWorkflowId(eventId));
    expect(outcome).toMatchObject({
      eventId,
      state: 'failed',
      subscriptions: { [sub.id]: { state: 'failed', attempts: 5, lastOutcome: 'http_error', lastStatusCode: 500 } },
    });
    const described = await temporal.workflow.getHandle(eventWorkflowId(eventId)).describe();
    expect(described.status.name).toBe('FAILED');
    expect(described.typedSearchAttributes.get(deliveryStateKey)).toBe('failed');
    expect(described.typedSearchAttributes.get(failedKey)).toEqual([sub.id]);
    expect(r.received).toHaveLength(5);
    expect(new Set(r.received.map((got) => got.headers['webhook-id']))).toEqual(new Set([eventId]));
    expect((await attemptsOf(client, sub.id)).map((a) => [a.attempt, a.state])).toEqual([
      [5, 'failed'],
      [4, 'retrying'],
      [3, 'retrying'],
      [2, 'retrying'],
      [1, 'retrying'],
    ]);
    const alerts = await alertsOf(sub.id);
    expect(alerts).toEqual([expect.objectContaining({ kind: 'delivery_failed', event_id: eventId })]);
    const posted = alertReceiver.received.filter((a) => a.body.includes(sub.id));
    expect(posted).toHaveLength(1);
    expect(verify(posted[0]!.body, posted[0]!.headers, alertSecret)).toMatchObject({ type: 'alert', alert: { id: alerts[0]!.id, kind: 'delivery_failed' } });

    healthy = true;
    const recovered = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/recover', {
      params: { path: { subscription_id: sub.id } },
      body: { since },
    });
    expect(recovered.response.status).toBe(202);
    expect(recovered.data!.event_ids).toEqual([eventId]);
    const [run, ...more] = await redeliveryRuns(temporal, eventId);
    expect(more).toEqual([]);
    expect(await eventOutcome(temporal, run!)).toMatchObject({
      eventId,
      state: 'delivered',
      subscriptions: { [sub.id]: { state: 'delivered', attempts: 1, lastOutcome: 'delivered', lastStatusCode: 200 } },
    });
    expect(r.received).toHaveLength(6);
    expect(r.received[5]!.headers['webhook-id']).toBe(eventId);
    // A new attempt series: it starts again at attempt 1.
    expect((await attemptsOf(client, sub.id))[0]).toMatchObject({ event_id: eventId, attempt: 1, state: 'delivered' });
    // Delivered since: a second recovery finds nothing left to redeliver, and raised no further alert.
    const again = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/recover', { params: { path: { subscription_id: sub.id } }, body: { since } });
    expect(again.data).toEqual({ event_ids: [] });
    expect(await alertsOf(sub.id)).toHaveLength(1);
  });

  it('redelivers an event as a new series with the same id; another owner gets 404', async () => {
    const r = await receiver();
    const client = await owner();
    const sub = await subscribe(client, r.url, ['webhook.test']);
    const eventId = await sendTest(client, sub.id);
    expect((await eventOutcome(temporal, eventWorkflowId(eventId))).state).toBe('delivered');
    const other = await owner();
    const denied = await other.POST('/api/webhooks/v1/events/{event_id}/redeliver', { params: { path: { event_id: eventId } } });
    expect(denied.response.status).toBe(404);
    const again = await client.POST('/api/webhooks/v1/events/{event_id}/redeliver', { params: { path: { event_id: eventId } } });
    expect(again.response.status).toBe(202);
    expect(again.data).toEqual({ event_id: eventId, subscription_ids: [sub.id] });
    const [run, ...more] = await redeliveryRuns(temporal, eventId);
    expect(more).toEqual([]);
    expect(await eventOutcome(temporal, run!)).toMatchObject({ eventId, state: 'delivered', subscriptions: { [sub.id]: { state: 'delivered', attempts: 1 } } });
    expect(r.received).toHaveLength(2);
    expect(r.received[1]!.headers['webhook-id']).toBe(eventId);
    // Two series, each attempt 1, both delivered.
    expect((await attemptsOf(client, sub.id)).map((a) => [a.event_id, a.attempt, a.state])).toEqual([
      [eventId, 1, 'delivered'],
      [eventId, 1, 'delivered'],
    ]);
    const series = await api.mongo.db.collection<AttemptDoc>('attempts').distinct('series', { subscription_id: sub.id });
    expect(series.sort()).toEqual([`${eventWorkflowId(eventId)}#${sub.id}`, `${run!}#${sub.id}`].sort());
  });

  it('a 410 disables the subscription and raises a subscription_disabled alert', async () => {
    const r = await answering(() => 410);
    const client = await owner();
    const sub = await subscribe(client, r.url, ['webhook.test']);
    const eventId = await sendTest(client, sub.id);
    // The delivery stops at the 410; the workflow ends once the subscription is disabled and the alert raised.
    expect(await eventOutcome(temporal, eventWorkflowId(eventId))).toMatchObject({
      state: 'failed',
      subscriptions: { [sub.id]: { state: 'stopped', attempts: 1, lastStatusCode: 410 } },
    });
    const s = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: sub.id } } });
    expect(s.data).toMatchObject({ status: 'disabled', disabled_reason: expect.stringContaining('410') as unknown });
    expect(await alertsOf(sub.id)).toEqual([expect.objectContaining({ kind: 'subscription_disabled', event_id: eventId })]);
    expect(r.received).toHaveLength(1);
    // A disabled subscription gets no test events.
    const refused = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path: { subscription_id: sub.id } } });
    expect(refused.response.status).toBe(409);
  });
});
