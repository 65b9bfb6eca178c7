import { randomUUID } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAttemptActivities } from '../../../activities/attempt';
import { NatsPool } from '../../../activities/nats-publish';
import { loadConfig } from '../../../src/config/config';
import { createMongo, type Mongo } from '../../../src/db/mongo';
import type { AttemptDoc } from '../../../src/deliveries/attempts';
import type { EventDoc } from '../../../src/events/repository';
import { verify } from '../../../src/receiver';
import { sealDestination } from '../../../src/subscriptions/destination';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { SecretBox } from '../../../src/subscriptions/secret-box';
import { startTestNats, type TestNats } from '../../support/nats';
import { waitFor } from '../../support/wait';
import { firstRound as round } from '../../support/first-round';
import { deliverAcrossOutage } from '../../support/broker-outage';

describe('NATS JetStream destinations against a real server', () => {
  let mongo: Mongo;
  let nats: TestNats;
  const secret = `whsec_${Buffer.alloc(24, 5).toString('base64')}`;
  const box = new SecretBox({ id: 'k1', key: Buffer.alloc(32, 9) });

  beforeAll(async () => {
    mongo = createMongo(inject('mongoUri'), `nats_${randomUUID().slice(0, 8)}`, 'nats-test');
    nats = await startTestNats();
  }, 120_000);
  afterAll(async () => {
    await nats?.close();
    await mongo?.db.dropDatabase();
    await mongo?.close();
  });

  /** A stream of the test's own capturing `subject`. */
  async function stream(subject: string): Promise<string> {
    const name = `S_${randomUUID().replaceAll('-', '')}`;
    await nats.addStream(name, [subject]);
    return name;
  }

  /** A NATS subscription and `events` events of its own, stored. */
  async function stored(target: { subject: string; password?: string }, events = 1) {
    const now = new Date();
    const tag = randomUUID().replaceAll('-', '').slice(0, 16);
    const id = `sub_${tag}`;
    const destination = sealDestination(box, id, { type: 'nats', subject: target.subject, username: nats.user, password: target.password ?? nats.password })!;
    const sub: SubscriptionDoc = { _id: id, owner_id: 'o', url: nats.url, events: ['order.created'], status: 'active', version: 1, secrets: [{ secret: box.seal(secret, id), created_at: now }], destination, created_at: now, updated_at: now };
    const docs: EventDoc[] = Array.from({ length: events }, (_, i) => ({
      _id: `evt_${tag}_${i}`,
      type: 'order.created',
      data: { order_id: i, total: 19.99, currency: 'EUR', status: 'pending', user_id: 1 },
      created_at: now,
      subscription_ids: [sub._id],
    }));
    await mongo.db.collection<SubscriptionDoc>('subscriptions').insertOne(sub);
    await mongo.db.collection<EventDoc>('events').insertMany(docs);
    return { sub, events: docs };
  }

  const activities = () =>
    createAttemptActivities({ db: mongo.db, allowPrivate: true, timeoutMs: 3000, userAgent: 'WebhookService/test', payloads: loadConfig({}).delivery.payloads, secretBox: box });


  it('publishes the signed envelope, acknowledged by JetStream, and the consumer verifies it with the receiver kit', async () => {
    const name = await stream('orders.created');
    const { sub, events } = await stored({ subject: 'orders.created' });
    const done = await activities().deliverRound(round(events[0]!._id, sub._id));
    expect(done.steps[0]).toMatchObject({ kind: 'settled', result: { outcome: 'delivered', url: nats.url, statusCode: 200 }, settlement: { state: 'delivered' } });
    const [got, ...more] = await nats.read(name);
    expect(more).toHaveLength(0);
    expect(got!.headers).toMatchObject({ 'Nats-Msg-Id': events[0]!._id, 'Content-Type': 'application/json' });
    // The receiver kit takes the message headers as it takes HTTP headers.
    expect(verify<{ id: string; event: string }>(got!.body, got!.headers, secret)).toMatchObject({ id: events[0]!._id, event: 'order.created' });
    const logged = await mongo.db.collection<AttemptDoc>('attempts').findOne({ event_id: events[0]!._id });
    expect(logged).toMatchObject({ outcome: 'delivered', state: 'delivered', url: nats.url });
    expect(logged?.response_excerpt).toContain(`stream ${name}`);
  });

  it('a second publish of the same event is stored once (Nats-Msg-Id de-duplication)', async () => {
    const name = await stream('orders.dedup');
    const { sub, events } = await stored({ subject: 'orders.dedup' });
    const a = activities();
    const input = { eventId: events[0]!._id, subscriptionId: sub._id, attempt: 1 };
    expect((await a.postAttempts([input]))[0]).toMatchObject({ outcome: 'delivered' });
    const [again] = await a.postAttempts([{ ...input, attempt: 2 }]);
    expect(again).toMatchObject({ outcome: 'delivered' });
    expect(again && 'responseExcerpt' in again ? again.responseExcerpt : '').toContain('duplicate');
    expect(await nats.read(name)).toHaveLength(1);
  });

  it('a subject no stream captures is retried, saying why, and arrives once a stream captures it', async () => {
    const { sub, events } = await stored({ subject: 'later.stored' });
    const a = activities();
    const step = (await a.deliverRound(round(events[0]!._id, sub._id))).steps[0]!;
    expect(step).toMatchObject({ kind: 'settled', result: { outcome: 'network_error' }, settlement: { verdict: 'retry', state: 'retrying' } });
    expect(step.kind === 'settled' && 'error' in step.result ? step.result.error : '').toMatch(/no JetStream stream captures subject later\.stored/);
    const name = await stream('later.stored');
    expect((await a.postAttempts([{ eventId: events[0]!._id, subscriptionId: sub._id, attempt: 2 }]))[0]).toMatchObject({ outcome: 'delivered' });
    expect((await nats.read(name)).map((m) => m.headers['Nats-Msg-Id'])).toEqual([events[0]!._id]);
  });

  it('a wrong credential stops with the server refusal as the error, the password never in it', async () => {
    await stream('orders.denied');
    const { sub, events } = await stored({ subject: 'orders.denied', password: 'wrong-password-value' });
    const step = (await activities().deliverRound(round(events[0]!._id, sub._id))).steps[0]!;
    expect(step).toMatchObject({ result: { outcome: 'rejected' }, settlement: { verdict: 'stop', state: 'stopped' } });
    const error = step.kind === 'settled' && 'error' in step.result ? step.result.error : '';
    expect(error).toMatch(/refused the credentials: .*Authorization Violation/i);
    expect(error).not.toContain('wrong-password-value');
    const after = await mongo.db.collection<SubscriptionDoc>('subscriptions').findOne({ _id: sub._id });
    expect(after?.failing_since).toBeInstanceOf(Date);
  });

  it('a server that never answers times out alone: the same round delivers to the others', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const name = await stream('beside.silent');
      const hung = await stored({ subject: 'x' });
      await mongo.db.collection<SubscriptionDoc>('subscriptions').updateOne({ _id: hung.sub._id }, { $set: { url: `nats://127.0.0.1:${(silent.address() as AddressInfo).port}` } });
      const ok = await stored({ subject: 'beside.silent' });
      const results = await activities().postAttempts([
        { eventId: hung.events[0]!._id, subscriptionId: hung.sub._id, attempt: 1 },
        { eventId: ok.events[0]!._id, subscriptionId: ok.sub._id, attempt: 1 },
      ]);
      expect(results.map((r) => r.outcome)).toEqual(['timeout', 'delivered']);
      expect(await nats.read(name)).toHaveLength(1);
    } finally {
      silent.close();
    }
  });

  it('pools one connection per subscription and connection, reuses it, and closes it when idle', async () => {
    const name = await stream('pooled');
    const pool = new NatsPool({ idleMs: 1000 });
    const request = (subscriptionId: string, n: number) => ({
      subscriptionId,
      url: nats.url,
      credentials: { username: nats.user, password: nats.password },
      subject: 'pooled',
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
    // Never shared across subscriptions, whoever owns them.
    expect(pool.size).toBe(2);
    await waitFor(() => pool.size === 0, 10_000);
    expect(await nats.read(name)).toHaveLength(5);
    await pool.close();
  });

  it('refuses a loopback server unless private addresses are allowed, before connecting', async () => {
    const result = await new NatsPool().publish({ subscriptionId: 'sub_x', url: nats.url, credentials: {}, subject: 's', messageId: 'evt_x', body: '{}', headers: {}, timeoutMs: 3000, allowPrivate: false });
    expect(result).toMatchObject({ outcome: 'blocked', error: '127.0.0.1 is a loopback address' });
  });

  it('a server stopped mid-load loses nothing: failed publishes retry and arrive once it is back', async () => {
    const name = await stream('outage');
    const { sub, events } = await stored({ subject: 'outage' }, 20);
    await deliverAcrossOutage(activities(), sub._id, events, nats);
    const got = await nats.read(name);
    expect(new Set(got.map((m) => m.headers['Nats-Msg-Id']))).toEqual(new Set(events.map((e) => e._id)));
    expect(got).toHaveLength(20);
  }, 120_000);
});
