import { type BulkWriteResult, type Db, MongoBulkWriteError, MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { type AttemptActivityDeps, type AttemptLogEntry, createAttemptActivities, type MadeAttempt, toAttemptDoc } from '../../../activities/attempt';
import type { PostRequest, PostResult } from '../../../activities/http-post';
import { DEFAULT_INLINE_LIMIT } from '../../../src/config/config';
import { type AttemptDoc, attemptId } from '../../../src/deliveries/attempts';
import type { EventDoc } from '../../../src/events/repository';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { createWorkerMetrics } from '../../../src/telemetry/metrics';
import { xSignature } from '../../../src/webhooks/signature';
import { subscriptionDoc } from '../../support/subscription-doc';

const now = new Date('2025-06-01T12:00:00.000Z');
const secret = `whsec_${Buffer.alloc(24, 3).toString('base64')}`;
const series = 'event/evt_unit#sub_unit';

const event: EventDoc = {
  _id: 'evt_unit',
  type: 'order.created',
  data: { order_id: 7, total: 19.99, currency: 'EUR', status: 'pending', user_id: 1 },
  created_at: now,
  subscription_ids: ['sub_unit'],
};

function subscription(overrides: Partial<SubscriptionDoc> = {}): SubscriptionDoc {
  return subscriptionDoc({ _id: 'sub_unit', owner_id: 'o', url: 'https://receiver.example/hooks', ...overrides }, secret, now);
}

/**
 * A fake Db: just the collection methods the attempt activities call, over in-memory documents,
 * counting reads. `insertMany` into `attempts` answers from `inserts` (then stores the batch);
 * `stored` holds the attempts the write check reads back, `refuse` those a single insert refuses.
 */
function fakeDb(
  opts: { events?: EventDoc[]; subscription?: SubscriptionDoc | null; inserts?: Array<(docs: AttemptDoc[]) => Promise<unknown>>; refuse?: (doc: AttemptDoc) => boolean } = {},
) {
  const events = new Map((opts.events ?? [event]).map((e) => [e._id, e]));
  const state = { subscription: opts.subscription === undefined ? subscription() : opts.subscription };
  const reads = { events: 0, subscriptions: 0 };
  const inserts = [...(opts.inserts ?? [])];
  const batches: AttemptDoc[][] = [];
  const stored = new Map<string, AttemptDoc>();
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
      // The failure-streak bookkeeping after a log write (tested against the real database in endpoint-health.test.ts).
      updateMany: () => Promise.resolve({ matchedCount: 0 }),
      updateOne: () => Promise.resolve({ matchedCount: 0 }),
      find: () => ({ toArray: () => Promise.resolve([]) }),
    },
    // The lists' directory (src/db/timeline.ts): registering a bucket is all these activities do there.
    timeline: { insertMany: (docs: unknown[]) => Promise.resolve({ acknowledged: true, insertedCount: docs.length }) },
    // Held deliveries (src/deliveries/held.ts): a test that holds gives these their methods.
    held_deliveries: {},
    held_slots: {},
    held_marks: {},
    attempts: {
      insertMany: (docs: AttemptDoc[], options: { ordered?: boolean }) => {
        expect(options).toEqual({ ordered: false });
        const answer = inserts.shift();
        if (answer) return answer(docs);
        batches.push(docs);
        for (const d of docs) stored.set(d._id, d);
        return Promise.resolve({ acknowledged: true, insertedCount: docs.length });
      },
      collectionName: 'attempts',
      findOne: (filter: { _id: string }) => Promise.resolve(stored.get(filter._id) ?? null),
      insertOne: (doc: AttemptDoc) => {
        if (stored.has(doc._id)) return Promise.reject(new MongoServerError({ message: 'E11000 duplicate key', code: 11000 }));
        if (opts.refuse?.(doc)) return Promise.reject(new MongoServerError({ message: 'unsupported Unicode escape sequence (SQLSTATE 22P05)', code: 2 }));
        stored.set(doc._id, doc);
        return Promise.resolve({ acknowledged: true, insertedId: doc._id });
      },
    },
  };
  // Other collections are only opened here: a method call on one fails the test.
  const db = { collection: (name: string) => collections[name] ?? {} } as unknown as Db;
  return { db, reads, batches, events, state, stored };
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

