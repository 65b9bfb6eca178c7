import { randomUUID } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAttemptActivities } from '../../../activities/attempt';
import { REDIS_BODY_FIELD, RedisPool } from '../../../activities/redis-publish';
import { loadConfig } from '../../../src/config/config';
import { createMongo, type Mongo } from '../../../src/db/mongo';
import type { AttemptDoc } from '../../../src/deliveries/attempts';
import type { EventDoc } from '../../../src/events/repository';
import { verify } from '../../../src/receiver';
import { sealDestination } from '../../../src/subscriptions/destination';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { SecretBox } from '../../../src/subscriptions/secret-box';
import { startTestRedis, type TestRedis } from '../../support/redis';
import { waitFor } from '../../support/wait';
import { firstRound as round } from '../../support/first-round';
import { deliverAcrossOutage } from '../../support/broker-outage';

describe('Redis Streams destinations against a real server', () => {
  let mongo: Mongo;
  let redis: TestRedis;
  const secret = `whsec_${Buffer.alloc(24, 5).toString('base64')}`;
  const box = new SecretBox({ id: 'k1', key: Buffer.alloc(32, 9) });

  beforeAll(async () => {
    mongo = createMongo(inject('mongoUri'), `redis_${randomUUID().slice(0, 8)}`, 'redis-test');
    redis = await startTestRedis();
  }, 120_000);
  afterAll(async () => {
    await redis?.close();
    await mongo?.db.dropDatabase();
    await mongo?.close();
  });

  /** A Redis subscription to a stream of its own and `events` events, stored. */
  async function stored(target: { password?: string; maxlen?: number } = {}, events = 1) {
    const now = new Date();
    const tag = randomUUID().replaceAll('-', '').slice(0, 16);
    const id = `sub_${tag}`;
    const stream = `webhooks:${tag}`;
    const destination = sealDestination(box, id, { type: 'redis', stream, password: target.password ?? redis.password, ...(target.maxlen ? { maxlen: target.maxlen } : {}) })!;
    const sub: SubscriptionDoc = { _id: id, owner_id: 'o', url: redis.url, events: ['order.created'], status: 'active', version: 1, secrets: [{ secret: box.seal(secret, id), created_at: now }], destination, created_at: now, updated_at: now };
    const docs: EventDoc[] = Array.from({ length: events }, (_, i) => ({
      _id: `evt_${tag}_${i}`,
      type: 'order.created',
      data: { order_id: i, total: 19.99, currency: 'EUR', status: 'pending', user_id: 1 },
      created_at: now,
      subscription_ids: [sub._id],
    }));
    await mongo.db.collection<SubscriptionDoc>('subscriptions').insertOne(sub);
    await mongo.db.collection<EventDoc>('events').insertMany(docs);
    return { sub, events: docs, stream };
  }

  const activities = () =>
    createAttemptActivities({ db: mongo.db, allowPrivate: true, timeoutMs: 3000, userAgent: 'WebhookService/test', payloads: loadConfig({}).delivery.payloads, secretBox: box });


  it('adds the signed envelope as an entry, and the consumer verifies it with the receiver kit', async () => {
    const { sub, events, stream } = await stored();
    const done = await activities().deliverRound(round(events[0]!._id, sub._id));
    expect(done.steps[0]).toMatchObject({ kind: 'settled', result: { outcome: 'delivered', url: redis.url, statusCode: 200 }, settlement: { state: 'delivered' } });
    const [got, ...more] = await redis.read(stream);
    expect(more).toHaveLength(0);
    const { [REDIS_BODY_FIELD]: body, ...headers } = got!.fields;
    expect(headers).toMatchObject({ 'webhook-id': events[0]!._id, 'Content-Type': 'application/json' });
    expect(verify<{ id: string; event: string }>(body!, headers, secret)).toMatchObject({ id: events[0]!._id, event: 'order.created' });
    const logged = await mongo.db.collection<AttemptDoc>('attempts').findOne({ event_id: events[0]!._id });
    expect(logged).toMatchObject({ outcome: 'delivered', state: 'delivered', url: redis.url });
    expect(logged?.response_excerpt).toBe(`added to stream ${stream} as entry ${got!.id}`);
  });

  it('trims the stream to about maxlen entries', async () => {
    const { sub, events, stream } = await stored({ maxlen: 1 }, 300);
    const a = activities();
    for (const e of events) expect((await a.postAttempts([{ eventId: e._id, subscriptionId: sub._id, attempt: 1 }]))[0]).toMatchObject({ outcome: 'delivered' });
    // Approximate trimming drops whole nodes (100 entries each by default): fewer than were added, never none.
    const kept = await redis.read(stream);
    expect(kept.length).toBeLessThan(300);
    expect(kept.length).toBeGreaterThan(0);
  });

  it('a wrong credential stops with the server refusal as the error, the password never in it', async () => {
    const { sub, events } = await stored({ password: 'wrong-password-value' });
    const step = (await activities().deliverRound(round(events[0]!._id, sub._id))).steps[0]!;
    expect(step).toMatchObject({ result: { outcome: 'rejected' }, settlement: { verdict: 'stop', state: 'stopped' } });
    const error = step.kind === 'settled' && 'error' in step.result ? step.result.error : '';
    expect(error).toMatch(/^the Redis server refused it: WRONGPASS/);
    expect(error).not.toContain('wrong-password-value');
    const after = await mongo.db.collection<SubscriptionDoc>('subscriptions').findOne({ _id: sub._id });
    expect(after?.failing_since).toBeInstanceOf(Date);
  });

  it('a server that never answers times out alone: the same round delivers to the others', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const hung = await stored();
      await mongo.db.collection<SubscriptionDoc>('subscriptions').updateOne({ _id: hung.sub._id }, { $set: { url: `redis://127.0.0.1:${(silent.address() as AddressInfo).port}` } });
      const ok = await stored();
      const results = await activities().postAttempts([
        { eventId: hung.events[0]!._id, subscriptionId: hung.sub._id, attempt: 1 },
        { eventId: ok.events[0]!._id, subscriptionId: ok.sub._id, attempt: 1 },
      ]);
      expect(results.map((r) => r.outcome)).toEqual(['timeout', 'delivered']);
      expect(await redis.read(ok.stream)).toHaveLength(1);
    } finally {
      silent.close();
    }
  });

  it('pools one connection per subscription and connection, reuses it, and closes it when idle', async () => {
    const stream = `pooled:${randomUUID()}`;
    const pool = new RedisPool({ idleMs: 1000 });
    const request = (subscriptionId: string, n: number) => ({
      subscriptionId,
      url: redis.url,
      credentials: { password: redis.password },
      stream,
      messageId: `evt_pool_${subscriptionId}_${n}`,
      body: '{}',
      headers: {},
      timeoutMs: 3000,
      allowPrivate: true,
    });
    const results = await Promise.all([1, 2, 3, 4].map((n) => pool.publish(request('sub_a', n))));
    expect(results.map((r) => r.outcome)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(pool.size).toBe(1);
    await pool.publish(request('sub_b', 1));
    expect(pool.size).toBe(2);
    await waitFor(() => pool.size === 0, 10_000);
    expect(await redis.read(stream)).toHaveLength(5);
    await pool.close();
  });

  it('refuses a loopback server unless private addresses are allowed, before connecting', async () => {
    const result = await new RedisPool().publish({ subscriptionId: 'sub_x', url: redis.url, credentials: {}, stream: 's', messageId: 'evt_x', body: '{}', headers: {}, timeoutMs: 3000, allowPrivate: false });
    expect(result).toMatchObject({ outcome: 'blocked', error: '127.0.0.1 is a loopback address' });
  });

  it('a server stopped mid-load loses nothing: failed adds retry and arrive once it is back', async () => {
    const { sub, events, stream } = await stored({}, 20);
    await deliverAcrossOutage(activities(), sub._id, events, redis);
    const got = await redis.read(stream);
    expect(new Set(got.map((m) => m.fields['webhook-id']))).toEqual(new Set(events.map((e) => e._id)));
    expect(got).toHaveLength(20);
  }, 120_000);
});
