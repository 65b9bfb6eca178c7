import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import type { WebhookServiceClient } from '../../../src/client';
import { seedDemoData } from '../../../src/seed/seed';
import { verify } from '../../../src/receiver';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';
import { newOutboxEvent } from '../../../src/events/outbox';
import { eventWorkflowId } from '../../../workflows/ids';
import { eventOutcome, terminateLeftRunning } from '../../support/event-workflows';

type Envelope = components['schemas']['OrderCreatedEventV1'];

describe('delivery end to end: API → outbox → Temporal → worker → receiver', () => {
  let api: TestApi;
  let worker: TestWorker;
  const receivers: TestReceiver[] = [];
  // Order events go to every owner's subscriptions: each test deletes its own when it ends.
  const subscriptions: Array<{ client: WebhookServiceClient; id: string }> = [];

  beforeAll(async () => {
    // Seconds-scale schedule: up to 5 attempts, 1 s apart.
    api = await startTestApi({ DELIVERY_RETRY_SCHEDULE: '1s', DELIVERY_MAX_ATTEMPTS: '5', DELIVERY_JITTER: '0' });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
  });
  afterEach(async () => {
    for (const { client, id } of subscriptions.splice(0)) {
      await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } } });
    }
    // Every workflow a test started has ended: nothing is left running on the shared server.
    expect(await terminateLeftRunning(await api.temporal.client(), api.config.temporal.taskQueue)).toEqual([]);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await worker.stop();
    await api.close();
  });

  async function subscribe(receiver: TestReceiver, events: Array<'order.created' | 'order.updated'> = ['order.created']) {
    const { client } = await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write'], `owner-${randomUUID().slice(0, 8)}`);
    const sub = await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events } });
    expect(sub.response.status).toBe(201);
    subscriptions.push({ client, id: sub.data!.id });
    return { client, sub: sub.data! };
  }
  /** The id of an order's order.created event. */
  async function createdEvent(orderId: number): Promise<string> {
    return (await api.deps.resources.orders.outboxOf(orderId)).find((e) => e.type === 'order.created')!.id;
  }

  it('delivers a signed order.created envelope that verifies, exactly as the contract describes', async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(200).end('ok'));
    receivers.push(receiver);
    const { client, sub } = await subscribe(receiver);
    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 2 }] } });
    expect(order.response.status).toBe(201);

    await waitFor(() => receiver.received.length === 1, 20_000);
    const got = receiver.received[0]!;
    const envelope = verify<Envelope>(got.body, got.headers, sub.secret);
    expect(Object.keys(envelope)).toEqual(['event', 'id', 'data']);
    expect(envelope.event).toBe('order.created');
    expect(envelope.id).toMatch(/^evt_[A-Za-z0-9]{22}$/);
    expect(envelope.data).toMatchObject({ order_id: order.data!.id, total: order.data!.total });
    expect(got.headers['x-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(got.headers['webhook-id']).toBe(envelope.id);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toMatch(/^WebhookService\//);

    // The event's workflow ends once the attempt is logged.
    const outcome = await eventOutcome(await api.temporal.client(), eventWorkflowId(envelope.id));
    expect(outcome).toMatchObject({ eventId: envelope.id, state: 'delivered', subscriptions: { [sub.id]: { state: 'delivered', attempts: 1, lastStatusCode: 200 } } });
    expect(receiver.received).toHaveLength(1);
    const attempts = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: sub.id } } });
    expect(attempts.data?.data.map((a) => [a.event_id, a.attempt, a.outcome, a.status_code, a.state])).toEqual([[envelope.id, 1, 'delivered', 200, 'delivered']]);
  });

  it('a receiver failing twice then succeeding sees 3 attempts, all logged', async () => {
    const receiver = await startReceiver((_req, res, n) => res.writeHead(n <= 2 ? 503 : 200).end(`try ${n}`));
    receivers.push(receiver);
    const { client, sub } = await subscribe(receiver);
    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 2, quantity: 1 }] } });
    const eventId = await createdEvent(order.data!.id);
    const outcome = await eventOutcome(await api.temporal.client(), eventWorkflowId(eventId));
    expect(outcome).toMatchObject({ state: 'delivered', subscriptions: { [sub.id]: { state: 'delivered', attempts: 3, lastStatusCode: 200 } } });
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([eventId]));
    const res = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: sub.id } } });
    const attempts = res.data?.data ?? [];
    expect(attempts.map((a) => [a.attempt, a.outcome, a.status_code, a.state])).toEqual([
      [3, 'delivered', 200, 'delivered'],
      [2, 'http_error', 503, 'retrying'],
      [1, 'http_error', 503, 'retrying'],
    ]);
    expect(attempts[1]!.next_attempt_at).toBeDefined();
    expect(attempts[0]!.next_attempt_at).toBeUndefined();
    // Waits follow the schedule (1 s, no jitter here).
    expect(receiver.received[1]!.at - receiver.received[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('a receiver answering 400 sees exactly one attempt', async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(400).end('bad'));
    receivers.push(receiver);
    const { client, sub } = await subscribe(receiver);
    const order = await client.POST('/api/orders/', { body: { user_id: 2, items: [{ product_id: 3, quantity: 1 }] } });
    // The event's workflow ends (Failed: a 4xx stops the delivery) with the one attempt made.
    const eventId = await createdEvent(order.data!.id);
    const outcome = await eventOutcome(await api.temporal.client(), eventWorkflowId(eventId));
    expect(outcome.state).toBe('failed');
    expect(Object.keys(outcome.subscriptions)).toEqual([sub.id]);
    expect(outcome.subscriptions[sub.id]).toMatchObject({ state: 'stopped', attempts: 1, lastOutcome: 'http_error', lastStatusCode: 400 });
    expect(receiver.received).toHaveLength(1);
    const attempts = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: sub.id } } });
    expect(attempts.data?.data.map((a) => [a.attempt, a.state])).toEqual([[1, 'stopped']]);
  });

  it('an event nobody subscribes to is not logged, starts no workflow and leaves no note', async () => {
    const event = await api.dispatcher.emit(newOutboxEvent('order.updated', { order_id: 2, total: 3, status: 'paid', previous_status: 'pending', user_id: 1, currency: 'EUR' }), {
      ownerId: 'owner-a',
      subscriptionIds: [],
    });
    expect(await api.events.find(event._id)).toBeUndefined();
    // Its note goes with the next batched removal.
    await waitFor(async () => (await api.notes.count(event._id)) === 0, 5000);
    const client = await api.temporal.client();
    await expect(client.workflow.getHandle(eventWorkflowId(event._id)).describe()).rejects.toThrow(/not found/i);
  });

  it('concurrent duplicate dispatches of one event, and one after it finished, start one workflow and deliver once', async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(204).end());
    receivers.push(receiver);
    const { sub } = await subscribe(receiver, ['order.updated']);
    const event = await api.dispatcher.emit(newOutboxEvent('order.updated', { order_id: 1, total: 1, status: 'paid', previous_status: 'pending', user_id: 1, currency: 'EUR' }), {
      ownerId: 'owner-a',
      subscriptionIds: [sub.id],
    });
    await Promise.all(Array.from({ length: 10 }, () => api.dispatcher.dispatch(event)));
    // The one workflow ends having delivered once.
    const client = await api.temporal.client();
    const outcome = await eventOutcome(client, eventWorkflowId(event._id));
    expect(outcome).toMatchObject({ eventId: event._id, state: 'delivered', subscriptions: { [sub.id]: { state: 'delivered', attempts: 1, lastStatusCode: 204 } } });
    expect(receiver.received).toHaveLength(1);
    // A re-dispatch after everything has finished (the relay retrying a lost acknowledgement) starts nothing either.
    await api.dispatcher.dispatch(event);
    const connection = await Connection.connect({ address: api.config.temporal.connectAddress });
    const runs: string[] = [];
    for await (const wf of new Client({ connection }).workflow.list({ query: `WorkflowId = 'event/${event._id}'` })) runs.push(wf.runId);
    await connection.close();
    expect(runs).toHaveLength(1);
  });
});