function activities(db: Db, post: AttemptActivityDeps['post'], extra: Partial<AttemptActivityDeps> = {}) {
  return createAttemptActivities({ db, allowPrivate: false, timeoutMs: 1000, userAgent: 'WebhookService/unit', payloads: { apiUrl: 'https://hooks.example.com', inlineLimit: DEFAULT_INLINE_LIMIT }, now: () => now, post, ...extra });
}

const attemptInput = (attempt: number) => ({ eventId: event._id, subscriptionId: 'sub_unit', attempt });

/** A made attempt as postAttempts returns it. */
function made(statusCode: number): MadeAttempt {
  return {
    startedAt: now.getTime(),
    durationMs: 12,
    outcome: statusCode < 300 ? 'delivered' : 'http_error',
    statusCode,
    responseExcerpt: `status ${statusCode}`,
    url: 'https://receiver.example/hooks',
  };
}
function entry(attempt: number, result: MadeAttempt, state: AttemptLogEntry['state'], nextAttemptAt?: number): AttemptLogEntry {
  return { eventId: event._id, subscriptionId: 'sub_unit', attempt, series, result, state, ...(nextAttemptAt !== undefined ? { nextAttemptAt } : {}) };
}

/** A bulk insert refused for the given write error codes (by index), as the driver reports it; `inserted` the count it reports stored. */
function bulkError(codes: number[], inserted = 0): MongoBulkWriteError {
  return new MongoBulkWriteError(
    { message: `write errors: ${codes.join(', ')}`, code: codes[0] ?? 2, writeErrors: codes.map((code, index) => ({ code, index, errmsg: `E${code}` })) as never },
    { insertedCount: inserted } as BulkWriteResult,
  );
}

/** Lets a fake database store held deliveries: their records through `insertMany`, slots and markers accepted. */
function holdsInto(db: Db, insertMany: (docs: Array<{ _id: string }>) => Promise<unknown>): void {
  Object.assign(db.collection('held_deliveries'), { insertMany });
  Object.assign(db.collection('held_slots'), { insertMany: () => Promise.resolve({ acknowledged: true, insertedCount: 1 }) });
  Object.assign(db.collection('held_marks'), { insertOne: () => Promise.resolve({ acknowledged: true }) });
}

