import { ApplicationFailure } from '@temporalio/common';
import type { Db } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { type DeliveryActivityDeps, createDeliveryActivities } from '../../../activities/delivery';
import type { PostRequest, PostResult } from '../../../activities/http-post';
import type { AttemptDoc } from '../../../src/deliveries/attempts';
import type { EventDoc } from '../../../src/events/repository';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { type DeliveryPolicy, nextDelayMs } from '../../../workflows/retry-policy';

const now = new Date('2025-06-01T12:00:00.000Z');
const minute = 60_000;
const policy: DeliveryPolicy = { scheduleMs: [1, 5, 15, 30, 60, 120].map((m) => m * minute), maxAttempts: 7, jitterRatio: 0.1 };
const series = 'delivery/evt_unit/sub_unit';

const event: EventDoc = {
  _id: 'evt_unit',
  type: 'order.created',
  data: { order_id: 7, total: 19.99, currency: 'EUR', status: 'pending', user_id: 1 },
  created_at: now,
  subscription_ids: ['sub_unit'],
};

function subscription(overrides: Partial<SubscriptionDoc> = {}): SubscriptionDoc {
  return {
    _id: 'sub_unit',
    owner_id: 'o',
    url: 'https://receiver.example/hooks',
    events: ['order.created'],
    status: 'active',
    version: 1,
    secrets: [{ secret: `whsec_${Buffer.alloc(24, 3).toString('base64')}`, created_at: now }],
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

/** How the fake attempts collection answers one insert. */
type InsertAnswer = 'ok' | 'fail' | 'hang';

/**
 * A fake Db: just the collection methods the delivery activities call, over in-memory
 * documents, counting reads. Inserts into `attempts` answer from `inserts` (then 'ok').
 */
function fakeDb(opts: { events?: EventDoc[]; subscription?: SubscriptionDoc | null; inserts?: InsertAnswer[] } = {}) {
  const events = new Map((opts.events ?? [event]).map((e) => [e._id, e]));
  const state = { subscription: opts.subscription === undefined ? subscription() : opts.subscription };
  const reads = { events: 0, subscriptions: 0 };
  const inserts = [...(opts.inserts ?? [])];
  const attempts: AttemptDoc[] = [];
  let insertCalls = 0;
  const collections: Record<string, object> = {
    events: {
      findOne: (filter: { _id: string }) => {
        reads.events++;
        return Promise.resolve(events.get(filter._id) ?? null);
      },
    },
    subscriptions: {
      findOne: (filter: { _id: string }) => {
        reads.subscriptions++;
        return Promise.resolve(state.subscription && state.subscription._id === filter._id ? state.subscription : null);
      },
    },
    attempts: {
      insertOne: (doc: AttemptDoc) => {
        insertCalls++;
        const answer = inserts.shift() ?? 'ok';
        if (answer === 'fail') return Promise.reject(new Error('connection reset by FerretDB'));
        if (answer === 'hang') return new Promise<never>(() => {});
        attempts.push(doc);
        return Promise.resolve({ acknowledged: true, insertedId: doc._id });
      },
    },
  };
  // Other collections (alerts) are only opened here: a method call on one fails the test.
  const db = { collection: (name: string) => collections[name] ?? {} } as unknown as Db;
  return { db, reads, attempts, events, state, insertCalls: () => insertCalls };
}

/** A receiver answering with `statusCodes` in turn (the last repeats); every request kept. */
function fakePost(...statusCodes: number[]) {
  const requests: PostRequest[] = [];
  const post = (req: PostRequest): Promise<PostResult> => {
    requests.push(req);
    const statusCode = statusCodes[Math.min(requests.length, statusCodes.length) - 1] ?? 200;
    return Promise.resolve({
      startedAt: now.getTime(),
      durationMs: 12,
      outcome: statusCode >= 200 && statusCode < 300 ? 'delivered' : 'http_error',
      statusCode,
      responseExcerpt: 'ok',
    });
  };
  return { post, requests };
}

function activities(db: Db, post: DeliveryActivityDeps['post'], extra: Partial<DeliveryActivityDeps> = {}) {
  return createDeliveryActivities({
    db,
    allowPrivate: false,
    timeoutMs: 1000,
    userAgent: 'WebhookService/unit',
    now: () => now,
    post,
    recordRetryDelaysMs: [0, 0],
    ...extra,
  });
}

const attemptInput = (attempt: number, random = 0.5) => ({ eventId: event._id, subscriptionId: 'sub_unit', attempt, series, policy, random });

describe('attemptAndRecord', () => {
  it('POSTs once, settles with the workflow policy and sample, and logs the attempt itself', async () => {
    const { db, attempts } = fakeDb();
    const { post, requests } = fakePost(503);
    const result = await activities(db, post).attemptAndRecord(attemptInput(2, 0.5));

    const delayMs = nextDelayMs(policy, 2, 0.5);
    expect(delayMs).toBe(5 * minute + Math.floor(5 * minute * 0.05));
    expect(result).toMatchObject({ kind: 'attempted', verdict: 'retry', state: 'retrying', delayMs, nextAttemptAt: now.getTime() + delayMs, recorded: true });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.url).toBe('https://receiver.example/hooks');
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      event_id: event._id,
      subscription_id: 'sub_unit',
      series,
      attempt: 2,
      outcome: 'http_error',
      status_code: 503,
      state: 'retrying',
      next_attempt_at: new Date(now.getTime() + delayMs),
      url: 'https://receiver.example/hooks',
    });
  });

  it('logs a final state with no next attempt: delivered, stopped, 410 gone, and failed on the last attempt', async () => {
    const cases = [
      { code: 200, attempt: 1, verdict: 'delivered', state: 'delivered' },
      { code: 400, attempt: 1, verdict: 'stop', state: 'stopped' },
      { code: 410, attempt: 1, verdict: 'gone', state: 'stopped' },
      { code: 503, attempt: policy.maxAttempts, verdict: 'retry', state: 'failed' },
    ] as const;
    for (const c of cases) {
      const { db, attempts } = fakeDb();
      const result = await activities(db, fakePost(c.code).post).attemptAndRecord(attemptInput(c.attempt));
      expect(result, String(c.code)).toMatchObject({ kind: 'attempted', verdict: c.verdict, state: c.state, delayMs: 0, recorded: true });
      expect(result, String(c.code)).not.toHaveProperty('nextAttemptAt');
      expect(attempts[0], String(c.code)).toMatchObject({ state: c.state });
      expect(attempts[0], String(c.code)).not.toHaveProperty('next_attempt_at');
    }
  });

  it('returns recorded: false (no throw, no second POST) when the log write keeps failing', async () => {
    const { db, attempts, insertCalls } = fakeDb({ inserts: ['fail', 'fail', 'fail', 'fail'] });
    const { post, requests } = fakePost(200);
    const result = await activities(db, post).attemptAndRecord(attemptInput(1));
    expect(result).toMatchObject({ kind: 'attempted', state: 'delivered', recorded: false });
    expect(result.kind === 'attempted' && result.recordError).toContain('connection reset');
    // The first try and one per retry delay, then it gives up.
    expect(insertCalls()).toBe(3);
    expect(requests).toHaveLength(1);
    expect(attempts).toHaveLength(0);
  });

  it('retries the log write in-process and reports recorded once one try lands', async () => {
    const { db, attempts, insertCalls } = fakeDb({ inserts: ['fail', 'ok'] });
    const { post, requests } = fakePost(200);
    expect(await activities(db, post).attemptAndRecord(attemptInput(1))).toMatchObject({ recorded: true });
    expect(insertCalls()).toBe(2);
    expect(attempts).toHaveLength(1);
    expect(requests).toHaveLength(1);
  });

  it('gives up on a log write that hangs after its timeout', async () => {
    const { db } = fakeDb({ inserts: ['hang', 'hang', 'hang'] });
    const started = Date.now();
    const result = await activities(db, fakePost(200).post, { recordWriteTimeoutMs: 20 }).attemptAndRecord(attemptInput(1));
    expect(result).toMatchObject({ recorded: false });
    expect(result.kind === 'attempted' && result.recordError).toContain('no answer within 20 ms');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it.each([
    ['paused', subscription({ status: 'paused' }), 'subscription paused'],
    ['disabled', subscription({ status: 'disabled' }), 'subscription disabled'],
    ['deleted', null, 'subscription deleted'],
  ])('skips a %s subscription: no POST, nothing logged', async (_, sub, reason) => {
    const { db, attempts, insertCalls } = fakeDb({ subscription: sub });
    const { post, requests } = fakePost(200);
    expect(await activities(db, post).attemptAndRecord(attemptInput(2))).toEqual({ kind: 'skipped', reason });
    expect(requests).toHaveLength(0);
    expect(attempts).toHaveLength(0);
    expect(insertCalls()).toBe(0);
  });
});

describe('the event cache of the delivery activities', () => {
  it('reads an event once for the fan-out and every attempt, the subscription on every attempt', async () => {
    const { db, reads, state } = fakeDb();
    const { post, requests } = fakePost(503, 200);
    const acts = activities(db, post);
    expect(await acts.loadEventTargets(event._id)).toEqual({ type: 'order.created', subscriptionIds: ['sub_unit'] });
    await acts.attemptAndRecord(attemptInput(1));
    // A changed URL applies to the next attempt: subscriptions are never cached.
    state.subscription = subscription({ url: 'https://moved.example/hooks' });
    await acts.attemptDelivery({ eventId: event._id, subscriptionId: 'sub_unit', attempt: 2 });
    expect(reads).toEqual({ events: 1, subscriptions: 2 });
    expect(requests.map((r) => r.url)).toEqual(['https://receiver.example/hooks', 'https://moved.example/hooks']);
    expect(requests[1]!.body).toBe(requests[0]!.body);
  });

  it('reads a missing event again next time (misses are not kept)', async () => {
    const { db, reads, events } = fakeDb({ events: [] });
    const { post, requests } = fakePost(200);
    const acts = activities(db, post);
    expect(await acts.attemptAndRecord(attemptInput(1))).toEqual({ kind: 'skipped', reason: 'event not found' });
    await expect(acts.loadEventTargets(event._id)).rejects.toSatisfy((e: unknown) => e instanceof ApplicationFailure && e.nonRetryable === true);
    events.set(event._id, event);
    expect(await acts.attemptAndRecord(attemptInput(1))).toMatchObject({ kind: 'attempted', state: 'delivered' });
    expect(await acts.loadEventTargets(event._id)).toEqual({ type: 'order.created', subscriptionIds: ['sub_unit'] });
    expect(reads.events).toBe(3);
    expect(requests).toHaveLength(1);
  });

  it('keeps one cache per activities instance (per worker)', async () => {
    const { db, reads } = fakeDb();
    await activities(db, fakePost(200).post).loadEventTargets(event._id);
    await activities(db, fakePost(200).post).loadEventTargets(event._id);
    expect(reads.events).toBe(2);
  });
});
