import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { eventWorkflowId } from '../../../workflows/ids';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { eventOutcome } from '../../support/event-workflows';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

const v1 = '/api/webhooks/v1';
const timelinePath = `${v1}/subscriptions/{subscription_id}/events/{event_id}/delivery` as const;

describe("a delivery's timeline: its attempts, every wait and why, what happens next", () => {
  let api: TestApi;
  let worker: TestWorker;
  let temporal: Client;
  let receiver: TestReceiver;
  let client: WebhookServiceClient;
  // Answers per event, by the path each subscription posts to.
  const seen = new Map<string, number>();
  // Answers of '/hold' kept back until the test releases them.
  const held: Array<() => void> = [];

  beforeAll(async () => {
    receiver = await startReceiver((r, res) => {
      const key = `${r.url}:${(JSON.parse(r.body) as { id: string }).id}`;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      if (r.url.endsWith('/twice')) return res.writeHead(n <= 2 ? 503 : 200).end();
      if (r.url.endsWith('/retry-after')) return n === 1 ? res.writeHead(429, { 'Retry-After': '3' }).end() : res.writeHead(200).end();
      if (r.url.endsWith('/down')) return res.writeHead(503).end();
      if (r.url.endsWith('/hold')) return void held.push(() => res.writeHead(200).end());
      return res.writeHead(200).end();
    });
    // No jitter: each wait is the schedule's.
    // A held answer must not time out before the test releases it.
    api = await startTestApi({ DELIVERY_JITTER: '0', DELIVERY_TIMEOUT: '30s' });
    worker = await startTestWorker(api);
    temporal = await api.temporal.client();
    client = (await api.clientWith(['webhooks:write', 'webhooks:read'], `owner-${randomUUID().slice(0, 8)}`)).client;
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await api?.close();
  });

  async function subscribe(path: string, extra: Record<string, unknown> = {}): Promise<string> {
    const sub = await client.POST(`${v1}/subscribe`, { body: { url: `${receiver.url}/${path}`, events: ['webhook.test'], ...extra } });
    expect(sub.response.status, JSON.stringify(sub.error)).toBe(201);
    return sub.data!.id;
  }
  async function sendTest(subscriptionId: string): Promise<string> {
    const sent = await client.POST(`${v1}/subscriptions/{subscription_id}/test`, { params: { path: { subscription_id: subscriptionId } } });
    expect(sent.response.status).toBe(202);
    return sent.data!.event_id;
  }
  async function timeline(subscriptionId: string, eventId: string, as = client) {
    return as.GET(timelinePath, { params: { path: { subscription_id: subscriptionId, event_id: eventId } } });
  }

  it('shows two backoff waits ending when the next attempts were due, then delivered as final, as Temporal has it', async () => {
    const id = await subscribe('twice', { retry: { schedule: ['1s', '2s'], max_attempts: 4 } });
    const eventId = await sendTest(id);
    const outcome = await eventOutcome(temporal, eventWorkflowId(eventId));
    expect(outcome.subscriptions[id]).toMatchObject({ state: 'delivered', attempts: 3 });

    const res = await timeline(id, eventId);
    expect(res.response.status).toBe(200);
    const tl = res.data!;
    expect(tl).toMatchObject({ event_id: eventId, subscription_id: id, workflow_id: eventWorkflowId(eventId), state: 'delivered', max_attempts: 4, next: { final: true, state: 'delivered' } });
    expect(tl.attempts.map((a) => [a.attempt, a.state])).toEqual([
      [1, 'retrying'],
      [2, 'retrying'],
      [3, 'delivered'],
    ]);
    expect(tl.waits.map((w) => [w.after_attempt, w.reason, w.backoff])).toEqual([
      [1, 'backoff', { wait: 1, of: 3 }],
      [2, 'backoff', { wait: 2, of: 3 }],
    ]);
    tl.waits.forEach((w, k) => {
      const before = tl.attempts[k]!;
      const after = tl.attempts[k + 1]!;
      // Each ends at the next attempt the log says was due: the schedule's wait after the round, and the next attempt starts then.
      expect(w.ends_at).toBe(before.next_attempt_at);
      const waited = Date.parse(w.ends_at) - Date.parse(before.started_at);
      expect(waited).toBeGreaterThanOrEqual([1000, 2000][k]!);
      expect(Date.parse(after.started_at)).toBeGreaterThanOrEqual(Date.parse(w.ends_at));
    });
  });

  it("names the receiver's Retry-After when it is longer than the schedule", async () => {
    const id = await subscribe('retry-after', { retry: { schedule: ['1s'], max_attempts: 3 } });
    const eventId = await sendTest(id);
    await eventOutcome(temporal, eventWorkflowId(eventId));
    const tl = (await timeline(id, eventId)).data!;
    expect(tl.waits).toHaveLength(1);
    expect(tl.waits[0]).toMatchObject({ after_attempt: 1, reason: 'retry_after', backoff: { wait: 1, of: 2 } });
    expect(Date.parse(tl.waits[0]!.ends_at) - Date.parse(tl.attempts[0]!.started_at)).toBeGreaterThanOrEqual(3000);
    expect(tl.next).toEqual({ final: true, state: 'delivered' });
  });

  it('shows the rate_limit holds of attempts the limit put off', async () => {
    const id = await subscribe('fine', { rate_limit: 1 });
    const eventIds = await Promise.all([1, 2, 3, 4].map(() => sendTest(id)));
    await Promise.all(eventIds.map((e) => eventOutcome(temporal, eventWorkflowId(e))));
    const timelines = await Promise.all(eventIds.map(async (e) => (await timeline(id, e)).data!));
    expect(timelines.every((t) => t.next.final && t.state === 'delivered')).toBe(true);
    const holds = timelines.flatMap((t) => t.waits.map((w) => ({ w, started: t.attempts[0]!.started_at })));
    // Four in one go at one per second: at least three were held.
    expect(holds.filter(({ w }) => w.reason === 'rate_limit').length).toBeGreaterThanOrEqual(3);
    for (const { w, started } of holds) {
      expect(w).toMatchObject({ after_attempt: 0, reason: 'rate_limit', deferrals: expect.any(Number) as unknown });
      expect(w.ends_at).toBe(started);
    }
  });

  it('shows the max_in_flight hold of an attempt not yet made, from the workflow, and then from the log', async () => {
    const id = await subscribe('hold', { max_in_flight: 1 });
    const first = await sendTest(id);
    await waitFor(() => held.length === 1, 20_000);
    const second = await sendTest(id);
    let tl = (await timeline(id, second)).data!;
    await waitFor(async () => {
      tl = (await timeline(id, second)).data!;
      return tl.waits.some((w) => w.reason === 'max_in_flight');
    }, 20_000);
    // Held before attempt 1, until the time the workflow has it due.
    expect(tl).toMatchObject({ state: 'pending', attempts: [], next: { final: false, state: 'pending', attempt: 1 } });
    expect(tl.waits[tl.waits.length - 1]).toMatchObject({ after_attempt: 0, reason: 'max_in_flight', ends_at: tl.next.at });
    const status = await temporal.workflow.getHandle(eventWorkflowId(second)).query<{ subscriptions: Record<string, { nextAttemptAt?: number }> }>('deliveryStatus');
    // The same time the Temporal UI's deliveryStatus query shows, or a later one if it was put off again meanwhile.
    expect(Date.parse(tl.next.at!)).toBeLessThanOrEqual(status.subscriptions[id]!.nextAttemptAt!);

    // From now on every held answer is let go (the second's POST may come while the first's is still answering).
    const releasing = setInterval(() => {
      for (const release of held.splice(0)) release();
    }, 50);
    try {
      await Promise.all([first, second].map((e) => eventOutcome(temporal, eventWorkflowId(e))));
    } finally {
      clearInterval(releasing);
    }
    tl = (await timeline(id, second)).data!;
    expect(tl).toMatchObject({ state: 'delivered', next: { final: true, state: 'delivered' } });
    expect(tl.waits.length).toBeGreaterThanOrEqual(1);
    expect(tl.waits.every((w) => w.reason === 'max_in_flight' && w.after_attempt === 0)).toBe(true);
    expect(tl.waits[tl.waits.length - 1]!.ends_at).toBe(tl.attempts[0]!.started_at);
  });

  it('says failed is final, and a paused subscription holds the waiting retry', async () => {
    const failing = await subscribe('down', { retry: { schedule: ['1s'], max_attempts: 2 } });
    const failedEvent = await sendTest(failing);
    await eventOutcome(temporal, eventWorkflowId(failedEvent));
    expect((await timeline(failing, failedEvent)).data!).toMatchObject({ state: 'failed', next: { final: true, state: 'failed', reason: 'attempts ran out (last: http_error 503)' } });

    const slow = await subscribe('down', { retry: { schedule: ['1h'], max_attempts: 2 } });
    const eventId = await sendTest(slow);
    let tl = (await timeline(slow, eventId)).data!;
    await waitFor(async () => {
      tl = (await timeline(slow, eventId)).data!;
      return tl.attempts.length === 1;
    }, 20_000);
    expect(tl.next).toMatchObject({ final: false, state: 'retrying', attempt: 2, at: tl.attempts[0]!.next_attempt_at });
    await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: slow } }, body: { status: 'paused' } });
    tl = (await timeline(slow, eventId)).data!;
    expect(tl).toMatchObject({ state: 'retrying', next: { final: false, state: 'retrying', attempt: 2, at: tl.attempts[0]!.next_attempt_at } });
    expect(tl.next.reason).toMatch(/held/);
    await temporal.workflow.getHandle(eventWorkflowId(eventId)).terminate('test over');
  });

  it('is a 404 problem for another owner, an unknown event, and an event never sent to the subscription', async () => {
    const id = await subscribe('fine');
    const eventId = await sendTest(id);
    const other = (await api.clientWith(['webhooks:read'], `owner-${randomUUID().slice(0, 8)}`)).client;
    const foreign = await timeline(id, eventId, other);
    expect(foreign.response.status).toBe(404);
    expect(foreign.response.headers.get('content-type')).toContain('application/problem+json');
    expect((await timeline(id, 'evt_doesNotExist000000')).response.status).toBe(404);
    const second = await subscribe('fine');
    expect((await timeline(second, eventId)).response.status).toBe(404);
  });
});
