import { randomUUID } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAttemptActivities } from '../../../activities/attempt';
import { RabbitPool } from '../../../activities/rabbitmq-publish';
import { loadConfig } from '../../../src/config/config';
import { createMongo, type Mongo } from '../../../src/db/mongo';
import type { AttemptDoc } from '../../../src/deliveries/attempts';
import type { EventDoc } from '../../../src/events/repository';
import { verify } from '../../../src/receiver';
import { sealDestination } from '../../../src/subscriptions/destination';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { SecretBox } from '../../../src/subscriptions/secret-box';
import { firstRound as round } from '../../support/first-round';
import { drain, startTestRabbit, type TestRabbit } from '../../support/rabbitmq';
import { waitFor } from '../../support/wait';
import { deliverAcrossOutage } from '../../support/broker-outage';

describe('RabbitMQ destinations against a real broker', () => {
  let mongo: Mongo;
  let rabbit: TestRabbit;
  const secret = `whsec_${Buffer.alloc(24, 5).toString('base64')}`;
  const box = new SecretBox({ id: 'k1', key: Buffer.alloc(32, 9) });
  const exchange = 'webhooks';

  beforeAll(async () => {
    mongo = createMongo(inject('mongoUri'), `rabbit_${randomUUID().slice(0, 8)}`, 'rabbit-test');
    rabbit = await startTestRabbit();
    const admin = await rabbit.admin();
    const ch = await admin.createChannel();
    await ch.assertExchange(exchange, 'direct', { durable: true });
    await ch.close();
  }, 120_000);
  afterAll(async () => {
    await rabbit?.close();
    await mongo?.db.dropDatabase();
    await mongo?.close();
  });

  /** A queue of the test's own bound to the exchange with routing key `key`. */
  async function boundQueue(key: string): Promise<string> {
    const ch = await (await rabbit.admin()).createChannel();
    const { queue } = await ch.assertQueue(`q-${randomUUID()}`, { durable: true });
    await ch.bindQueue(queue, exchange, key);
    await ch.close();
    return queue;
  }

  /** A broker subscription and `events` events of its own, stored. */
  async function stored(target: { routingKey: string; exchange?: string; password?: string }, events = 1) {
    const now = new Date();
    const tag = randomUUID().replaceAll('-', '').slice(0, 16);
    const id = `sub_${tag}`;
    const destination = sealDestination(box, id, { type: 'rabbitmq', exchange: target.exchange ?? exchange, routing_key: target.routingKey, username: rabbit.user, password: target.password ?? rabbit.password })!;
    const sub: SubscriptionDoc = { _id: id, owner_id: 'o', url: rabbit.url, events: ['order.created'], status: 'active', version: 1, secrets: [{ secret: box.seal(secret, id), created_at: now }], destination, created_at: now, updated_at: now };
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

  it('publishes the signed envelope, confirmed, and the consumer verifies it with the receiver kit', async () => {
    const queue = await boundQueue('orders.created');
    const { sub, events } = await stored({ routingKey: 'orders.created' });
    const done = await activities().deliverRound(round(events[0]!._id, sub._id));
    const step = done.steps[0]!;
    expect(step).toMatchObject({ kind: 'settled', result: { outcome: 'delivered', url: rabbit.url }, settlement: { state: 'delivered' } });
    const [got, ...more] = await drain(await rabbit.admin(), queue);
    expect(more).toHaveLength(0);
    expect(got!.message.properties).toMatchObject({ messageId: events[0]!._id, contentType: 'application/json', deliveryMode: 2 });
    // The receiver kit takes the message headers as it takes HTTP headers.
    const verified = verify<{ id: string; event: string }>(got!.body, got!.headers, secret);
    expect(verified).toMatchObject({ id: events[0]!._id, event: 'order.created' });
    expect(Object.keys(got!.headers).sort()).toEqual(['X-Signature', 'webhook-id', 'webhook-signature', 'webhook-timestamp']);
    const logged = await mongo.db.collection<AttemptDoc>('attempts').findOne({ event_id: events[0]!._id });
    expect(logged).toMatchObject({ outcome: 'delivered', state: 'delivered', url: rabbit.url });
  });

  it('an unroutable message comes back (mandatory) and stops the delivery, saying why', async () => {
    const { sub, events } = await stored({ routingKey: 'nobody.listens' });
    const step = (await activities().deliverRound(round(events[0]!._id, sub._id))).steps[0]!;
    expect(step).toMatchObject({ kind: 'settled', result: { outcome: 'rejected' }, settlement: { verdict: 'stop', state: 'stopped' } });
    expect(step.kind === 'settled' && 'error' in step.result ? step.result.error : '').toMatch(/could not route it with routing key nobody\.listens \(NO_ROUTE\)/);
    const logged = await mongo.db.collection<AttemptDoc>('attempts').findOne({ event_id: events[0]!._id });
    expect(logged).toMatchObject({ outcome: 'rejected', state: 'stopped' });
  });

  it('an exchange that does not exist stops, naming it; the next delivery on the connection still goes', async () => {
    const queue = await boundQueue('after.missing');
    const missing = await stored({ routingKey: 'x', exchange: 'no-such-exchange' });
    const a = activities();
    const step = (await a.deliverRound(round(missing.events[0]!._id, missing.sub._id))).steps[0]!;
    expect(step).toMatchObject({ result: { outcome: 'rejected' }, settlement: { state: 'stopped' } });
    expect(step.kind === 'settled' && 'error' in step.result ? step.result.error : '').toMatch(/NOT_FOUND - no exchange 'no-such-exchange'/);
    const ok = await stored({ routingKey: 'after.missing' });
    expect((await a.deliverRound(round(ok.events[0]!._id, ok.sub._id))).steps[0]).toMatchObject({ result: { outcome: 'delivered' } });
    expect(await drain(await rabbit.admin(), queue)).toHaveLength(1);
  });

  it('a wrong credential stops with the broker refusal as the error, the password never in it', async () => {
    const { sub, events } = await stored({ routingKey: 'orders.created', password: 'wrong-password-value' });
    const step = (await activities().deliverRound(round(events[0]!._id, sub._id))).steps[0]!;
    expect(step).toMatchObject({ result: { outcome: 'rejected' }, settlement: { verdict: 'stop', state: 'stopped' } });
    const error = step.kind === 'settled' && 'error' in step.result ? step.result.error : '';
    expect(error).toMatch(/ACCESS.REFUSED/);
    expect(error).not.toContain('wrong-password-value');
    // A failed attempt starts the failure streak that disables a subscription, as for HTTP.
    const after = await mongo.db.collection<SubscriptionDoc>('subscriptions').findOne({ _id: sub._id });
    expect(after?.failing_since).toBeInstanceOf(Date);
  });

  it('a broker that never answers times out alone: the same round delivers to the others', async () => {
    // Accepts connections and says nothing, as a hung broker or a black-holed port would.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const queue = await boundQueue('beside.silent');
      const hung = await stored({ routingKey: 'x' });
      await mongo.db.collection<SubscriptionDoc>('subscriptions').updateOne({ _id: hung.sub._id }, { $set: { url: `amqp://127.0.0.1:${(silent.address() as AddressInfo).port}` } });
      const ok = await stored({ routingKey: 'beside.silent' });
      const results = await activities().postAttempts([
        { eventId: hung.events[0]!._id, subscriptionId: hung.sub._id, attempt: 1 },
        { eventId: ok.events[0]!._id, subscriptionId: ok.sub._id, attempt: 1 },
      ]);
      expect(results.map((r) => r.outcome)).toEqual(['timeout', 'delivered']);
      expect(results[0]).toMatchObject({ error: 'no connection to the broker within 3000 ms' });
      expect(await drain(await rabbit.admin(), queue)).toHaveLength(1);
    } finally {
      silent.close();
    }
  });

  it('pools one connection per subscription and connection, reuses it, and closes it when idle', async () => {
    const queue = await boundQueue('pooled');
    const pool = new RabbitPool({ idleMs: 1000 });
    const request = (subscriptionId: string, n: number) => ({
      subscriptionId,
      url: rabbit.url,
      username: rabbit.user,
      password: rabbit.password,
      exchange,
      routingKey: 'pooled',
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
    expect(await drain(await rabbit.admin(), queue)).toHaveLength(5);
    await pool.close();
  });

  it('a broker stopped mid-load loses nothing: failed publishes retry and arrive once it is back', async () => {
    const queue = await boundQueue('outage');
    const { sub, events } = await stored({ routingKey: 'outage' }, 20);
    await deliverAcrossOutage(activities(), sub._id, events, rabbit);
    const got = await drain(await rabbit.admin(), queue);
    expect(new Set(got.map((m) => m.message.properties.messageId as string))).toEqual(new Set(events.map((e) => e._id)));
  }, 120_000);
});
