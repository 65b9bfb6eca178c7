import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { seedDemoData } from '../../../src/seed/seed';
import { eventWorkflowId } from '../../../workflows/ids';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { eventOutcome, terminateLeftRunning } from '../../support/event-workflows';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

const v1 = '/api/webhooks/v1';

describe('subscription filters and version moves over real deliveries', () => {
  let api: TestApi;
  let worker: TestWorker;
  let temporal: Client;
  let receiver: TestReceiver;
  let client: WebhookServiceClient;
  const created: string[] = [];

  beforeAll(async () => {
    receiver = await startReceiver((_req, res) => res.writeHead(200).end());
    api = await startTestApi({ DELIVERY_RETRY_SCHEDULE: '300ms', DELIVERY_JITTER: '0' });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
    temporal = await api.temporal.client();
    client = (await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write'], `owner-${randomUUID().slice(0, 8)}`)).client;
  });
  afterEach(async () => {
    for (const id of created.splice(0)) await client.DELETE(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: id } } });
    expect(await terminateLeftRunning(temporal, api.config.temporal.taskQueue)).toEqual([]);
  });
  afterAll(async () => {
    await receiver.close();
    await worker.stop();
    await api.close();
  });

  async function order(quantity: number): Promise<{ total: number; eventId: string }> {
    const res = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity }] } });
    expect(res.response.status).toBe(201);
    const outbox = await api.deps.resources.orders.outboxOf(res.data!.id);
    return { total: res.data!.total, eventId: outbox.find((e) => e.type === 'order.created')!.id };
  }
  const eventsOf = async (id: string) =>
    (await client.GET(`${v1}/subscriptions/{subscription_id}/events`, { params: { path: { subscription_id: id } } })).data!.data.map((e) => e.id);

  it('delivers an order the filter matches; one it does not match makes no attempt and is not in its event list', async () => {
    const sub = await client.POST(`${v1}/subscribe`, { body: { url: receiver.url, events: ['order.created'], filter: { data: { total: { $gte: 1_000_000 } } } } });
    expect(sub.response.status).toBe(201);
    const id = sub.data!.id;
    created.push(id);
    expect(sub.data!.filter).toEqual({ data: { total: { $gte: 1_000_000 } } });

    const small = await order(1);
    // Raise the bar between the two orders' totals, by PATCH.
    const patched = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, {
      params: { path: { subscription_id: id } },
      body: { filter: { $and: [{ 'data.total': { $gt: small.total } }, { type: { $startsWith: 'order.' } }] } },
    });
    expect(patched.response.status).toBe(200);
    const below = await order(1);
    const above = await order(3);

    await eventOutcome(temporal, eventWorkflowId(above.eventId));
    await waitFor(() => receiver.received.some((r) => r.body.includes(above.eventId)), 10_000);
    expect(receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id)).toEqual([above.eventId]);
    const events = await eventsOf(id);
    expect(events).toContain(above.eventId);
    expect(events).not.toContain(small.eventId);
    expect(events).not.toContain(below.eventId);
    const attempts = (await client.GET(`${v1}/subscriptions/{subscription_id}/attempts`, { params: { path: { subscription_id: id } } })).data!.data;
    expect(attempts.map((a) => a.event_id)).toEqual([above.eventId]);
  });

  it('refuses a bad filter with a 422 problem naming its path, and writes nothing', async () => {
    const before = (await client.GET(`${v1}/subscriptions`)).data!.data.length;
    const res = await client.POST(`${v1}/subscribe`, { body: { url: receiver.url, events: ['order.created'], filter: { data: { total: { $gtee: 100 } } } } });
    expect(res.response.status).toBe(422);
    expect(res.response.headers.get('content-type')).toContain('application/problem+json');
    expect(res.error?.errors?.[0]?.path).toBe('/body/filter/data/total/$gtee');
    expect((await client.GET(`${v1}/subscriptions`)).data!.data.length).toBe(before);

    const ok = await client.POST(`${v1}/subscribe`, { body: { url: receiver.url, events: ['order.created'], filter: { status: 'paid' } } });
    created.push(ok.data!.id);
    const patch = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, {
      params: { path: { subscription_id: ok.data!.id } },
      body: { filter: { $or: [{ a: 1 }, { b: { $like: 'x' } }] }, description: 'not written' },
    });
    expect(patch.response.status).toBe(422);
    expect(patch.error?.errors?.[0]?.path).toBe('/body/filter/$or/1/b/$like');
    const after = await client.GET(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: ok.data!.id } } });
    expect(after.data).toMatchObject({ filter: { status: 'paid' } });
    expect(after.data!.description).toBeUndefined();

    // `{}` removes the filter.
    const cleared = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: ok.data!.id } }, body: { filter: {} } });
    expect(cleared.response.status).toBe(200);
    expect(cleared.data!.filter).toBeUndefined();
  });

  it('PATCH version: the next attempt of a pending delivery uses the new envelope', async () => {
    let patched!: () => void;
    const moved = new Promise<void>((resolve) => (patched = resolve));
    // The first attempt is held until the subscription has moved, then fails; the retry succeeds.
    const flaky = await startReceiver(async (_req, res, n) => {
      if (n === 1) await moved;
      res.writeHead(n === 1 ? 500 : 200).end();
    });
    try {
      const sub = await client.POST(`${v1}/subscribe`, { body: { url: flaky.url, events: ['order.created'] } });
      created.push(sub.data!.id);
      const { eventId } = await order(1);
      await waitFor(() => flaky.received.length === 1, 10_000);
      const res = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: sub.data!.id } }, body: { version: 2 } });
      expect(res.data?.version).toBe(2);
      patched();
      await eventOutcome(temporal, eventWorkflowId(eventId));
      const [first, second] = flaky.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
      expect(first).toMatchObject({ event: 'order.created', id: eventId });
      expect(first).not.toHaveProperty('api_version');
      expect(second).toMatchObject({ event: 'order.created', id: eventId, api_version: 2 });
      expect(second).toHaveProperty('created_at');
    } finally {
      await flaky.close();
    }
  });
});
