import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AttemptLogEntry, createAttemptActivities } from '../../../activities/attempt';
import { loadConfig } from '../../../src/config/config';
import { createMongo, type Mongo } from '../../../src/db/mongo';
import type { AttemptDoc } from '../../../src/deliveries/attempts';
import type { EventDoc } from '../../../src/events/repository';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { subscriptionDoc } from '../../support/subscription-doc';

describe('attempt activities against a real receiver and database', () => {
  let mongo: Mongo;
  let receiver: TestReceiver;
  const secret = `whsec_${Buffer.alloc(24, 3).toString('base64')}`;
  const previous = `whsec_${Buffer.alloc(24, 4).toString('base64')}`;

  beforeAll(async () => {
    mongo = createMongo(inject('mongoUri'), `activity_${randomUUID().slice(0, 8)}`, 'activity-test');
    // Answers 200, or the status its URL asks for (`?status=503`).
    receiver = await startReceiver((req, res) => res.writeHead(Number(new URL(req.url, 'http://receiver').searchParams.get('status') ?? 200)).end());
  });
  afterAll(async () => {
    await receiver.close();
    await mongo.db.dropDatabase();
    await mongo.close();
  });

  /** A subscription and an event of the test's own, stored. */
  async function stored(overrides: Partial<SubscriptionDoc> = {}) {
    const now = new Date();
    const tag = randomUUID().replaceAll('-', '').slice(0, 16);
    const sub: SubscriptionDoc = {
      _id: `sub_${tag}`,
      owner_id: 'o',
      url: receiver.url,
      events: ['order.created'],
      status: 'active',
      version: 1,
      secrets: [
        { secret, created_at: now },
        { secret: previous, created_at: now, expires_at: new Date(now.getTime() + 60_000) },
      ],
      created_at: now,
      updated_at: now,
      ...overrides,
    };
    const event: EventDoc = {
      _id: `evt_${tag}`,
      type: 'order.created',
      data: { order_id: 7, total: 19.99, currency: 'EUR', status: 'pending', user_id: 1 },
      created_at: now,
      subscription_ids: [sub._id],
    };
    await mongo.db.collection<SubscriptionDoc>('subscriptions').insertOne(sub);
    await mongo.db.collection<EventDoc>('events').insertOne(event);
    return { sub, event, received: () => receiver.received.filter((r) => r.headers['webhook-id'] === event._id) };
  }
  const activities = () => createAttemptActivities({ db: mongo.db, allowPrivate: true, timeoutMs: 2000, userAgent: 'WebhookService/test', payloads: loadConfig({}).delivery.payloads });

  it('postAttempts sends exactly the signed bytes: X-Signature and both Standard Webhooks signatures verify independently', async () => {
    const { sub, event, received } = await stored();
    const result = await activities().postAttempts([{ eventId: event._id, subscriptionId: sub._id, attempt: 1 }]).then(([r]) => r!);
    expect(result).toMatchObject({ outcome: 'delivered', statusCode: 200, url: receiver.url });
    expect(received()).toHaveLength(1);
    const got = received()[0]!;
    expect(got.body).toBe(JSON.stringify({ event: 'order.created', id: event._id, data: { ...event.data, url: `${loadConfig({}).delivery.payloads.apiUrl}/api/orders/7` } }));
    // Independent verifier: plain node:crypto over the raw bytes received.
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(got.body, 'utf8')).digest('hex');
    expect(got.headers['x-signature']).toBe(`sha256=${expected}`);
    const expectedPrevious = createHmac('sha256', previous).update(got.body).digest('hex');
    expect(got.headers['x-signature-previous']).toBe(`sha256=${expectedPrevious}`);
    // The standardwebhooks library, with each secret of the rotation overlap.
    const headers = {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    };
    expect(headers['webhook-id']).toBe(event._id);
    expect(new Webhook(secret).verify(got.body, headers)).toEqual(JSON.parse(got.body));
    expect(new Webhook(previous).verify(got.body, headers)).toEqual(JSON.parse(got.body));
    expect(got.headers['user-agent']).toBe('WebhookService/test');
    expect(got.headers['content-type']).toBe('application/json');
    // The POST logs nothing itself: the workflow settles it and logs it with recordAttempts.
    expect(await mongo.db.collection<AttemptDoc>('attempts').countDocuments({ event_id: event._id })).toBe(0);
  });

  it('recordAttempts logs settled attempts in one write, with the state and next attempt the workflow settled; a repeat writes none twice', async () => {
    const failing = `${receiver.url}?status=503`;
    const { sub, event, received } = await stored({ url: failing });
    const acts = activities();
    const series = `event/${event._id}#${sub._id}`;
    const first = await acts.postAttempts([{ eventId: event._id, subscriptionId: sub._id, attempt: 3 }]).then(([r]) => r!);
    // A changed URL applies to the next attempt.
    await mongo.db.collection<SubscriptionDoc>('subscriptions').updateOne({ _id: sub._id }, { $set: { url: receiver.url } });
    const second = await acts.postAttempts([{ eventId: event._id, subscriptionId: sub._id, attempt: 4 }]).then(([r]) => r!);
    // Made attempts carry their URL; a skipped, deferred or held answer does not.
    if (!('url' in first) || !('url' in second)) throw new Error('expected two POSTs');
    expect(received()).toHaveLength(2);
    const nextAttemptAt = Date.now() + 60_000;
    const retrying: AttemptLogEntry = { eventId: event._id, subscriptionId: sub._id, attempt: 3, series, result: first, nextAttemptAt, state: 'retrying' };
    const delivered: AttemptLogEntry = { eventId: event._id, subscriptionId: sub._id, attempt: 4, series, result: second, state: 'delivered' };

    await acts.recordAttempts([retrying]);
    // A retried or replayed call repeats what was written already: that entry is not written twice, the new one is.
    await acts.recordAttempts([retrying, delivered]);
    await acts.recordAttempts([retrying, delivered]);
    await acts.recordAttempts([]);
    const logged = await mongo.db.collection<AttemptDoc>('attempts').find({ series }).sort({ attempt: 1 }).toArray();
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({ attempt: 3, outcome: 'http_error', status_code: 503, state: 'retrying', url: failing, next_attempt_at: new Date(nextAttemptAt) });
    expect(logged[1]).toMatchObject({ attempt: 4, outcome: 'delivered', status_code: 200, state: 'delivered', url: receiver.url });
    expect(logged[1]).not.toHaveProperty('next_attempt_at');
    expect(received()).toHaveLength(2);
  });

  it('postAttempts skips a paused subscription without sending anything', async () => {
    const { sub, event, received } = await stored({ status: 'paused' });
    expect(await activities().postAttempts([{ eventId: event._id, subscriptionId: sub._id, attempt: 2 }]).then(([r]) => r!)).toEqual({
      outcome: 'skipped',
      reason: 'subscription paused',
    });
    expect(received()).toHaveLength(0);
  });

  it("postAttempts reads a round of the data owner's subscriptions in one query, and the rest by id", async () => {
    const tag = randomUUID().replaceAll('-', '').slice(0, 12);
    const owner = `owner_${tag}`;
    const now = new Date();
    const sub = (n: string, overrides: Partial<SubscriptionDoc>) => subscriptionDoc({ _id: `sub_${tag}_${n}`, owner_id: owner, url: `${receiver.url}/${n}`, ...overrides }, secret, now);
    // Three of the owner's (one paused since the event), and an admin's that gets every owner's events.
    const subs = [sub('a', {}), sub('b', {}), sub('c', { status: 'paused' }), sub('admin', { owner_id: 'admin', all_owners: true })];
    const event: EventDoc = { _id: `evt_${tag}`, type: 'order.created', data: { order_id: 8 }, created_at: now, data_owner: owner, subscription_ids: subs.map((s) => s._id) };
    await mongo.db.collection<SubscriptionDoc>('subscriptions').insertMany(subs);
    await mongo.db.collection<EventDoc>('events').insertOne(event);

    const watched = new MongoClient(inject('mongoUri'), { monitorCommands: true });
    const finds: Array<Record<string, unknown>> = [];
    watched.on('commandStarted', (e) => {
      if (e.commandName === 'find' && e.command.find === 'subscriptions') finds.push(e.command.filter as Record<string, unknown>);
    });
    try {
      const acts = createAttemptActivities({ db: watched.db(mongo.db.databaseName), allowPrivate: true, timeoutMs: 2000, userAgent: 'WebhookService/test', payloads: loadConfig({}).delivery.payloads });
      const round = await acts.postAttempts(subs.map((s) => ({ eventId: event._id, subscriptionId: s._id, attempt: 1 })));
      expect(round.map((r) => r.outcome)).toEqual(['delivered', 'delivered', 'skipped', 'delivered']);
      expect(finds).toEqual([{ owner_id: owner, events: 'order.created' }, { _id: subs[3]!._id }]);

      // A retry of one of the four reads just that one.
      finds.length = 0;
      const retry = await acts.postAttempts([{ eventId: event._id, subscriptionId: subs[1]!._id, attempt: 2 }]);
      expect(retry.map((r) => r.outcome)).toEqual(['delivered']);
      expect(finds).toEqual([{ _id: subs[1]!._id }]);
    } finally {
      await watched.close();
    }
  });
});
