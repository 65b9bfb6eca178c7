import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Client } from '@temporalio/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { seedDemoData } from '../../../src/seed/seed';
import { eventWorkflowId } from '../../../workflows/ids';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { eventOutcome, terminateLeftRunning } from '../../support/event-workflows';
import { type Received, startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

const v1 = '/api/webhooks/v1';
const alertSecret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
/** Long enough for a test to pause, emit and resume on a busy machine; short enough to wait out in the hold-limit test. */
const holdLimitMs = 30_000;

/**
 * Pause holds, resume drains: a paused subscription still gets its events, durably held with its
 * frozen retries; resuming delivers them all in emission order at its rate_limit, each attempt
 * logged; a hold past DELIVERY_HOLD_LIMIT fails with that reason and one alert.
 */
describe('pause holds a subscription’s deliveries and resume drains them', () => {
  let api: TestApi;
  let worker: TestWorker;
  let temporal: Client;
  let alertReceiver: TestReceiver;
  const receivers: TestReceiver[] = [];

  beforeAll(async () => {
    alertReceiver = await startReceiver((_req, res) => res.writeHead(200).end());
    api = await startTestApi({
      DELIVERY_RETRY_SCHEDULE: '300ms',
      DELIVERY_MAX_ATTEMPTS: '5',
      DELIVERY_JITTER: '0',
      DELIVERY_HOLD_LIMIT: `${holdLimitMs}ms`,
      // Slots half a second apart: a busy machine's late timer does not let the next slot overtake.
      DELIVERY_DRAIN_RATE: '2',
      ADMIN_ALERT_URL: alertReceiver.url,
      ADMIN_ALERT_SECRET: alertSecret,
    });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
    temporal = await api.temporal.client();
  });
  afterEach(async () => {
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
  async function owner() {
    return (await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write'], `owner-${randomUUID().slice(0, 8)}`)).client;
  }
  const path = (id: string) => ({ params: { path: { subscription_id: id } } });
  async function setStatus(client: WebhookServiceClient, id: string, status: 'active' | 'paused') {
    expect((await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { ...path(id), body: { status } })).response.status).toBe(200);
  }
  async function held(client: WebhookServiceClient, id: string) {
    return (await client.GET(`${v1}/subscriptions/{subscription_id}`, path(id))).data!.held;
  }
  /** Creates an order and returns the id of its order.created event. */
  async function order(client: WebhookServiceClient): Promise<string> {
    const res = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 3, quantity: 1 }] } });
    expect(res.response.status).toBe(201);
    return (await api.deps.resources.orders.outboxOf(res.data!.id)).find((e) => e.type === 'order.created')!.id;
  }
  const idOf = (r: Received) => (JSON.parse(r.body) as { id: string }).id;

  it('holds the events emitted while paused, shows them held, and delivers them in emission order at the drain rate on resume, each attempt logged', async () => {
    const r = await receiver();
    const client = await owner();
    const sub = (await client.POST(`${v1}/subscribe`, { body: { url: r.url, events: ['order.created'] } })).data!;
    await setStatus(client, sub.id, 'paused');
    const emitted: string[] = [];
    for (let i = 0; i < 6; i++) emitted.push(await order(client));

    // Each one fans out to the paused subscription and waits, marked held: nothing is sent.
    await waitFor(async () => (await held(client, sub.id))?.count === 6, 30_000);
    const shown = (await held(client, sub.id))!;
    expect(Date.parse(shown.since)).toBeLessThanOrEqual(Date.now());
    expect(r.received).toHaveLength(0);
    const list = (await client.GET(`${v1}/subscriptions`, {})).data!.data.find((s) => s.id === sub.id)!;
    expect(list.held).toBeUndefined();
    // The delivery timeline says why it waits.
    const timeline = (await client.GET(`${v1}/subscriptions/{subscription_id}/events/{event_id}/delivery`, { params: { path: { subscription_id: sub.id, event_id: emitted[0]! } } })).data!;
    expect(timeline.waits.map((w) => w.reason)).toContain('paused');

    await setStatus(client, sub.id, 'active');
    for (const id of emitted) expect(await eventOutcome(temporal, eventWorkflowId(id))).toMatchObject({ state: 'delivered', subscriptions: { [sub.id]: { state: 'delivered', attempts: 1 } } });
    expect(r.received.map(idOf)).toEqual(emitted);
    await waitFor(async () => (await held(client, sub.id)) === undefined, 10_000);
    const attempts = (await client.GET(`${v1}/subscriptions/{subscription_id}/attempts`, path(sub.id))).data!.data;
    expect(attempts.map((a) => [a.event_id, a.attempt, a.state]).sort()).toEqual(emitted.map((id) => [id, 1, 'delivered']).sort());
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
  });

  it('freezes a pending retry while paused and makes it on resume', async () => {
    const client = await owner();
    let pause: () => Promise<unknown> = () => Promise.reject(new Error('not subscribed yet'));
    // The first attempt pauses the subscription before it answers 503: the retry is held, not cancelled.
    const r = await receiver((n, _req, res) => (n > 1 ? res.writeHead(200).end() : void pause().finally(() => res.writeHead(503).end())));
    const sub = (await client.POST(`${v1}/subscribe`, { body: { url: r.url, events: ['webhook.test'] } })).data!;
    pause = () => setStatus(client, sub.id, 'paused');
    const sent = await client.POST(`${v1}/subscriptions/{subscription_id}/test`, path(sub.id));
    const eventId = sent.data!.event_id;
    await waitFor(async () => (await held(client, sub.id))?.count === 1, 30_000);
    expect(r.received).toHaveLength(1);

    await setStatus(client, sub.id, 'active');
    expect(await eventOutcome(temporal, eventWorkflowId(eventId))).toMatchObject({ state: 'delivered', subscriptions: { [sub.id]: { state: 'delivered', attempts: 2 } } });
    expect(r.received).toHaveLength(2);
    const attempts = (await client.GET(`${v1}/subscriptions/{subscription_id}/attempts`, path(sub.id))).data!.data;
    expect(attempts.map((a) => [a.attempt, a.status_code, a.state]).sort()).toEqual([
      [1, 503, 'retrying'],
      [2, 200, 'delivered'],
    ]);
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
  });

  it('fails what is still held at the hold limit, with that reason and one alert for the pause', async () => {
    const r = await receiver();
    const client = await owner();
    const sub = (await client.POST(`${v1}/subscribe`, { body: { url: r.url, events: ['order.created'] } })).data!;
    await setStatus(client, sub.id, 'paused');
    const emitted = [await order(client), await order(client)];
    await waitFor(async () => (await held(client, sub.id))?.count === 2, 30_000);

    for (const id of emitted) {
      const outcome = await eventOutcome(temporal, eventWorkflowId(id));
      expect(outcome).toMatchObject({ state: 'failed', subscriptions: { [sub.id]: { state: 'failed', attempts: 0 } } });
      expect(outcome.subscriptions[sub.id]!.failReason).toMatch(/hold limit/);
    }
    expect(r.received).toHaveLength(0);
    expect(await held(client, sub.id)).toBeUndefined();
    const admin = (await api.clientWith(['admin'], 'ops')).client;
    const alerts = ((await admin.GET(`${v1}/alerts`, { params: { query: { limit: 100 } } })).data?.data ?? []).filter((a) => a.subscription_id === sub.id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ kind: 'delivery_failed' });
    expect(alerts[0]!.message).toMatch(/hold limit/);
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
  }, 120_000);
});
