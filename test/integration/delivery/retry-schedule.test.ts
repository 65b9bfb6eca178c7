import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { seedDemoData } from '../../../src/seed/seed';
import { eventWorkflowId } from '../../../workflows/ids';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { eventOutcome } from '../../support/event-workflows';
import { startReceiver, type TestReceiver } from '../../support/receiver';

const v1 = '/api/webhooks/v1';

describe("a subscription's own retry schedule, over real deliveries", () => {
  let api: TestApi;
  let worker: TestWorker;
  let temporal: Client;
  let failing: TestReceiver;
  let client: WebhookServiceClient;

  beforeAll(async () => {
    failing = await startReceiver((_req, res) => res.writeHead(503).end());
    // No jitter: the waits between attempts are the schedule's, to within task processing.
    api = await startTestApi({ DELIVERY_JITTER: '0' });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
    temporal = await api.temporal.client();
    client = (await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write'], `owner-${randomUUID().slice(0, 8)}`)).client;
  });
  afterAll(async () => {
    await failing?.close();
    await worker?.stop();
    await api?.close();
  });

  const raw = async (id: string) => JSON.stringify(await api.mongo.db.collection('subscriptions').findOne({ _id: id as never }));
  async function alertsOf(subscriptionId: string) {
    const admin = (await api.clientWith(['admin'], 'ops')).client;
    return ((await admin.GET(`${v1}/alerts`, { params: { query: { limit: 100 } } })).data?.data ?? []).filter((a) => a.subscription_id === subscriptionId);
  }

  it("shows the service's schedule when none is set, takes one on create and PATCH, and null goes back", async () => {
    const sub = await client.POST(`${v1}/subscribe`, { body: { url: failing.url, events: ['order.created'] } });
    expect(sub.response.status).toBe(201);
    const id = sub.data!.id;
    const policy = api.config.delivery.policy;
    expect(sub.data!.retry).toEqual({ schedule: expect.any(Array) as unknown, max_attempts: policy.maxAttempts, source: 'service' });
    expect(sub.data!.retry.schedule).toHaveLength(policy.scheduleMs.length);

    const path = { params: { path: { subscription_id: id } } };
    const patched = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { ...path, body: { retry: { schedule: ['30s', '120m'], max_attempts: 4 } } });
    expect(patched.response.status).toBe(200);
    expect(patched.data!.retry).toEqual({ schedule: ['30s', '2h'], max_attempts: 4, source: 'subscription' });
    expect((await client.GET(`${v1}/subscriptions/{subscription_id}`, path)).data!.retry).toEqual({ schedule: ['30s', '2h'], max_attempts: 4, source: 'subscription' });

    // Another change leaves it alone; null restores the service's.
    expect((await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { ...path, body: { description: 'kept' } })).data!.retry.source).toBe('subscription');
    const restored = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { ...path, body: { retry: null } });
    expect(restored.response.status).toBe(200);
    expect(restored.data!.retry).toEqual(sub.data!.retry);
    expect(await raw(id)).not.toContain('"retry"');
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path);
  });

  it.each([
    [{ schedule: ['1m', 'soon'], max_attempts: 3 }, '/body/retry/schedule/1'],
    [{ schedule: ['7h'], max_attempts: 2 }, '/body/retry/schedule/0'],
    [{ schedule: [], max_attempts: 2 }, '/body/retry/schedule'],
    [{ schedule: ['1m'], max_attempts: 11 }, '/body/retry/max_attempts'],
    [{ schedule: ['6h'], max_attempts: 4 }, '/body/retry'],
  ])('refuses %o with a 422 naming %s, on create and PATCH, and writes nothing', async (retry, field) => {
    const { client: own, principal } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read'], `owner-${randomUUID().slice(0, 8)}`);
    const created = await own.POST(`${v1}/subscribe`, { body: { url: failing.url, events: ['order.created'], retry } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(422);
    expect(created.response.headers.get('content-type')).toContain('application/problem+json');
    expect(created.error!.errors?.map((e) => e.path)).toContain(field);
    expect(await api.mongo.db.collection('subscriptions').countDocuments({ owner_id: principal.ownerId })).toBe(0);

    const ok = await own.POST(`${v1}/subscribe`, { body: { url: failing.url, events: ['order.created'], retry: { schedule: ['1m'], max_attempts: 2 } } });
    const path = { params: { path: { subscription_id: ok.data!.id } } };
    const before = await raw(ok.data!.id);
    const patched = await own.PATCH(`${v1}/subscriptions/{subscription_id}`, { ...path, body: { retry, description: 'not written either' } });
    expect(patched.response.status).toBe(422);
    expect(patched.error!.errors?.map((e) => e.path)).toContain(field);
    expect(await raw(ok.data!.id)).toBe(before);
  });

  it('follows its intervals and max_attempts, then fails and alerts as usual', async () => {
    const sub = await client.POST(`${v1}/subscribe`, { body: { url: failing.url, events: ['order.created'], retry: { schedule: ['1s', '3s'], max_attempts: 4 } } });
    expect(sub.response.status).toBe(201);
    const id = sub.data!.id;
    const res = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(res.response.status).toBe(201);
    const eventId = (await api.deps.resources.orders.outboxOf(res.data!.id)).find((e) => e.type === 'order.created')!.id;

    // The service's schedule (1 min first) would still be waiting: this ends in seconds.
    const outcome = await eventOutcome(temporal, eventWorkflowId(eventId));
    expect(outcome.subscriptions[id]).toMatchObject({ state: 'failed', attempts: 4, lastStatusCode: 503 });
    const at = failing.received.filter((r) => r.body.includes(eventId)).map((r) => r.at);
    expect(at).toHaveLength(4);
    const gaps = at.slice(1).map((t, k) => t - at[k]!);
    // 1 s, then 3 s repeating; each at least its wait, and well short of the next longer one.
    [1000, 3000, 3000].forEach((wait, k) => {
      expect(gaps[k], `wait after attempt ${k + 1}`).toBeGreaterThanOrEqual(wait - 50);
      expect(gaps[k], `wait after attempt ${k + 1}`).toBeLessThan(wait + 2500);
    });

    const attempts = await client.GET(`${v1}/subscriptions/{subscription_id}/attempts`, { params: { path: { subscription_id: id } } });
    expect(attempts.data!.data.map((a) => a.state).sort()).toEqual(['failed', 'retrying', 'retrying', 'retrying']);
    const alerts = await alertsOf(id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ kind: 'delivery_failed', event_id: eventId });
    expect(alerts[0]!.message).toContain('after 4 attempts');
  });
});
