import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import type { Principal } from '../../../src/auth/api-keys';
import { newId } from '../../../src/db/ids';
import { type AttemptDoc, attemptId } from '../../../src/deliveries/attempts';
import type { EventDoc } from '../../../src/events/repository';
import type { OrderDoc } from '../../../src/orders/repository';
import type { DbCommandCounter } from '../../../src/telemetry/db-commands';
import { createApiMetrics } from '../../../src/telemetry/metrics';
import { counts, moved, total } from '../../support/db-commands';
import { startTestApi, type TestApi } from '../../support/api';

const v1 = '/api/webhooks/v1';

/** A busy subscription's last minute: 20 events a second, each with one attempt (200 to a 10-second bucket). */
const EVENTS = 1200;
const SPACING_MS = 50;
/** A user's orders: 20 a second for 30 s. */
const ORDERS = 600;
const USER = 4242;

/*
 * Pinned when measured (FerretDB on PostgreSQL, caches warm): the subscription, the rate-limit
 * slot on some requests, the timeline's directory (day, hour, the hour's buckets; the events list
 * also the wide events' days), then its reads: a page of 20 reads the dense bucket's seconds, two
 * at first and up to four after a cursor (which is one read more); a page of 100 reads whole
 * buckets, one to three. The events list adds its attempts' groups, one or two. None grows with
 * the page: one lookup per listed item would be 20 or 100 more.
 */
const budget = { attempts: 11, events: 13, orders: 7 } as const;

describe('a page of a busy list costs a bounded number of commands, whatever its length', () => {
  let api: TestApi;
  let commands: DbCommandCounter;
  let client: WebhookServiceClient;
  let principal: Principal;
  let subscriptionId: string;
  // The newest documents end at a bucket's end: its 200 make it dense, its seconds 20 each.
  const now = Math.floor(Date.now() / 10_000) * 10_000;
  const events: EventDoc[] = [];
  const attempts: AttemptDoc[] = [];
  const orders: OrderDoc[] = [];

  beforeAll(async () => {
    const metrics = createApiMetrics();
    commands = metrics.dbCommands;
    api = await startTestApi({}, { metrics });
    ({ client, principal } = await api.clientWith(['webhooks:read', 'webhooks:write', 'resources:read']));
    subscriptionId = (await client.POST(`${v1}/subscribe`, { body: { url: 'http://127.0.0.1:9/hooks', events: ['webhook.test'] } })).data!.id;
    for (let i = 0; i < EVENTS; i++) {
      const at = now - (EVENTS - i) * SPACING_MS;
      const event: EventDoc = { _id: newId('evt', at), type: 'webhook.test', data: { message: `event ${i}` }, created_at: new Date(at), subscription_ids: [subscriptionId] };
      events.push(event);
      const series = `series-${event._id}`;
      attempts.push({
        _id: attemptId(series, 1),
        event_id: event._id,
        subscription_id: subscriptionId,
        series,
        attempt: 1,
        started_at: new Date(at + 20),
        duration_ms: 5,
        outcome: 'delivered',
        status_code: 200,
        url: 'http://127.0.0.1:9/hooks',
        state: 'delivered',
      });
    }
    await api.deps.resources.users.insertAll([{ _id: USER, name: 'Busy User', email: 'busy@example.com', created_at: new Date(now - 86_400_000) }]);
    for (let i = 0; i < ORDERS; i++) {
      const date = new Date(now - (ORDERS - i) * SPACING_MS);
      const items = [{ product_id: 1, quantity: 1, unit_price: 10 }];
      orders.push({ _id: String(9_000_000 + i), id: 9_000_000 + i, owner_id: principal.ownerId, user_id: USER, status: 'pending', items, total: 10, currency: 'EUR', date, updated_at: date, outbox: [] });
    }
    // In rounds, as the service writes them: each round counts towards its buckets being dense.
    for (let i = 0; i < EVENTS; i += 100) {
      await api.events.insertAll(events.slice(i, i + 100));
      await api.deps.deliveries.attempts.recordMany(attempts.slice(i, i + 100));
    }
    for (let i = 0; i < ORDERS; i += 100) await api.deps.resources.orders.insertAll(orders.slice(i, i + 100));
  });
  afterAll(async () => {
    await api?.close();
  });

  type Page = { data: Array<{ id: string | number }>; next_cursor?: string };

  /** One request's page, and the commands it cost. */
  async function cost(request: () => Promise<{ data?: unknown; response: Response }>) {
    const before = await counts(commands);
    const res = await request();
    expect(res.response.status).toBe(200);
    return { body: res.data as Page, commands: moved(before, await counts(commands)) };
  }

  /** A subscription's list (`attempts` or `events`), a page of `limit` after `cursor`. */
  const subscriptionPage = (list: 'attempts' | 'events', limit: number, cursor?: string) =>
    cost(() => client.GET(`${v1}/subscriptions/{subscription_id}/${list}`, { params: { path: { subscription_id: subscriptionId }, query: { limit, ...(cursor ? { cursor } : {}) } } }));
  const ordersPage = (limit: number) => cost(() => client.GET('/api/users/{user_id}/orders', { params: { path: { user_id: USER }, query: { limit } } }));

  const newestIds = <T>(docs: readonly T[], id: (d: T) => string | number) => [...docs].reverse().map(id);

  it.each([
    ['attempts', 20],
    ['attempts', 100],
    ['events', 20],
    ['events', 100],
  ] as const)("a page of a subscription's %s, %i, first and by cursor", async (list, limit) => {
    await subscriptionPage(list, limit);
    const first = await subscriptionPage(list, limit);
    const second = await subscriptionPage(list, limit, first.body.next_cursor);
    const expected = list === 'attempts' ? newestIds(attempts, (a) => a._id) : newestIds(events, (e) => e._id);
    expect(first.body.data.map((d) => d.id)).toEqual(expected.slice(0, limit));
    expect(second.body.data.map((d) => d.id)).toEqual(expected.slice(limit, 2 * limit));
    for (const page of [first, second]) expect(total(page.commands), JSON.stringify(page.commands)).toBeLessThanOrEqual(budget[list]);
  });

  it.each([20, 100] as const)("a page of %i of a user's orders", async (limit) => {
    await ordersPage(limit);
    const page = await ordersPage(limit);
    expect(page.body.data.map((o) => o.id)).toEqual(newestIds(orders, (o) => o.id).slice(0, limit));
    expect(total(page.commands), JSON.stringify(page.commands)).toBeLessThanOrEqual(budget.orders);
  });
});
