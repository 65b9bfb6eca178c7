import { type Db, MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { type AlertActivityDeps, type AlertInput, createAlertActivities } from '../../../activities/alerts';
import type { PostRequest, PostResult } from '../../../activities/http-post';
import { createSubscriptionActivities } from '../../../activities/subscription';
import { type AlertDoc, alertId } from '../../../src/alerts/repository';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { standardWebhooksSignature, xSignature } from '../../../src/webhooks/signature';

const now = new Date('2025-06-01T12:00:00.000Z');
const alertSecret = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;
const alertUrl = 'https://ops.example/alerts';

const failed: AlertInput = {
  kind: 'delivery_failed',
  subscriptionId: 'sub_unit',
  eventId: 'evt_unit',
  key: 'event/evt_unit#sub_unit',
  message: 'Delivery of evt_unit to sub_unit failed after 7 attempts (last: http_error 503)',
};

/** A fake Db over in-memory alerts and subscriptions: the collection methods these activities call. */
function fakeDb(subscription?: Pick<SubscriptionDoc, '_id' | 'status'> & Partial<SubscriptionDoc>) {
  const alerts = new Map<string, AlertDoc>();
  const subscriptions = new Map(subscription ? [[subscription._id, { ...subscription }]] : []);
  const slots = new Set<string>();
  const collections: Record<string, object> = {
    // The per-owner budget (src/alerts/admin-budget.ts): insert-if-absent and lookups by _id.
    alert_slots: {
      insertOne: (doc: { _id: string }) => {
        if (slots.has(doc._id)) return Promise.reject(new MongoServerError({ message: 'E11000 duplicate key', code: 11000 }));
        slots.add(doc._id);
        return Promise.resolve({ acknowledged: true, insertedId: doc._id });
      },
      findOne: (filter: { _id: string }) => Promise.resolve(slots.has(filter._id) ? { _id: filter._id } : null),
      deleteMany: (filter: { _id: { $in: string[] } }) => Promise.resolve({ deletedCount: filter._id.$in.filter((id) => slots.delete(id)).length }),
    },
    // The lists' directory (src/db/timeline.ts): registering a bucket is all these activities do there.
    timeline: { insertMany: (docs: unknown[]) => Promise.resolve({ acknowledged: true, insertedCount: docs.length }) },
    alerts: {
      insertOne: (doc: AlertDoc) => {
        if (alerts.has(doc._id)) return Promise.reject(new MongoServerError({ message: 'E11000 duplicate key', code: 11000 }));
        alerts.set(doc._id, { ...doc });
        return Promise.resolve({ acknowledged: true, insertedId: doc._id });
      },
      findOne: (filter: { _id: string }) => Promise.resolve(alerts.get(filter._id) ?? null),
      updateOne: (filter: { _id: string }, update: { $set: Partial<AlertDoc> }) => {
        const doc = alerts.get(filter._id);
        if (doc) Object.assign(doc, update.$set);
        return Promise.resolve({ matchedCount: doc ? 1 : 0 });
      },
    },
    subscriptions: {
      updateOne: (filter: { _id: string; status: { $ne: string } }, update: { $set: Partial<SubscriptionDoc> }) => {
        const doc = subscriptions.get(filter._id);
        const matched = doc !== undefined && doc.status !== filter.status.$ne;
        if (matched) Object.assign(doc, update.$set);
        return Promise.resolve({ matchedCount: matched ? 1 : 0 });
      },
      findOne: (filter: { _id: string }) => Promise.resolve(subscriptions.get(filter._id) ?? null),
    },
  };
  const db = { collection: (name: string) => collections[name] ?? {} } as unknown as Db;
  return { db, alerts, subscriptions, slots };
}

/** An alert endpoint answering with `statusCodes` in turn (the last repeats); every request kept. */
function fakePost(...statusCodes: number[]) {
  const requests: PostRequest[] = [];
  const post = (req: PostRequest): Promise<PostResult> => {
    requests.push(req);
    const statusCode = statusCodes[Math.min(requests.length, statusCodes.length) - 1] ?? 200;
    return Promise.resolve({ startedAt: now.getTime(), durationMs: 3, outcome: statusCode < 300 ? 'delivered' : 'http_error', statusCode, responseExcerpt: '' });
  };
  return { post, requests };
}

function alertActivities(db: Db, post: AlertActivityDeps['post'], extra: Partial<AlertActivityDeps> = {}) {
  return createAlertActivities({ db, allowPrivate: false, timeoutMs: 1000, userAgent: 'WebhookService/unit', alertUrl, alertSecret, now: () => now, post, ...extra });
}

describe('raiseAlert', () => {
  it('stores the alert, then POSTs it signed to the alert URL and marks it notified', async () => {
    const { db, alerts } = fakeDb();
    const { post, requests } = fakePost(200);
    const id = alertId('delivery_failed', 'sub_unit', failed.key);
    expect(await alertActivities(db, post).raiseAlert(failed)).toEqual({ id, notified: true });

    expect([...alerts.values()]).toEqual([
      {
        _id: id,
        kind: 'delivery_failed',
        subscription_id: 'sub_unit',
        event_id: 'evt_unit',
        message: failed.message,
        created_at: now,
        notified_at: now,
        admin_slot: { window: Math.floor(now.getTime() / 3_600_000), index: 0, send: true, limit_reached: false, suppressed: 0 },
        tl: [`all@0:${Math.floor(now.getTime() / 10_000)}`],
        // Its second within the bucket, for a dense bucket's reads.
        tl_tenth: Math.floor((now.getTime() % 10_000) / 1000),
      },
    ]);
    expect(requests).toHaveLength(1);
    const req = requests[0]!;
    expect(req.url).toBe(alertUrl);
    expect(JSON.parse(req.body)).toEqual({
      type: 'alert',
      alert: { id, kind: 'delivery_failed', subscription_id: 'sub_unit', event_id: 'evt_unit', message: failed.message, created_at: now.toISOString() },
    });
    const timestamp = Math.floor(now.getTime() / 1000);
    expect(req.headers).toMatchObject({
      'Content-Type': 'application/json',
      'User-Agent': 'WebhookService/unit',
      'X-Signature': xSignature(alertSecret, req.body),
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': standardWebhooksSignature(alertSecret, id, timestamp, req.body),
    });
  });

  it('raised again (a retry, a replay) stores nothing new and POSTs nothing again', async () => {
    const { db, alerts } = fakeDb();
    const { post, requests } = fakePost(200);
    const acts = alertActivities(db, post);
    const first = await acts.raiseAlert(failed);
    expect(await acts.raiseAlert({ ...failed, message: 'a later message' })).toEqual(first);
    expect(alerts.size).toBe(1);
    expect(alerts.get(first.id)!.message).toBe(failed.message);
    expect(requests).toHaveLength(1);
  });

  it('throws when the alert POST fails, so Temporal retries it; the alert stays stored meanwhile, and one retry notifies it', async () => {
    const { db, alerts } = fakeDb();
    const { post, requests } = fakePost(503, 200);
    const acts = alertActivities(db, post);
    await expect(acts.raiseAlert(failed)).rejects.toThrow('operator notification POST failed: HTTP 503');
    const [stored] = alerts.values();
    expect(stored).toMatchObject({ kind: 'delivery_failed', subscription_id: 'sub_unit' });
    expect(stored).not.toHaveProperty('notified_at');

    expect(await acts.raiseAlert(failed)).toEqual({ id: stored!._id, notified: true });
    expect(alerts.size).toBe(1);
    expect(stored!.notified_at).toEqual(now);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.body).toBe(requests[0]!.body);
  });

  it('without an alert URL, stores the alert only', async () => {
    const { db, alerts } = fakeDb();
    const { post, requests } = fakePost(200);
    expect(await alertActivities(db, post, { alertUrl: undefined, alertSecret: undefined }).raiseAlert(failed)).toMatchObject({ notified: false });
    expect(alerts.size).toBe(1);
    expect(requests).toHaveLength(0);
  });

  it('keeps alerts of different kinds, subscriptions or keys apart', () => {
    const ids = new Set([
      alertId('delivery_failed', 'sub_unit', 'series-1'),
      alertId('delivery_failed', 'sub_unit', 'series-2'),
      alertId('delivery_failed', 'sub_other', 'series-1'),
      alertId('subscription_disabled', 'sub_unit', 'series-1'),
    ]);
    expect(ids.size).toBe(4);
    expect(alertId('delivery_failed', 'sub_unit', 'series-1')).toBe(alertId('delivery_failed', 'sub_unit', 'series-1'));
  });
});

