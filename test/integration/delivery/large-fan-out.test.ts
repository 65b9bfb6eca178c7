import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertDoc } from '../../../src/alerts/repository';
import { EventRepository } from '../../../src/events/repository';
import type { AttemptDoc } from '../../../src/deliveries/attempts';
import { seedDemoData } from '../../../src/seed/seed';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { generateSigningSecret } from '../../../src/subscriptions/secrets';
import { eventWorkflowId } from '../../../workflows/ids';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { eventOutcome } from '../../support/event-workflows';
import { startReceiver, type TestReceiver } from '../../support/receiver';

// Temporal warns at 10,240 events in one history (and fails a workflow at 51,200): every
// workflow of a large fan-out must stay under the warning.
const historyWarning = 10_240;

/** `n` active order.created subscriptions of one owner, each to its own path of `receiver`. */
async function insertSubscriptions(api: TestApi, receiver: TestReceiver, n: number, ownerId: string): Promise<string[]> {
  const now = new Date(Date.now() - 1000);
  const docs: SubscriptionDoc[] = Array.from({ length: n }, (_, i) => ({
    _id: `sub_${ownerId}_${String(i).padStart(5, '0')}`,
    owner_id: ownerId,
    url: `${receiver.url}/${i}`,
    events: ['order.created'],
    status: 'active',
    version: 1,
    secrets: [{ secret: generateSigningSecret(), created_at: now }],
    created_at: now,
    updated_at: now,
  }));
  await api.mongo.db.collection<SubscriptionDoc>('subscriptions').insertMany(docs);
  return docs.map((d) => d._id);
}

/** Creates one order through the API and returns its event id. */
async function orderEvent(api: TestApi, ownerId: string): Promise<string> {
  const { client } = await api.clientWith(['orders:write'], ownerId);
  const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
  expect(order.response.status).toBe(201);
  const stored = await api.deps.resources.orders.findById(order.data!.id);
  return stored!.outbox[0]!.id;
}

/** History lengths of the event's workflow and of each of its parts. */
async function historyLengths(api: TestApi, workflowIds: string[]): Promise<number[]> {
  const client = await api.temporal.client();
  return Promise.all(workflowIds.map(async (id) => (await client.workflow.getHandle(id).describe()).historyLength));
}

describe('a large fan-out stays bounded (real Temporal, FerretDB and receivers)', () => {
  const receivers: TestReceiver[] = [];
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
  });

  describe('2,000 subscribers, default batch size', () => {
    let api: TestApi;
    let worker: TestWorker;
    beforeAll(async () => {
      api = await startTestApi();
      await seedDemoData(api.mongo.db);
      worker = await startTestWorker(api);
    });
    afterAll(async () => {
      await worker.stop();
      await api.close();
    });

    it('delivers one event to every subscriber once, in parts of at most DELIVERY_BATCH_SIZE, each history under the warning threshold', async () => {
      const receiver = await startReceiver((_req, res) => res.writeHead(204).end());
      receivers.push(receiver);
      const subscriptionIds = await insertSubscriptions(api, receiver, 2000, 'owner-fan-out');
      const started = Date.now();
      const eventId = await orderEvent(api, 'owner-fan-out');
      const outcome = await eventOutcome(await api.temporal.client(), eventWorkflowId(eventId));
      console.log(`2,000 deliveries of one event took ${Date.now() - started} ms`);

      expect(outcome.state).toBe('delivered');
      expect(Object.keys(outcome.subscriptions).sort()).toEqual(subscriptionIds);
      // Listed rather than counted, so a failure shows what happened to the ones not delivered at once.
      const notAtOnce = Object.entries(outcome.subscriptions).filter(([, s]) => s.state !== 'delivered' || s.attempts !== 1);
      expect(notAtOnce).toEqual([]);
      // Each subscriber got the event exactly once.
      const paths = receiver.received.map((r) => r.url);
      expect(new Set(paths).size).toBe(2000);
      expect(paths).toHaveLength(2000);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([eventId]));

      const batchSize = api.config.delivery.batchSize;
      expect(outcome.parts).toHaveLength(Math.ceil(2000 / batchSize));
      const lengths = await historyLengths(api, [eventWorkflowId(eventId), ...outcome.parts!]);
      console.log(`history lengths: event ${lengths[0]}, parts max ${Math.max(...lengths.slice(1))}`);
      for (const n of lengths) expect(n).toBeLessThan(historyWarning);
      // Every attempt is in the log.
      expect(await api.mongo.db.collection<AttemptDoc>('attempts').countDocuments({ event_id: eventId })).toBe(2000);
      // A subscriber's list of events shows it, though an event this wide is listed once, not per subscriber.
      const listed = await new EventRepository(api.mongo.db).listForSubscription(subscriptionIds[1234]!, 5);
      expect(listed.map((e) => e._id)).toEqual([eventId]);
    });
  });

  describe('the largest batch, every receiver failing through the most attempts', () => {
    let api: TestApi;
    let worker: TestWorker;
    beforeAll(async () => {
      api = await startTestApi({ DELIVERY_BATCH_SIZE: '64', DELIVERY_MAX_ATTEMPTS: '10', DELIVERY_RETRY_SCHEDULE: '100ms', DELIVERY_JITTER: '0.5' });
      await seedDemoData(api.mongo.db);
      worker = await startTestWorker(api);
    });
    afterAll(async () => {
      await worker.stop();
      await api.close();
    });

    it('stays under the warning threshold, one alert per delivery', async () => {
      const receiver = await startReceiver((_req, res) => res.writeHead(503).end('down'));
      receivers.push(receiver);
      const subscriptionIds = await insertSubscriptions(api, receiver, 64, 'owner-failing');
      const eventId = await orderEvent(api, 'owner-failing');
      const outcome = await eventOutcome(await api.temporal.client(), eventWorkflowId(eventId));
      expect(outcome.state).toBe('failed');
      expect(outcome.parts).toBeUndefined();
      expect(Object.values(outcome.subscriptions).map((s) => [s.state, s.attempts])).toEqual(subscriptionIds.map(() => ['failed', 10]));
      expect(receiver.received).toHaveLength(640);
      const [length] = await historyLengths(api, [eventWorkflowId(eventId)]);
      console.log(`64 subscribers × 10 failed attempts: ${length} history events`);
      expect(length).toBeLessThan(historyWarning);
      expect(await api.mongo.db.collection<AlertDoc>('alerts').countDocuments({ event_id: eventId, kind: 'delivery_failed' })).toBe(64);
    });
  });
});
