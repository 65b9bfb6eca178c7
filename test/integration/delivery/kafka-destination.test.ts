import { randomUUID } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAttemptActivities } from '../../../activities/attempt';
import { KafkaPool } from '../../../activities/kafka-produce';
import { loadConfig } from '../../../src/config/config';
import { createMongo, type Mongo } from '../../../src/db/mongo';
import type { AttemptDoc } from '../../../src/deliveries/attempts';
import type { EventDoc } from '../../../src/events/repository';
import { verify } from '../../../src/receiver';
import { sealDestination } from '../../../src/subscriptions/destination';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { SecretBox } from '../../../src/subscriptions/secret-box';
import { firstRound as round } from '../../support/first-round';
import { startTestKafka, type TestKafka } from '../../support/kafka';
import { waitFor } from '../../support/wait';
import { deliverAcrossOutage } from '../../support/broker-outage';

describe('Kafka destinations against a real broker', () => {
  let mongo: Mongo;
  let kafka: TestKafka;
  const secret = `whsec_${Buffer.alloc(24, 5).toString('base64')}`;
  const box = new SecretBox({ id: 'k1', key: Buffer.alloc(32, 9) });

  beforeAll(async () => {
    mongo = createMongo(inject('mongoUri'), `kafka_${randomUUID().slice(0, 8)}`, 'kafka-test');
    kafka = await startTestKafka();
  }, 180_000);
  afterAll(async () => {
    await kafka?.close();
    await mongo?.db.dropDatabase();
    await mongo?.close();
  });

  /** A topic of the test's own. */
  async function topic(partitions = 3): Promise<string> {
    const name = `t-${randomUUID().slice(0, 8)}`;
    await kafka.createTopic(name, partitions);
    return name;
  }

  /** A Kafka subscription and an event per order id in `orders`, stored. */
  async function stored(target: { topic: string; password?: string }, orders: readonly number[] = [1]) {
    const now = new Date();
    const tag = randomUUID().replaceAll('-', '').slice(0, 16);
    const id = `sub_${tag}`;
    const destination = sealDestination(box, id, { type: 'kafka', topic: target.topic, username: kafka.user, password: target.password ?? kafka.password })!;
    const sub: SubscriptionDoc = { _id: id, owner_id: 'o', url: `kafka://${kafka.broker}`, events: ['order.created'], status: 'active', version: 1, secrets: [{ secret: box.seal(secret, id), created_at: now }], destination, created_at: now, updated_at: now };
    const docs: EventDoc[] = orders.map((order, i) => ({
      _id: `evt_${tag}_${i}`,
      type: 'order.created',
      data: { order_id: order, total: 19.99, currency: 'EUR', status: 'pending', user_id: 1 },
      created_at: now,
      subscription_ids: [sub._id],
    }));
    await mongo.db.collection<SubscriptionDoc>('subscriptions').insertOne(sub);
    await mongo.db.collection<EventDoc>('events').insertMany(docs);
    return { sub, events: docs };
  }

  const activities = () =>
    createAttemptActivities({ db: mongo.db, allowPrivate: true, timeoutMs: 5000, userAgent: 'WebhookService/test', payloads: loadConfig({}).delivery.payloads, secretBox: box });

  const errorOf = (step: { kind: string; result?: unknown }) => (step.kind === 'settled' && step.result && typeof step.result === 'object' && 'error' in step.result ? String(step.result.error) : '');

  it("produces the signed envelope keyed by order, one order's events in one partition in order, and the consumer verifies it", async () => {
    const t = await topic();
    const { sub, events } = await stored({ topic: t }, [1, 2, 1, 3, 1]);
    const a = activities();
    for (const e of events) {
      const step = (await a.deliverRound(round(e._id, sub._id))).steps[0]!;
      expect(step).toMatchObject({ kind: 'settled', result: { outcome: 'delivered', url: sub.url }, settlement: { state: 'delivered' } });
    }
    const got = await kafka.read(t, events.length);
    expect(got).toHaveLength(events.length);
    for (const m of got) {
      // The receiver kit takes the record headers as it takes HTTP headers.
      const verified = verify<{ id: string; data: { order_id: number } }>(m.body, m.headers, secret);
      expect(m.key).toBe(`order:${verified.data.order_id}`);
      expect(m.headers['content-type']).toBe('application/json');
    }
    const orderOne = got.filter((m) => m.key === 'order:1');
    expect(new Set(orderOne.map((m) => m.partition)).size).toBe(1);
    expect(orderOne.map((m) => m.headers['webhook-id'])).toEqual([events[0]!._id, events[2]!._id, events[4]!._id]);
    expect(Object.keys(got[0]!.headers).sort()).toEqual(['X-Signature', 'content-type', 'webhook-id', 'webhook-signature', 'webhook-timestamp']);
    const logged = await mongo.db.collection<AttemptDoc>('attempts').findOne({ event_id: events[0]!._id });
    expect(logged).toMatchObject({ outcome: 'delivered', state: 'delivered', url: sub.url, status_code: 200 });
  }, 60_000);

  it('a topic that does not exist stops, naming it; the next delivery with the producer still goes', async () => {
    const missing = await stored({ topic: 'no-such-topic' });
    const a = activities();
    const step = (await a.deliverRound(round(missing.events[0]!._id, missing.sub._id))).steps[0]!;
    expect(step).toMatchObject({ kind: 'settled', result: { outcome: 'rejected' }, settlement: { verdict: 'stop', state: 'stopped' } });
    expect(errorOf(step)).toMatch(/^topic no-such-topic: .*\(UNKNOWN_TOPIC_OR_PARTITION\)$/);
    const t = await topic();
    const ok = await stored({ topic: t });
    expect((await a.deliverRound(round(ok.events[0]!._id, ok.sub._id))).steps[0]).toMatchObject({ result: { outcome: 'delivered' } });
    expect(await kafka.read(t, 1)).toHaveLength(1);
  }, 60_000);

  it('a wrong credential stops with the authentication failure as the error, the password never in it', async () => {
    const { sub, events } = await stored({ topic: await topic(), password: 'wrong-password-value' });
    const step = (await activities().deliverRound(round(events[0]!._id, sub._id))).steps[0]!;
    expect(step).toMatchObject({ result: { outcome: 'rejected' }, settlement: { verdict: 'stop', state: 'stopped' } });
    expect(errorOf(step)).toMatch(/^authentication failed: .*Invalid username or password/);
    expect(errorOf(step)).not.toContain('wrong-password-value');
    const after = await mongo.db.collection<SubscriptionDoc>('subscriptions').findOne({ _id: sub._id });
    expect(after?.failing_since).toBeInstanceOf(Date);
  }, 60_000);

  it('a broker that never answers times out alone: the same round delivers to the others', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const t = await topic();
      const hung = await stored({ topic: t });
      await mongo.db.collection<SubscriptionDoc>('subscriptions').updateOne({ _id: hung.sub._id }, { $set: { url: `kafka://127.0.0.1:${(silent.address() as AddressInfo).port}` } });
      const ok = await stored({ topic: t });
      const results = await activities().postAttempts([
        { eventId: hung.events[0]!._id, subscriptionId: hung.sub._id, attempt: 1 },
        { eventId: ok.events[0]!._id, subscriptionId: ok.sub._id, attempt: 1 },
      ]);
      expect(results.map((r) => r.outcome)).toEqual(['timeout', 'delivered']);
      expect(await kafka.read(t, 1)).toHaveLength(1);
    } finally {
      silent.close();
    }
  }, 60_000);

  it('pools one producer per subscription and connection, reuses it, and disconnects it when idle', async () => {
    const t = await topic();
    const pool = new KafkaPool({ idleMs: 1000 });
    const request = (subscriptionId: string, n: number) => ({
      subscriptionId,
      url: `kafka://${kafka.broker}`,
      brokers: [],
      sasl: { mechanism: 'plain' as const, username: kafka.user, password: kafka.password },
      topic: t,
      key: `order:${n}`,
      messageId: `evt_${n}`,
      body: '{}',
      headers: {},
      timeoutMs: 5000,
      allowPrivate: true,
    });
    const results = await Promise.all([1, 2, 3, 4].map((n) => pool.produce(request('sub_a', n))));
    expect(results.map((r) => r.outcome)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(pool.size).toBe(1);
    await pool.produce(request('sub_b', 1));
    // Never shared across subscriptions, whoever owns them.
    expect(pool.size).toBe(2);
    await waitFor(() => pool.size === 0, 10_000);
    expect(await kafka.read(t, 5)).toHaveLength(5);
    await pool.close();
  }, 60_000);

  it('a broker stopped mid-load loses nothing: failed produces retry and arrive once it is back', async () => {
    const t = await topic();
    const { sub, events } = await stored({ topic: t }, Array.from({ length: 20 }, (_, i) => i % 4));
    await deliverAcrossOutage(activities(), sub._id, events, kafka);
    const got = await kafka.read(t, events.length);
    expect(new Set(got.map((m) => m.headers['webhook-id']))).toEqual(new Set(events.map((e) => e._id)));
  }, 180_000);
});