describe('postAttempts', () => {
  it('POSTs the signed envelope once to the subscription URL and returns the outcome as a value, logging nothing', async () => {
    const { db, batches } = fakeDb();
    const { post, requests } = fakePost(503);
    const result = await activities(db, post).postAttempts([attemptInput(2)]).then(([r]) => r!);

    expect(result).toEqual({ startedAt: now.getTime(), durationMs: 12, outcome: 'http_error', statusCode: 503, responseExcerpt: 'ok', url: 'https://receiver.example/hooks' });
    expect(requests).toHaveLength(1);
    const req = requests[0]!;
    expect(req).toMatchObject({ url: 'https://receiver.example/hooks', timeoutMs: 1000, allowPrivate: false });
    // The stored data, with the link to its resource added at delivery time.
    expect(req.body).toBe(JSON.stringify({ event: 'order.created', id: event._id, data: { ...event.data, url: 'https://hooks.example.com/api/orders/7' } }));
    expect(req.headers).toMatchObject({ 'Content-Type': 'application/json', 'User-Agent': 'WebhookService/unit', 'webhook-id': event._id });
    expect(req.headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(req.headers['X-Signature']).toBe(xSignature(secret, req.body));
    // The workflow settles the outcome and logs it with recordAttempts.
    expect(batches).toEqual([]);
  });

  it('leaves out the items of an envelope over the inline limit and signs the body it sends', async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({ product_id: 100 + i, quantity: 2, unit_price: 9.99 }));
    const big: EventDoc = { ...event, _id: 'evt_big', data: { ...event.data, item_count: items.length, items } };
    const { db } = fakeDb({ events: [big] });
    const { post, requests } = fakePost(200);
    await activities(db, post, { payloads: { apiUrl: 'https://hooks.example.com', inlineLimit: 1024 } }).postAttempts([{ eventId: 'evt_big', subscriptionId: 'sub_unit', attempt: 1 }]);
    const req = requests[0]!;
    expect(Buffer.byteLength(req.body)).toBeLessThanOrEqual(1024);
    expect(JSON.parse(req.body)).toEqual({
      event: 'order.created',
      id: 'evt_big',
      data: { order_id: 7, total: 19.99, currency: 'EUR', status: 'pending', user_id: 1, item_count: 60, url: 'https://hooks.example.com/api/orders/7', truncated: true },
    });
    expect(req.headers['X-Signature']).toBe(xSignature(secret, req.body));
  });

  it('signs with the previous secret too while a rotation overlaps, not once it expired', async () => {
    const previous = `whsec_${Buffer.alloc(24, 4).toString('base64')}`;
    const rotated = (expiresAt: Date) => subscription({ secrets: [{ secret, created_at: now }, { secret: previous, created_at: now, expires_at: expiresAt }] });
    const { db, state } = fakeDb({ subscription: rotated(new Date(now.getTime() + 1000)) });
    const { post, requests } = fakePost(200);
    const acts = activities(db, post);
    await acts.postAttempts([attemptInput(1)]).then(([r]) => r!);
    state.subscription = rotated(now);
    await acts.postAttempts([attemptInput(2)]).then(([r]) => r!);
    expect(requests[0]!.headers['X-Signature-Previous']).toBe(xSignature(previous, requests[0]!.body));
    expect(requests[1]!.headers).not.toHaveProperty('X-Signature-Previous');
  });

  it.each([
    ['paused', subscription({ status: 'paused' }), 'subscription paused'],
    ['disabled', subscription({ status: 'disabled' }), 'subscription disabled'],
    ['deleted', null, 'subscription deleted'],
  ])('skips a %s subscription: no POST, nothing logged', async (_, sub, reason) => {
    const { db, batches } = fakeDb({ subscription: sub });
    const { post, requests } = fakePost(200);
    expect(await activities(db, post).postAttempts([attemptInput(2)]).then(([r]) => r!)).toEqual({ outcome: 'skipped', reason });
    expect(requests).toHaveLength(0);
    expect(batches).toEqual([]);
  });

  it('defers a pull attempt whose inbox cannot be reached rather than fail the round (and re-send its POSTs)', async () => {
    const { db } = fakeDb({ subscription: subscription({ url: 'pull://unit', destination: { type: 'pull' } }) });
    // The inbox collection of the fake has no methods: every call on it throws.
    const [result] = await activities(db, fakePost(200).post).postAttempts([attemptInput(1)]);
    expect(result).toMatchObject({ outcome: 'deferred', waitMs: 1000, hold: 'pull_outcome' });
  });

  it('skips an event that is not logged', async () => {
    const { db } = fakeDb({ events: [] });
    const { post, requests } = fakePost(200);
    expect(await activities(db, post).postAttempts([attemptInput(1)]).then(([r]) => r!)).toEqual({ outcome: 'skipped', reason: 'event not found' });
    expect(requests).toHaveLength(0);
  });

  it('lets a database failure throw, for Temporal to retry', async () => {
    const { db } = fakeDb();
    (db.collection('subscriptions') as unknown as { findOne: () => Promise<never> }).findOne = () => Promise.reject(new Error('connection reset by FerretDB'));
    const { post, requests } = fakePost(200);
    await expect(activities(db, post).postAttempts([attemptInput(1)]).then(([r]) => r!)).rejects.toThrow('connection reset');
    expect(requests).toHaveLength(0);
  });
});

