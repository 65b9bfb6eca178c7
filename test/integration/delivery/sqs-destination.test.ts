import { randomUUID } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAttemptActivities } from '../../../activities/attempt';
import { SqsPool } from '../../../activities/sqs-send';
import { loadConfig } from '../../../src/config/config';
import { createMongo, type Mongo } from '../../../src/db/mongo';
import type { AttemptDoc } from '../../../src/deliveries/attempts';
import type { EventDoc } from '../../../src/events/repository';
import { verify } from '../../../src/receiver';
import { sealDestination } from '../../../src/subscriptions/destination';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { SecretBox } from '../../../src/subscriptions/secret-box';
import { firstRound as round } from '../../support/first-round';
import { startTestSqs, type TestSqs } from '../../support/sqs';
import { waitFor } from '../../support/wait';
import { deliverAcrossOutage } from '../../support/broker-outage';

// ElasticMQ checks no signature, so a wrong credential cannot be shown to stop here (SQS's own
// answers, InvalidClientTokenId and SignatureDoesNotMatch, are unit-tested): a queue that does
// not exist is the refusal these tests reach.
describe('SQS destinations against a real SQS-compatible server (ElasticMQ)', () => {
  let mongo: Mongo;
  let sqs: TestSqs;
  const secret = `whsec_${Buffer.alloc(24, 6).toString('base64')}`;
  const box = new SecretBox({ id: 'k1', key: Buffer.alloc(32, 8) });
  // Declared in the server's config: they exist from its start, and again after a restart.
  const queues = { delivered: 'delivered', fifo: 'orders.fifo', outage: 'outage', timeout: 'timeout', pooled: 'pooled' };

  beforeAll(async () => {
    mongo = createMongo(inject('mongoUri'), `sqs_${randomUUID().slice(0, 8)}`, 'sqs-test');
    sqs = await startTestSqs(Object.values(queues));
  }, 180_000);
  afterAll(async () => {
    await sqs?.close();
    await mongo?.db.dropDatabase();
    await mongo?.close();
  });

  /** An SQS subscription to `queueUrl` and an event per order id in `orders`, stored. */
  async function stored(queueUrl: string, orders: readonly number[] = [1], headers: Record<string, string> = {}) {
    const now = new Date();
    const tag = randomUUID().replaceAll('-', '').slice(0, 16);
    const id = `sub_${tag}`;
    const destination = sealDestination(box, id, { type: 'sqs', region: sqs.region, access_key_id: sqs.accessKeyId, secret_access_key: sqs.secretAccessKey })!;
    const sealedHeaders = Object.entries(headers).map(([name, value]) => ({ name, value: box.seal(value, id) }));
    const sub: SubscriptionDoc = {
      _id: id,
      owner_id: 'o',
      url: queueUrl,
      events: ['order.created'],
      status: 'active',
      version: 1,
      secrets: [{ secret: box.seal(secret, id), created_at: now }],
      destination,
      ...(sealedHeaders.length ? { headers: sealedHeaders } : {}),
      created_at: now,
      updated_at: now,
    };
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

  it('sends the signed envelope with the headers as message attributes, and the consumer verifies it', async () => {
    const { sub, events } = await stored(sqs.queueUrl(queues.delivered), [1], { 'X-Tenant': 'acme' });
    const step = (await activities().deliverRound(round(events[0]!._id, sub._id))).steps[0]!;
    expect(step).toMatchObject({ kind: 'settled', result: { outcome: 'delivered', url: sub.url }, settlement: { state: 'delivered' } });
    expect(step.kind === 'settled' && 'responseExcerpt' in step.result ? step.result.responseExcerpt : '').toMatch(/^stored by SQS as message [0-9a-f-]+$/);
    const [got] = await sqs.read(queues.delivered, 1);
    // The receiver kit takes the message attributes as it takes HTTP headers.
    expect(verify<{ id: string }>(got!.body, got!.attributes, secret)).toMatchObject({ id: events[0]!._id });
    expect(Object.keys(got!.attributes).sort()).toEqual(['Content-Type', 'X-Signature', 'X-Tenant', 'webhook-id', 'webhook-signature', 'webhook-timestamp']);
    expect(got!.attributes).toMatchObject({ 'Content-Type': 'application/json', 'X-Tenant': 'acme', 'webhook-id': events[0]!._id });
    expect(got!.groupId).toBeUndefined();
    const logged = await mongo.db.collection<AttemptDoc>('attempts').findOne({ event_id: events[0]!._id });
    expect(logged).toMatchObject({ outcome: 'delivered', state: 'delivered', url: sub.url, status_code: 200 });
  }, 60_000);

  it("a FIFO queue groups by order and de-duplicates by event id: one order's events in order, a resend dropped", async () => {
    const { sub, events } = await stored(sqs.queueUrl(queues.fifo), [1, 2, 1, 3, 1]);
    const a = activities();
    for (const e of events) expect((await a.deliverRound(round(e._id, sub._id))).steps[0]).toMatchObject({ result: { outcome: 'delivered' } });
    // Sent again, as a retry after a lost answer would be: SQS keeps one copy.
    expect((await a.postAttempts([{ eventId: events[0]!._id, subscriptionId: sub._id, attempt: 2 }]))[0]).toMatchObject({ outcome: 'delivered' });
    const got = await sqs.read(queues.fifo, events.length);
    expect(got).toHaveLength(events.length);
    for (const m of got) {
      const verified = verify<{ id: string; data: { order_id: number } }>(m.body, m.attributes, secret);
      expect(m.groupId).toBe(`order:${verified.data.order_id}`);
      expect(m.deduplicationId).toBe(verified.id);
    }
    expect(got.filter((m) => m.groupId === 'order:1').map((m) => m.attributes['webhook-id'])).toEqual([events[0]!._id, events[2]!._id, events[4]!._id]);
  }, 60_000);

  it('a queue that does not exist stops, naming it; the next delivery to one that does still goes', async () => {
    const missingUrl = sqs.queueUrl('no-such-queue');
    const missing = await stored(missingUrl);
    const a = activities();
    const step = (await a.deliverRound(round(missing.events[0]!._id, missing.sub._id))).steps[0]!;
    expect(step).toMatchObject({ kind: 'settled', result: { outcome: 'rejected' }, settlement: { verdict: 'stop', state: 'stopped' } });
    expect(errorOf(step)).toMatch(new RegExp(`^queue ${missingUrl.replaceAll('.', '\\.')} does not exist: .*\\((QueueDoesNotExist|AWS\\.SimpleQueueService\\.NonExistentQueue)\\)$`));
    expect(errorOf(step)).not.toContain(sqs.secretAccessKey);
    const after = await mongo.db.collection<SubscriptionDoc>('subscriptions').findOne({ _id: missing.sub._id });
    expect(after?.failing_since).toBeInstanceOf(Date);
    const ok = await stored(sqs.queueUrl(queues.delivered));
    expect((await a.deliverRound(round(ok.events[0]!._id, ok.sub._id))).steps[0]).toMatchObject({ result: { outcome: 'delivered' } });
    expect(await sqs.read(queues.delivered, 1)).toHaveLength(1);
  }, 60_000);

  it('a server that never answers times out alone: the same round delivers to the others', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const hung = await stored(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/000000000000/${queues.timeout}`);
      const ok = await stored(sqs.queueUrl(queues.timeout));
      const results = await activities().postAttempts([
        { eventId: hung.events[0]!._id, subscriptionId: hung.sub._id, attempt: 1 },
        { eventId: ok.events[0]!._id, subscriptionId: ok.sub._id, attempt: 1 },
      ]);
      expect(results.map((r) => r.outcome)).toEqual(['timeout', 'delivered']);
      expect(await sqs.read(queues.timeout, 1)).toHaveLength(1);
    } finally {
      silent.close();
    }
  }, 60_000);

  it('pools one client per subscription and connection, reuses it, and destroys it when idle', async () => {
    const pool = new SqsPool({ idleMs: 1000 });
    const request = (subscriptionId: string, n: number) => ({
      subscriptionId,
      url: sqs.queueUrl(queues.pooled),
      region: sqs.region,
      accessKeyId: sqs.accessKeyId,
      secretAccessKey: sqs.secretAccessKey,
      groupId: `order:${n}`,
      messageId: `evt_${subscriptionId}_${n}`,
      body: '{}',
      headers: {},
      timeoutMs: 5000,
      allowPrivate: true,
    });
    const results = await Promise.all([1, 2, 3, 4].map((n) => pool.send(request('sub_a', n))));
    expect(results.map((r) => r.outcome)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(pool.size).toBe(1);
    await pool.send(request('sub_b', 1));
    // Never shared across subscriptions, whoever owns them.
    expect(pool.size).toBe(2);
    await waitFor(() => pool.size === 0, 10_000);
    expect(await sqs.read(queues.pooled, 5)).toHaveLength(5);
    await pool.close();
  }, 60_000);

  it('refuses a loopback server unless private addresses are allowed, before connecting', async () => {
    const result = await new SqsPool().send({
      subscriptionId: 'sub_x',
      url: sqs.queueUrl(queues.pooled),
      region: sqs.region,
      accessKeyId: sqs.accessKeyId,
      secretAccessKey: sqs.secretAccessKey,
      groupId: 'order:1',
      messageId: 'evt_x',
      body: '{}',
      headers: {},
      timeoutMs: 3000,
      allowPrivate: false,
    });
    expect(result).toMatchObject({ outcome: 'blocked', error: '127.0.0.1 is a loopback address' });
  });

  it('a server stopped mid-load loses nothing: failed sends retry and arrive once it is back', async () => {
    const { sub, events } = await stored(sqs.queueUrl(queues.outage), Array.from({ length: 20 }, (_, i) => i % 4));
    // The queue is declared in ElasticMQ's config and its messages kept on disk: the 8 sent before the stop are still there after it.
    await deliverAcrossOutage(activities(), sub._id, events, sqs);
    const got = await sqs.read(queues.outage, events.length);
    expect(new Set(got.map((m) => m.attributes['webhook-id']))).toEqual(new Set(events.map((e) => e._id)));
    expect(got).toHaveLength(20);
  }, 180_000);
});