describe('disableSubscription', () => {
  function activities(subscription: Pick<SubscriptionDoc, '_id' | 'status'>) {
    const { db, alerts, subscriptions } = fakeDb(subscription);
    const { post, requests } = fakePost(200);
    const raiseAlert = alertActivities(db, post).raiseAlert;
    return { acts: createSubscriptionActivities({ db, now: () => now, raiseAlert, notifyOperator: () => Promise.resolve() }), alerts, subscriptions, requests };
  }
  const gone = { subscriptionId: 'sub_unit', eventId: 'evt_unit', reason: 'receiver answered 410 Gone to event evt_unit' };

  it('disables the subscription with the reason and raises a subscription_disabled alert', async () => {
    const { acts, alerts, subscriptions, requests } = activities({ _id: 'sub_unit', status: 'active' });
    await acts.disableSubscription(gone);
    expect(subscriptions.get('sub_unit')).toMatchObject({ status: 'disabled', disabled_reason: gone.reason, updated_at: now });
    expect([...alerts.values()]).toEqual([
      expect.objectContaining({
        _id: alertId('subscription_disabled', 'sub_unit', 'evt_unit'),
        kind: 'subscription_disabled',
        event_id: 'evt_unit',
        message: `Subscription sub_unit disabled: ${gone.reason}`,
      }),
    ]);
    expect(requests).toHaveLength(1);
  });

  it('sends the subscription.disabled operational webhook with a stable id, and why', async () => {
    const { db } = fakeDb({ _id: 'sub_unit', status: 'active', owner_id: 'o', url: 'https://receiver.example/hooks' });
    const sent: Array<{ id: string; body: unknown }> = [];
    const acts = createSubscriptionActivities({
      db,
      now: () => now,
      raiseAlert: () => Promise.resolve(),
      notifyOperator: (id, body) => {
        sent.push({ id, body: JSON.parse(body) as unknown });
        return Promise.resolve();
      },
    });
    const since = Date.parse('2025-05-27T00:00:00.000Z');
    await acts.disableSubscription({ ...gone, reason: 'every delivery failed since 2025-05-27T00:00:00.000Z', failingSince: since });
    await acts.disableSubscription({ ...gone, reason: 'every delivery failed since 2025-05-27T00:00:00.000Z', failingSince: since });
    expect(sent).toHaveLength(2);
    expect(sent[0]!.id).toBe('op_subscription.disabled_sub_unit_evt_unit');
    expect(sent[1]!.id).toBe(sent[0]!.id);
    expect(sent[0]!.body).toEqual({
      type: 'subscription.disabled',
      timestamp: now.toISOString(),
      data: { subscription_id: 'sub_unit', owner_id: 'o', url: 'https://receiver.example/hooks', reason: 'every delivery failed since 2025-05-27T00:00:00.000Z', failing_since: '2025-05-27T00:00:00.000Z' },
    });
  });

  it('gives up notifying after its tries but keeps the disable: the workflow is not held forever by a dead alert URL', async () => {
    const { db, subscriptions } = fakeDb({ _id: 'sub_unit', status: 'active' });
    const failing = () => Promise.reject(new Error('operator notification POST failed: HTTP 503'));
    const strict = createSubscriptionActivities({ db, now: () => now, raiseAlert: failing, notifyOperator: failing });
    await expect(strict.disableSubscription(gone)).rejects.toThrow('HTTP 503');
    expect(subscriptions.get('sub_unit')!.status).toBe('disabled');
    // Outside Temporal the try is the first: with one try allowed, the failure is only logged.
    const warnings: string[] = [];
    const lenient = createSubscriptionActivities({ db, now: () => now, raiseAlert: failing, notifyOperator: failing, notifyAttempts: 1, logger: { warn: (_o, msg) => warnings.push(msg) } });
    await expect(lenient.disableSubscription(gone)).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
  });

  it('run again (a retry after a failed alert), still raises the alert, once', async () => {
    const { acts, alerts, subscriptions, requests } = activities({ _id: 'sub_unit', status: 'active' });
    await acts.disableSubscription(gone);
    await acts.disableSubscription({ ...gone, reason: 'another reason' });
    // Already disabled: the first reason stays; the alert is the same one.
    expect(subscriptions.get('sub_unit')!.disabled_reason).toBe(gone.reason);
    expect(alerts.size).toBe(1);
    expect(requests).toHaveLength(1);
  });
});

