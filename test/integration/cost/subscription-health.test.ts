import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { newId } from '../../../src/db/ids';
import { type AttemptDoc, attemptId } from '../../../src/deliveries/attempts';
import type { DbCommandCounter } from '../../../src/telemetry/db-commands';
import { createApiMetrics } from '../../../src/telemetry/metrics';
import { counts, moved, total } from '../../support/db-commands';
import { startTestApi, type TestApi } from '../../support/api';

const v1 = '/api/webhooks/v1';
const SUBSCRIPTIONS = 20;

/*
 * Pinned when measured: the health of a page of subscriptions is one ownership read plus two or
 * three event-group lookups per subscription (the last hour's groups), however many attempts each
 * has stored; the API key read is cached after the first request.
 */
const perSubscription = 3;
const fixed = 2;

describe("the subscription list's health: the last hour's success rate of a page of subscriptions in one request", () => {
  let api: TestApi;
  let commands: DbCommandCounter;
  let client: WebhookServiceClient;
  const ids: string[] = [];
  const now = Date.now();

  beforeAll(async () => {
    const metrics = createApiMetrics();
    commands = metrics.dbCommands;
    api = await startTestApi({}, { metrics });
    ({ client } = await api.clientWith(['webhooks:read', 'webhooks:write'], `owner-${randomUUID().slice(0, 8)}`));
    for (let k = 0; k < SUBSCRIPTIONS; k++) {
      ids.push((await client.POST(`${v1}/subscribe`, { body: { url: 'http://127.0.0.1:9/hooks', events: ['webhook.test'] } })).data!.id);
    }
    const attempts: AttemptDoc[] = [];
    ids.forEach((sub, k) => {
      // Subscription k: 40 events over the last 50 minutes, the first k % 5 of each 4 delivered; and 40 older ones, all delivered, not counted.
      for (let i = 0; i < 40; i++) {
        const recent = now - 50 * 60_000 + i * 60_000;
        attempts.push(attempt(sub, recent, i % 4 < k % 5 ? 'delivered' : 'http_error'));
        attempts.push(attempt(sub, now - 3 * 3600_000 + i * 60_000, 'delivered'));
      }
    });
    await api.deps.deliveries.attempts.recordMany(attempts);
  });
  afterAll(async () => {
    await api?.close();
  });

  function attempt(subscriptionId: string, at: number, outcome: 'delivered' | 'http_error'): AttemptDoc {
    const eventId = newId('evt', at);
    const series = `event/${eventId}#${subscriptionId}`;
    return {
      _id: attemptId(series, 1),
      event_id: eventId,
      subscription_id: subscriptionId,
      series,
      attempt: 1,
      started_at: new Date(at + 100),
      duration_ms: 5,
      outcome,
      ...(outcome === 'delivered' ? { status_code: 200 } : { status_code: 503 }),
      url: 'http://127.0.0.1:9/hooks',
      state: outcome === 'delivered' ? 'delivered' : 'retrying',
    };
  }

  async function health(of: readonly string[], as = client) {
    const before = await counts(commands);
    const res = await as.GET(`${v1}/subscription-health`, { params: { query: { subscription_ids: of.join(',') } } });
    return { res, commands: moved(before, await counts(commands)) };
  }

  it.each([5, 20])('reads %i subscriptions with a bounded number of commands and counts only the last hour', async (n) => {
    await health(ids.slice(0, 1));
    const { res, commands: c } = await health(ids.slice(0, n));
    expect(res.response.status).toBe(200);
    expect(res.data!.data.map((h) => h.subscription_id)).toEqual(ids.slice(0, n));
    res.data!.data.forEach((h, k) => {
      const delivered = 10 * Math.min(k % 5, 4);
      expect(h).toMatchObject({ attempts: 40, delivered, success_rate: delivered / 40 });
    });
    expect((c['find attempts'] ?? 0) + (c['getMore attempts'] ?? 0), JSON.stringify(c)).toBeLessThanOrEqual(perSubscription * n);
    expect(total(c), JSON.stringify(c)).toBeLessThanOrEqual(perSubscription * n + fixed);
  });

  it("leaves out another owner's subscriptions, and refuses a malformed list with a 400 problem", async () => {
    const other = (await api.clientWith(['webhooks:read'], `owner-${randomUUID().slice(0, 8)}`)).client;
    const { res } = await health(ids.slice(0, 3), other);
    expect(res.response.status).toBe(200);
    expect(res.data!.data).toEqual([]);
    const bad = await client.GET(`${v1}/subscription-health`, { params: { query: { subscription_ids: 'not-an-id' } } });
    expect(bad.response.status).toBe(400);
    expect(bad.response.headers.get('content-type')).toContain('application/problem+json');
  });
});