describe('recordAttempts', () => {
  it('logs each settled attempt with the state and next attempt the workflow settled, in one write', async () => {
    const { db, batches } = fakeDb();
    const next = now.getTime() + 5 * 60_000;
    const network: MadeAttempt = { startedAt: now.getTime(), durationMs: 5000, outcome: 'timeout', error: 'no answer within 5000 ms', url: 'https://receiver.example/hooks' };
    await activities(db, fakePost().post).recordAttempts([entry(2, made(503), 'retrying', next), entry(3, network, 'retrying', next + 1), entry(4, made(200), 'delivered')]);

    expect(batches).toHaveLength(1);
    const [retrying, timedOut, delivered] = batches[0]!;
    expect(retrying).toEqual({
      _id: attemptId(series, 2),
      event_id: event._id,
      subscription_id: 'sub_unit',
      series,
      attempt: 2,
      started_at: now,
      duration_ms: 12,
      outcome: 'http_error',
      status_code: 503,
      response_excerpt: 'status 503',
      url: 'https://receiver.example/hooks',
      next_attempt_at: new Date(next),
      state: 'retrying',
      // The lists it is in, each at its 10-second bucket (src/db/timeline.ts).
      tl: ['all', 's:sub_unit', 's:sub_unit|o:http_error|st:retrying', 's:sub_unit|st:retrying', 's:sub_unit|o:http_error'].map(
        (list) => `${list}@0:${Math.floor(now.getTime() / 10_000)}`,
      ),
      // Its second within the bucket, for a dense bucket's reads.
      tl_tenth: Math.floor((now.getTime() % 10_000) / 1000),
      // Its event's group, for the event list's page (src/deliveries/event-groups.ts): an id without a time is a group of its own.
      eg: ['sub_unit~x:evt_unit'],
    });
    expect(timedOut).toMatchObject({ attempt: 3, outcome: 'timeout', error: 'no answer within 5000 ms', next_attempt_at: new Date(next + 1), state: 'retrying' });
    expect(timedOut).not.toHaveProperty('status_code');
    expect(timedOut).not.toHaveProperty('response_excerpt');
    expect(delivered).toMatchObject({ attempt: 4, outcome: 'delivered', status_code: 200, state: 'delivered' });
    expect(delivered).not.toHaveProperty('next_attempt_at');
  });

  it.each([
    [200, 'delivered'],
    [400, 'stopped'],
    [410, 'stopped'],
    [503, 'failed'],
  ] as const)('logs a final state with no next attempt: %i, %s', async (code, state) => {
    const { db, batches } = fakeDb();
    await activities(db, fakePost().post).recordAttempts([entry(7, made(code), state)]);
    expect(batches[0]![0]).toMatchObject({ attempt: 7, status_code: code, state });
    expect(batches[0]![0]).not.toHaveProperty('next_attempt_at');
  });

  it("measures the first-attempt lag on the entries the workflow marks as the event's first attempt only", async () => {
    const { db } = fakeDb();
    const metrics = createWorkerMetrics({ retrying: () => Promise.resolve(0), relayBacklog: () => Promise.resolve(0) });
    const redelivered = { ...entry(1, made(200), 'delivered'), series: 'event/evt_unit/redelivery/rdl_1#sub_unit' };
    await activities(db, fakePost().post, { metrics }).recordAttempts([{ ...entry(1, made(503), 'retrying', now.getTime()), firstOfEvent: true }, entry(2, made(200), 'delivered'), redelivered]);
    const lags = (await metrics.firstAttemptLag.get()).values.find((v) => v.metricName === 'webhook_event_first_attempt_lag_seconds_count');
    expect(lags?.value).toBe(1);
  });

  it('writes nothing for an empty batch', async () => {
    const { db, batches } = fakeDb({ inserts: [() => Promise.reject(new Error('must not be called'))] });
    await activities(db, fakePost().post).recordAttempts([]);
    expect(batches).toEqual([]);
  });

  it('keys each entry by its series and attempt, so a repeated write (a retry, a replay) is a duplicate, and takes that as done once read back', async () => {
    const e = entry(1, made(200), 'delivered');
    expect(toAttemptDoc(e)._id).toBe(toAttemptDoc({ ...e, result: made(503) })._id);
    expect(toAttemptDoc(e)._id).not.toBe(toAttemptDoc({ ...e, series: 'event/evt_unit/redelivery/rdl_1#sub_unit' })._id);
    const both = [e, entry(2, made(200), 'delivered')];
    const { db, stored } = fakeDb({ inserts: [() => Promise.reject(bulkError([11000, 11000]))] });
    for (const d of both.map(toAttemptDoc)) stored.set(d._id, d);
    await expect(activities(db, fakePost().post).recordAttempts(both)).resolves.toEqual({ failing: [] });
  });

  it('throws a failure that says nothing of the batch as it is, for Temporal to retry the write', async () => {
    const error = new Error('connection reset by FerretDB');
    const { db } = fakeDb({ inserts: [() => Promise.reject(error)] });
    await expect(activities(db, fakePost().post).recordAttempts([entry(1, made(200), 'delivered')])).rejects.toBe(error);
  });

  it('takes no duplicate-key error on trust: a "duplicate" not found on reading back is written alone', async () => {
    const { db, stored } = fakeDb({ inserts: [() => Promise.reject(bulkError([11000]))] });
    await activities(db, fakePost().post).recordAttempts([entry(1, made(200), 'delivered')]);
    expect([...stored.values()].map((d) => d.attempt)).toEqual([1]);
  });

  it.each([
    ['an error naming no document', () => Promise.reject(bulkError([], 1))],
    ['a success counting fewer documents', () => Promise.resolve({ acknowledged: true, insertedCount: 1 })],
  ] as const)('after %s, writes each unstored entry alone and fails naming the one the database refuses', async (_, answer) => {
    const entries = [entry(1, made(200), 'delivered'), entry(2, made(200), 'delivered'), entry(3, made(200), 'delivered')];
    const { db, stored } = fakeDb({
      // The database stored the first of the batch only.
      inserts: [(docs) => (stored.set(docs[0]!._id, docs[0]!), answer())],
      refuse: (doc) => doc.attempt === 2,
    });
    await expect(activities(db, fakePost().post).recordAttempts(entries)).rejects.toThrow(/1 document\(s\) of a batch of attempts not stored \(#1: 2: unsupported/);
    expect([...stored.values()].map((d) => d.attempt).sort()).toEqual([1, 3]);
  });

  it('fails when a refused entry is named among duplicates', async () => {
    const { db } = fakeDb({ inserts: [() => Promise.reject(bulkError([11000, 121]))], refuse: (doc) => doc.attempt === 2 });
    await expect(activities(db, fakePost().post).recordAttempts([entry(1, made(200), 'delivered'), entry(2, made(200), 'delivered')])).rejects.toThrow(/not stored/);
  });
});

describe('what a receiver sends back, as postAttempts returns it', () => {
  /** A receiver echoing every request header value after `prefix`; a token endpoint answering `token`. */
  function echoingPost(prefix: string, token = 'oauth-tok-0001') {
    const post = (req: PostRequest): Promise<PostResult> => {
      const body = req.url.endsWith('/token') ? JSON.stringify({ access_token: token, token_type: 'bearer', expires_in: 3600 }) : `${prefix}${Object.values(req.headers).join(' | ')}`;
      return Promise.resolve({ startedAt: now.getTime(), durationMs: 1, outcome: 'delivered', statusCode: 200, responseExcerpt: body });
    };
    return post;
  }
  const excerpt = async (sub: SubscriptionDoc, prefix = '') => {
    const result = await activities(fakeDb({ subscription: sub }).db, echoingPost(prefix)).postAttempts([attemptInput(1)]).then(([r]) => r!);
    if (!('responseExcerpt' in result)) throw new Error(`expected an answer, got ${JSON.stringify(result)}`);
    return result.responseExcerpt;
  };

  it('has NUL and lone surrogates replaced, so the database can store it', async () => {
    expect(await excerpt(subscription(), 'ok\u0000\uD800ok ')).toMatch(/^ok\uFFFD\uFFFDok /);
  });

  it('has custom header values and a static Authorization redacted, its password too', async () => {
    const text = await excerpt(subscription({ headers: [{ name: 'X-Api-Key', value: 'k3y-v4lue-1' }], auth: { type: 'basic', username: 'hooks', password: 'pa55-w0rd' } }), 'pa55-w0rd ');
    expect(text).not.toMatch(/k3y-v4lue-1|pa55-w0rd|Basic /);
    expect(text.startsWith('[redacted] [redacted]')).toBe(true);
  });

  it('has an OAuth 2.0 token it was sent with redacted', async () => {
    const auth = { type: 'oauth2_client_credentials' as const, token_url: 'https://auth.example/token', client_id: 'cid', client_secret: 'client-s3cret' };
    const text = await excerpt(subscription({ auth }), 'client-s3cret ');
    expect(text).not.toMatch(/oauth-tok-0001|client-s3cret/);
    // The client secret the receiver was given, and the Authorization header it was sent.
    expect(text.split('[redacted]')).toHaveLength(3);
  });
});

describe('the event cache of the attempt activities', () => {
  it('reads an event once for every attempt, the subscription on every attempt', async () => {
    const { db, reads, state } = fakeDb();
    const { post, requests } = fakePost(503, 200);
    const acts = activities(db, post);
    await acts.postAttempts([attemptInput(1)]).then(([r]) => r!);
    // A changed URL applies to the next attempt: without SUBSCRIPTION_CACHE_TTL subscriptions are not kept.
    state.subscription = subscription({ url: 'https://moved.example/hooks' });
    expect(await acts.postAttempts([attemptInput(2)]).then(([r]) => r!)).toMatchObject({ outcome: 'delivered', url: 'https://moved.example/hooks' });
    expect(reads).toEqual({ events: 1, subscriptions: 2 });
    expect(requests.map((r) => r.url)).toEqual(['https://receiver.example/hooks', 'https://moved.example/hooks']);
    expect(requests[1]!.body).toBe(requests[0]!.body);
  });

  it('reads a missing event again next time (misses are not kept)', async () => {
    const { db, reads, events } = fakeDb({ events: [] });
    const { post, requests } = fakePost(200);
    const acts = activities(db, post);
    expect(await acts.postAttempts([attemptInput(1)]).then(([r]) => r!)).toEqual({ outcome: 'skipped', reason: 'event not found' });
    events.set(event._id, event);
    expect(await acts.postAttempts([attemptInput(1)]).then(([r]) => r!)).toMatchObject({ outcome: 'delivered' });
    expect(await acts.postAttempts([attemptInput(2)]).then(([r]) => r!)).toMatchObject({ outcome: 'delivered' });
    expect(reads.events).toBe(2);
    expect(requests).toHaveLength(2);
  });

  it('keeps one cache per activities instance (per worker)', async () => {
    const { db, reads } = fakeDb();
    await activities(db, fakePost(200).post).postAttempts([attemptInput(1)]).then(([r]) => r!);
    await activities(db, fakePost(200).post).postAttempts([attemptInput(1)]).then(([r]) => r!);
    expect(reads.events).toBe(2);
  });

  it('honours the configured cache size', async () => {
    const other: EventDoc = { ...event, _id: 'evt_other' };
    const { db, reads } = fakeDb({ events: [event, other] });
    const acts = activities(db, fakePost(200).post, { eventCacheEntries: 1 });
    await acts.postAttempts([attemptInput(1)]).then(([r]) => r!);
    await acts.postAttempts([{ ...attemptInput(1), eventId: other._id }]).then(([r]) => r!);
    await acts.postAttempts([attemptInput(2)]).then(([r]) => r!); // evicted by the other event
    expect(reads.events).toBe(3);
  });

  it('reads no event its workflow carries, and renders the same body as from a read one', async () => {
    const { db, reads } = fakeDb();
    const { post, requests } = fakePost(200);
    const acts = activities(db, post);
    await acts.postAttempts([attemptInput(1)]);
    const { db: db2, reads: reads2 } = fakeDb({ events: [] });
    const { post: post2, requests: requests2 } = fakePost(200);
    const carried = { id: event._id, type: event.type, subscriptionIds: event.subscription_ids, data: event.data, createdAt: event.created_at.toISOString() };
    expect(await activities(db2, post2).postAttempts([attemptInput(1)], carried).then(([r]) => r!)).toMatchObject({ outcome: 'delivered' });
    expect(reads).toEqual({ events: 1, subscriptions: 1 });
    expect(reads2).toEqual({ events: 0, subscriptions: 1 });
    expect(requests2[0]!.body).toBe(requests[0]!.body);
  });
});

describe('the subscription cache of the attempt activities (SUBSCRIPTION_CACHE_TTL)', () => {
  it('uses a read subscription, or its absence, until the TTL has passed since the read', async () => {
    let clock = now.getTime();
    const { db, reads, state } = fakeDb();
    const { post, requests } = fakePost(200);
    const acts = activities(db, post, { subscriptionCacheTtlMs: 1000, now: () => new Date(clock) });
    await acts.postAttempts([attemptInput(1)]);
    state.subscription = subscription({ url: 'https://moved.example/hooks' });
    clock += 1000;
    await acts.postAttempts([attemptInput(2)]);
    expect(requests.map((r) => r.url)).toEqual(['https://receiver.example/hooks', 'https://moved.example/hooks']);
    state.subscription = null;
    clock += 1000;
    expect(await acts.postAttempts([attemptInput(3)]).then(([r]) => r!)).toEqual({ outcome: 'skipped', reason: 'subscription deleted' });
    expect(reads.subscriptions).toBe(3);
  });

  it('holds for a paused subscription read within the TTL, as for any change: a resume applies once the TTL has passed', async () => {
    let clock = now.getTime();
    const { db, reads, state } = fakeDb({ subscription: subscription({ status: 'paused', paused_at: now }) });
    const held: string[] = [];
    const stored = (docs: Array<{ _id: string }>) => Promise.resolve(void held.push(...docs.map((d) => d._id))).then(() => ({ acknowledged: true, insertedCount: docs.length }));
    holdsInto(db, stored);
    const { post, requests } = fakePost(200);
    const acts = activities(db, post, { subscriptionCacheTtlMs: 1000, now: () => new Date(clock) });
    expect(await acts.postAttempts([attemptInput(1)]).then(([r]) => r!)).toMatchObject({ outcome: 'held' });
    state.subscription = subscription();
    clock += 999;
    // Still the cached pause: held too (the hold sweep drains it), not read again.
    expect(await acts.postAttempts([{ ...attemptInput(1), eventId: event._id }], undefined, 'event/evt_other').then(([r]) => r!)).toMatchObject({ outcome: 'held' });
    expect(reads.subscriptions).toBe(1);
    clock += 1;
    expect(await acts.postAttempts([attemptInput(2)]).then(([r]) => r!)).toMatchObject({ outcome: 'delivered' });
    expect(reads.subscriptions).toBe(2);
    expect(held).toHaveLength(2);
    expect(requests).toHaveLength(1);
  });

  it('a drain\'s delivery reads a subscription cached as paused again: held anew it would go behind the drain', async () => {
    const clock = now.getTime();
    const { db, reads, state } = fakeDb({ subscription: subscription({ status: 'paused', paused_at: now }) });
    holdsInto(db, (docs) => Promise.resolve({ acknowledged: true, insertedCount: docs.length }));
    const { post, requests } = fakePost(200);
    const acts = activities(db, post, { subscriptionCacheTtlMs: 60_000, now: () => new Date(clock) });
    expect(await acts.postAttempts([attemptInput(1)]).then(([r]) => r!)).toMatchObject({ outcome: 'held' });
    state.subscription = subscription();
    expect(await acts.postAttempts([attemptInput(1)], undefined, `event/${event._id}/redelivery/held_0123`).then(([r]) => r!)).toMatchObject({ outcome: 'delivered' });
    expect(reads.subscriptions).toBe(2);
    expect(requests).toHaveLength(1);
  });

  it('reads a subscription once for rounds that miss the cache at the same time', async () => {
    const { db, reads } = fakeDb();
    const { post, requests } = fakePost(200);
    const acts = activities(db, post, { subscriptionCacheTtlMs: 1000 });
    await Promise.all([acts.postAttempts([attemptInput(1)]), acts.postAttempts([attemptInput(1)]), acts.postAttempts([attemptInput(2)])]);
    expect(requests).toHaveLength(3);
    expect(reads.subscriptions).toBe(1);
  });

  it('reads on every round without a cache (TTL 0), however many run at once', async () => {
    const { db, reads } = fakeDb();
    const { post } = fakePost(200);
    const acts = activities(db, post, { subscriptionCacheTtlMs: 0 });
    await Promise.all([acts.postAttempts([attemptInput(1)]), acts.postAttempts([attemptInput(2)])]);
    expect(reads.subscriptions).toBe(2);
  });
});

describe('deliverRound', () => {
  it('POSTs, settles by the delivery rules and logs the round in one call', async () => {
    const { db, batches } = fakeDb();
    const { post, requests } = fakePost(503);
    const policy = { scheduleMs: [60_000], maxAttempts: 3, jitterRatio: 0 };
    const round = await activities(db, post).deliverRound({ eventId: event._id, attempts: [attemptInput(1)], policy, due: [['sub_unit', { attempt: 1, at: now.getTime() }]], randoms: [0.5], origin: 'event/evt_unit' });
    expect(requests).toHaveLength(1);
    expect(round).toMatchObject({ logged: true, failing: [], steps: [{ kind: 'settled', subscriptionId: 'sub_unit', attempt: 1, next: { attempt: 2, at: now.getTime() + 60_000 } }] });
    expect(batches.flat().map((d) => [d._id, d.state, d.status_code])).toEqual([[attemptId(series, 1), 'retrying', 503]]);
  });
});
