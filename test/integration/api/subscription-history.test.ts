import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { type AttemptDoc, attemptId } from '../../../src/deliveries/attempts';
import { startTestApi, type TestApi } from '../../support/api';

const v1 = '/api/webhooks/v1';
/** A contract-valid event id numbered `n`. */
const eventId = (n: number) => `evt_${String(n).padStart(16, '0')}`;

describe("a subscription's history: events, filtered attempts and statistics", () => {
  let api: TestApi;
  let client: WebhookServiceClient;
  let subscriptionId: string;
  const now = Date.now();

  beforeAll(async () => {
    api = await startTestApi();
    ({ client } = await api.clientWith(['webhooks:read', 'webhooks:write']));
    const { data } = await client.POST(`${v1}/subscribe`, { body: { url: 'http://127.0.0.1:9/hooks', events: ['webhook.test'] } });
    subscriptionId = data!.id;
    const attempt = (n: number, minutesAgo: number, outcome: AttemptDoc['outcome'], state: AttemptDoc['state'], duration_ms: number): AttemptDoc => ({
      _id: attemptId(`series-${n}`, 1),
      event_id: eventId(n),
      subscription_id: subscriptionId,
      series: `series-${n}`,
      attempt: 1,
      started_at: new Date(now - minutesAgo * 60_000),
      duration_ms,
      outcome,
      url: 'http://127.0.0.1:9/hooks',
      state,
      ...(outcome === 'http_error' ? { status_code: 500 } : outcome === 'delivered' ? { status_code: 200 } : {}),
    });
    // Written as the worker records them: two delivered, one retrying after a 500, one failed timeout, one a day and a half old.
    for (const doc of [
      attempt(1, 5, 'delivered', 'delivered', 40),
      attempt(2, 10, 'http_error', 'retrying', 80),
      attempt(3, 70, 'timeout', 'failed', 5000),
      attempt(4, 130, 'delivered', 'delivered', 60),
      attempt(5, 36 * 60, 'delivered', 'delivered', 10),
    ]) {
      await api.deps.deliveries.attempts.record(doc);
    }
  });
  afterAll(async () => {
    await api.close();
  });

  it('lists its events newest first with payload and delivery state, paginated; pending before any attempt', async () => {
    const events = api.events;
    const event = (n: number, minutesAgo: number, subscriptionIds = [subscriptionId]) => ({
      _id: eventId(n),
      type: 'webhook.test' as const,
      data: { message: `event ${n}`, subscription_id: subscriptionId },
      created_at: new Date(now - minutesAgo * 60_000 - 1000),
      subscription_ids: subscriptionIds,
    });
    for (const [n, minutesAgo] of [[1, 5], [2, 10], [3, 70], [4, 130], [6, 1]] as const) await events.insertOnce(event(n, minutesAgo));
    await events.insertOnce(event(7, 0, ['sub_someoneElse00000000']));
    // Event 2 was redelivered after its 500, and went through.
    await api.deps.deliveries.attempts.record({
      _id: attemptId('series-2-redelivery', 1), event_id: eventId(2), subscription_id: subscriptionId, series: 'series-2-redelivery', attempt: 1,
      started_at: new Date(now - 60_000), duration_ms: 30, outcome: 'delivered', status_code: 200, url: 'http://127.0.0.1:9/hooks', state: 'delivered',
    });

    const path = { subscription_id: subscriptionId };
    const first = await client.GET(`${v1}/subscriptions/{subscription_id}/events`, { params: { path, query: { limit: 3 } } });
    expect(first.data?.data.map((e) => [Number(e.id.slice(4)), e.delivery_state, e.attempts])).toEqual([
      [6, 'pending', 0],
      [1, 'delivered', 1],
      [2, 'delivered', 2],
    ]);
    expect(first.data?.data[0]).toMatchObject({ type: 'webhook.test', data: { message: 'event 6' } });
    expect(first.data?.data[0]?.last_attempt_at).toBeUndefined();
    expect(first.data?.data[2]?.last_attempt_at).toBe(new Date(now - 60_000).toISOString());
    const rest = await client.GET(`${v1}/subscriptions/{subscription_id}/events`, { params: { path, query: { limit: 3, cursor: first.data!.next_cursor! } } });
    expect(rest.data?.data.map((e) => [Number(e.id.slice(4)), e.delivery_state])).toEqual([
      [3, 'failed'],
      [4, 'delivered'],
    ]);
    expect(rest.data?.next_cursor).toBeUndefined();
    await api.mongo.db.collection<AttemptDoc>('attempts').deleteOne({ _id: attemptId('series-2-redelivery', 1) });
  });

  const list = async (query: { outcome?: AttemptDoc['outcome']; state?: AttemptDoc['state'] }) => {
    const { data, error } = await client.GET(`${v1}/subscriptions/{subscription_id}/attempts`, { params: { path: { subscription_id: subscriptionId }, query } });
    expect(error, JSON.stringify(error)).toBeUndefined();
    return data!.data.map((a) => Number(a.event_id.slice(4)));
  };

  it('filters attempts by outcome, by state, or both', async () => {
    expect(await list({})).toEqual([1, 2, 3, 4, 5]);
    expect(await list({ outcome: 'delivered' })).toEqual([1, 4, 5]);
    expect(await list({ state: 'retrying' })).toEqual([2]);
    expect(await list({ outcome: 'timeout', state: 'failed' })).toEqual([3]);
    expect(await list({ outcome: 'blocked' })).toEqual([]);
  });

  it('refuses an unknown outcome with 400 naming the parameter', async () => {
    const { response, error } = await client.GET(`${v1}/subscriptions/{subscription_id}/attempts`, {
      params: { path: { subscription_id: subscriptionId }, query: { outcome: 'exploded' as 'delivered' } },
    });
    expect(response.status).toBe(400);
    expect(error?.errors?.[0]?.path).toBe('/query/outcome');
  });

  it('counts the last 24 hours per hour, with success rate and latency', async () => {
    const { data } = await client.GET(`${v1}/subscriptions/{subscription_id}/stats`, { params: { path: { subscription_id: subscriptionId } } });
    expect(data?.buckets).toHaveLength(24);
    expect(data?.totals).toEqual({ attempts: 4, delivered: 2, failed: 2, success_rate: 0.5, latency_p50_ms: 60, latency_p95_ms: 5000 });
    expect(data?.buckets.reduce((n, b) => n + b.attempts, 0)).toBe(4);
    const week = await client.GET(`${v1}/subscriptions/{subscription_id}/stats`, { params: { path: { subscription_id: subscriptionId }, query: { hours: 48 } } });
    expect(week.data?.totals.attempts).toBe(5);
    expect((await client.GET(`${v1}/subscriptions/{subscription_id}/stats`, { params: { path: { subscription_id: subscriptionId }, query: { hours: 169 } } })).response.status).toBe(400);
  });
});
