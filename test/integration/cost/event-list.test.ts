import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { backfillLists } from '../../../src/db/backfill-lists';
import { newId } from '../../../src/db/ids';
import { type AttemptDoc, attemptId } from '../../../src/deliveries/attempts';
import type { EventDoc } from '../../../src/events/repository';
import type { DbCommandCounter } from '../../../src/telemetry/db-commands';
import { createApiMetrics } from '../../../src/telemetry/metrics';
import { counts, moved, total } from '../../support/db-commands';
import { startTestApi, type TestApi } from '../../support/api';

const v1 = '/api/webhooks/v1';

/** Events stored for the list: one every 250 ms over the last five minutes. */
const EVENTS = 1200;
const SPACING_MS = 250;

/*
 * Pinned when measured: a page's commands are the API key, the subscription, the timeline's
 * directory (day, hour) and its event buckets (10 s each, 40 events here), and its attempts.
 * Before attempts had event groups a page read its attempts with one lookup per listed event.
 * A page of 20 (5 s of events) straddles a 10 s bucket boundary or not, as the clock falls: one read more or less.
 */
const pageBudget = { 20: { attempts: 2, total: 15 }, 100: { attempts: 2, total: 15 } } as const;

/** The expected summary of event `i`: 0 to 3 attempts, the last delivered when there are 3. */
const attemptsOf = (i: number) => i % 4;

describe('a page of a subscription\u2019s events costs a bounded number of commands on a grown database', () => {
  let api: TestApi;
  let commands: DbCommandCounter;
  let client: WebhookServiceClient;
  let subscriptionId: string;
  let otherId: string;
  const now = Date.now();
  const events: EventDoc[] = [];

  beforeAll(async () => {
    const metrics = createApiMetrics();
    commands = metrics.dbCommands;
    api = await startTestApi({}, { metrics });
    ({ client } = await api.clientWith(['webhooks:read', 'webhooks:write']));
    const subscribe = async () => (await client.POST(`${v1}/subscribe`, { body: { url: 'http://127.0.0.1:9/hooks', events: ['webhook.test'] } })).data!.id;
    subscriptionId = await subscribe();
    otherId = await subscribe();
    const attempts: AttemptDoc[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const at = now - (EVENTS - i) * SPACING_MS;
      const event: EventDoc = { _id: newId('evt', at), type: 'webhook.test', data: { message: `event ${i}` }, created_at: new Date(at), subscription_ids: [subscriptionId, otherId] };
      events.push(event);
      for (let n = 1; n <= attemptsOf(i); n++) attempts.push(attempt(event, subscriptionId, n, n === 3 ? 'delivered' : 'retrying', at + n * 1000));
      // The other subscription's attempts share the events' times: never counted for this one.
      attempts.push(attempt(event, otherId, 1, 'failed', at + 500));
    }
    await api.events.insertAll(events);
    for (let i = 0; i < attempts.length; i += 1000) await api.deps.deliveries.attempts.recordMany(attempts.slice(i, i + 1000));
  });
  afterAll(async () => {
    await api.close();
  });

  function attempt(event: EventDoc, subscription: string, n: number, state: AttemptDoc['state'], startedAt: number): AttemptDoc {
    const series = `series-${event._id}-${subscription}`;
    return {
      _id: attemptId(series, n),
      event_id: event._id,
      subscription_id: subscription,
      series,
      attempt: n,
      started_at: new Date(startedAt),
      duration_ms: 5,
      outcome: state === 'delivered' ? 'delivered' : 'http_error',
      status_code: state === 'delivered' ? 200 : 503,
      url: 'http://127.0.0.1:9/hooks',
      state,
    };
  }

  /** The page as listed, and the commands it cost. */
  async function page(limit: 20 | 100, cursor?: string) {
    const before = await counts(commands);
    const res = await client.GET(`${v1}/subscriptions/{subscription_id}/events`, { params: { path: { subscription_id: subscriptionId }, query: { limit, ...(cursor ? { cursor } : {}) } } });
    expect(res.response.status).toBe(200);
    return { data: res.data!, commands: moved(before, await counts(commands)) };
  }

  /** What each listed event should say: newest first, from `from` (an index counted from the newest). */
  function expected(from: number, limit: number) {
    return Array.from({ length: limit }, (_, k) => {
      const i = EVENTS - 1 - from - k;
      const n = attemptsOf(i);
      const at = events[i]!.created_at.getTime();
      return { id: events[i]!._id, delivery_state: n === 0 ? 'pending' : n === 3 ? 'delivered' : 'retrying', attempts: n, last_attempt_at: n ? new Date(at + n * 1000).toISOString() : undefined };
    });
  }

  const shown = (rows: ReadonlyArray<{ id: string; delivery_state: string; attempts: number; last_attempt_at?: string }>) =>
    rows.map(({ id, delivery_state, attempts, last_attempt_at }) => ({ id, delivery_state, attempts, last_attempt_at }));

  it.each([20, 100] as const)('a page of %i reads its attempts in at most two lookups, and says where each event stands', async (limit) => {
    // Warm: the API key and contract caches fill on the first request.
    await page(limit);
    const first = await page(limit);
    expect(shown(first.data.data)).toEqual(expected(0, limit));
    const second = await page(limit, first.data.next_cursor);
    expect(shown(second.data.data)).toEqual(expected(limit, limit));
    for (const { commands: c } of [first, second]) {
      expect(c['find attempts'] ?? 0, JSON.stringify(c)).toBeGreaterThan(0);
      expect((c['find attempts'] ?? 0) + (c['getMore attempts'] ?? 0), JSON.stringify(c)).toBeLessThanOrEqual(pageBudget[limit].attempts);
      // The second page also reads its cursor's event.
      expect(total(c), JSON.stringify(c)).toBeLessThanOrEqual(pageBudget[limit].total + 1);
    }
  });

  it('lists correctly the attempts stored before attempts had event groups, once they are tagged', async () => {
    const raw = api.mongo.db.collection('attempts');
    // As an earlier version stored them: without groups, and no marker saying they were all tagged.
    const untagged = await raw.updateMany({ subscription_id: subscriptionId }, { $unset: { eg: '' } });
    expect(untagged.modifiedCount).toBe(expected(0, EVENTS).reduce((sum, e) => sum + e.attempts, 0));
    await api.mongo.db.collection<{ _id: string }>('timeline').deleteOne({ _id: 'attempts/#event-groups-backfilled' });

    const tagged = await backfillLists(api.mongo.db);
    expect(tagged['attempt event groups']).toBe(untagged.modifiedCount);
    const first = await page(20);
    expect(shown(first.data.data)).toEqual(expected(0, 20));
    // Once per database: the next start tags nothing.
    expect((await backfillLists(api.mongo.db))['attempt event groups']).toBe(0);
  });
});
