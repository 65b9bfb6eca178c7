import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDeliveryActivities } from '../../../activities/delivery';
import { createMongo, type Mongo } from '../../../src/db/mongo';
import type { AttemptDoc } from '../../../src/deliveries/attempts';
import type { EventDoc } from '../../../src/events/repository';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { startReceiver, type TestReceiver } from '../../support/receiver';

describe('attemptDelivery activity against a real receiver', () => {
  let mongo: Mongo;
  let receiver: TestReceiver;
  const secret = `whsec_${Buffer.alloc(24, 3).toString('base64')}`;
  const previous = `whsec_${Buffer.alloc(24, 4).toString('base64')}`;

  beforeAll(async () => {
    mongo = createMongo(inject('mongoUri'), `activity_${randomUUID().slice(0, 8)}`, 'activity-test');
    receiver = await startReceiver((_req, res) => res.writeHead(200).end());
  });
  afterAll(async () => {
    await receiver.close();
    await mongo.db.dropDatabase();
    await mongo.close();
  });

  it('sends exactly the signed bytes: X-Signature and both Standard Webhooks signatures verify independently', async () => {
    const now = new Date();
    const sub: SubscriptionDoc = {
      _id: 'sub_0000000000000000activity',
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
    };
    const event: EventDoc = {
      _id: 'evt_0000000000000000activity',
      type: 'order.created',
      data: { order_id: 7, total: 19.99, currency: 'EUR', status: 'pending', user_id: 1 },
      created_at: now,
      subscription_ids: [sub._id],
    };
    await mongo.db.collection<SubscriptionDoc>('subscriptions').insertOne(sub);
    await mongo.db.collection<EventDoc>('events').insertOne(event);
    const acts = createDeliveryActivities({ db: mongo.db, allowPrivate: true, timeoutMs: 2000, userAgent: 'WebhookService/test' });

    const result = await acts.attemptDelivery({ eventId: event._id, subscriptionId: sub._id, attempt: 1 });
    expect(result).toMatchObject({ outcome: 'delivered', statusCode: 200, url: receiver.url });
    const got = receiver.received[0]!;
    expect(got.body).toBe(JSON.stringify({ event: 'order.created', id: event._id, data: event.data }));
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
  });

  it('attemptAndRecord POSTs once and logs the attempt with the state and next attempt it settled', async () => {
    const acts = createDeliveryActivities({ db: mongo.db, allowPrivate: true, timeoutMs: 2000, userAgent: 'x' });
    const before = receiver.received.length;
    const policy = { scheduleMs: [60_000], maxAttempts: 3, jitterRatio: 0.1 };
    const series = `delivery/evt_0000000000000000activity/sub_0000000000000000activity/${randomUUID()}`;
    const input = { eventId: 'evt_0000000000000000activity', subscriptionId: 'sub_0000000000000000activity', attempt: 3, series, policy, random: 0.25 };
    const result = await acts.attemptAndRecord(input);
    expect(result).toMatchObject({ kind: 'attempted', verdict: 'delivered', state: 'delivered', delayMs: 0, recorded: true });
    expect(receiver.received).toHaveLength(before + 1);
    const logged = await mongo.db.collection<AttemptDoc>('attempts').find({ series }).toArray();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ attempt: 3, outcome: 'delivered', status_code: 200, state: 'delivered', url: receiver.url });
    expect(logged[0]).not.toHaveProperty('next_attempt_at');
    // The fallback the workflow runs when the activity could not log: a repeat writes nothing new.
    if (result.kind !== 'attempted') throw new Error('expected an attempt');
    await acts.recordAttempt({ ...input, result: result.result, state: result.state });
    expect(await mongo.db.collection<AttemptDoc>('attempts').countDocuments({ series })).toBe(1);
  });

  it('skips a paused subscription without sending anything', async () => {
    await mongo.db.collection<SubscriptionDoc>('subscriptions').updateOne({ _id: 'sub_0000000000000000activity' }, { $set: { status: 'paused' } });
    const before = receiver.received.length;
    const acts = createDeliveryActivities({ db: mongo.db, allowPrivate: true, timeoutMs: 2000, userAgent: 'x' });
    expect(await acts.attemptDelivery({ eventId: 'evt_0000000000000000activity', subscriptionId: 'sub_0000000000000000activity', attempt: 2 })).toEqual({
      outcome: 'skipped',
      reason: 'subscription paused',
    });
    expect(receiver.received).toHaveLength(before);
  });
});