describe("raiseAlert, within each owner's hourly budget of POSTs", () => {
  const hour = 3_600_000;
  /** A fake database holding `count` subscriptions of each owner, ids `<owner>-<i>`. */
  function owned(owners: Record<string, number>) {
    const fake = fakeDb();
    for (const [owner, count] of Object.entries(owners)) {
      for (let i = 0; i < count; i++) fake.subscriptions.set(`${owner}-${i}`, { _id: `${owner}-${i}`, status: 'active', owner_id: owner } as never);
    }
    return fake;
  }
  const failure = (subscriptionId: string, key = 'series'): AlertInput => ({ kind: 'delivery_failed', subscriptionId, eventId: 'evt_unit', key, message: `failed ${subscriptionId}` });
  const bodies = (requests: PostRequest[]) => requests.map((r) => JSON.parse(r.body) as { owner_id?: string; suppressed?: number; limit_reached?: boolean; alert: { subscription_id: string } });

  it("POSTs at most the limit of one owner's alerts per hour, stores every one, and still POSTs another owner's", async () => {
    const { db, alerts } = owned({ a: 7, b: 1 });
    const { post, requests } = fakePost(200);
    let clock = new Date(Math.floor(now.getTime() / hour) * hour + 60_000);
    const acts = alertActivities(db, post, { alertsPerOwnerPerHour: 3, now: () => clock });
    const results = [];
    for (let i = 0; i < 7; i++) results.push(await acts.raiseAlert(failure(`a-${i}`)));
    results.push(await acts.raiseAlert(failure('b-0')));
    expect(alerts.size).toBe(8);
    expect(results.map((r) => r.notified)).toEqual([true, true, true, false, false, false, false, true]);
    const sent = bodies(requests);
    expect(sent.map((b) => b.alert.subscription_id)).toEqual(['a-0', 'a-1', 'a-2', 'b-0']);
    expect(sent.map((b) => b.owner_id)).toEqual(['a', 'a', 'a', 'b']);
    expect(sent.map((b) => b.limit_reached ?? false)).toEqual([false, false, true, false]);
    expect(sent.every((b) => b.suppressed === undefined)).toBe(true);

    // The next hour: the owner's first POST counts what the last one did not send; the other owner's counts nothing.
    clock = new Date(clock.getTime() + hour);
    await acts.raiseAlert(failure('a-0', 'next'));
    await acts.raiseAlert(failure('a-1', 'next'));
    await acts.raiseAlert(failure('b-0', 'next'));
    expect(bodies(requests.slice(4)).map((b) => [b.owner_id, b.suppressed])).toEqual([['a', 4], ['a', undefined], ['b', undefined]]);
  });

  it('counts alerts not sent back over quiet hours, only up to the hour whose first POST reported them', async () => {
    const { db } = owned({ a: 5 });
    const { post, requests } = fakePost(200);
    const start = Math.floor(now.getTime() / hour) * hour;
    let clock = new Date(start);
    const acts = alertActivities(db, post, { alertsPerOwnerPerHour: 2, now: () => clock });
    for (let i = 0; i < 5; i++) await acts.raiseAlert(failure(`a-${i}`));
    clock = new Date(start + 3 * hour);
    await acts.raiseAlert(failure('a-0', 'later'));
    clock = new Date(start + 5 * hour);
    await acts.raiseAlert(failure('a-1', 'later'));
    expect(bodies(requests).map((b) => b.suppressed)).toEqual([undefined, undefined, 3, undefined]);
  });

  it('a retry after a failed POST sends the same body under the same slot, taking no second one', async () => {
    const { db, slots } = owned({ a: 2 });
    const { post, requests } = fakePost(503, 200);
    const acts = alertActivities(db, post, { alertsPerOwnerPerHour: 1 });
    await expect(acts.raiseAlert(failure('a-0'))).rejects.toThrow('HTTP 503');
    expect(await acts.raiseAlert(failure('a-0'))).toMatchObject({ notified: true });
    expect(await acts.raiseAlert(failure('a-1'))).toMatchObject({ notified: false });
    expect(requests).toHaveLength(2);
    expect(requests[1]!.body).toBe(requests[0]!.body);
    expect(slots.size).toBe(2);
  });

  it('holds across workers: two sharing the database POST the limit between them', async () => {
    const { db } = owned({ a: 10 });
    const { post, requests } = fakePost(200);
    const workers = [alertActivities(db, post, { alertsPerOwnerPerHour: 4 }), alertActivities(db, post, { alertsPerOwnerPerHour: 4 })];
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => workers[i % 2]!.raiseAlert(failure(`a-${i}`))));
    expect(results.filter((r) => r.notified)).toHaveLength(4);
    expect(requests).toHaveLength(4);
    expect(bodies(requests).filter((b) => b.limit_reached)).toHaveLength(1);
  });
});
