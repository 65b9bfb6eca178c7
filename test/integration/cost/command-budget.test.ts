import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { createMongo, type Mongo } from '../../../src/db/mongo';
import { type OrderDoc, orderKey } from '../../../src/orders/repository';
import { seedDemoData } from '../../../src/seed/seed';
import { dbCommandCounter, type DbCommandCounter } from '../../../src/telemetry/db-commands';
import { createApiMetrics } from '../../../src/telemetry/metrics';
import { eventWorkflowId } from '../../../workflows/ids';
import { counts, moved, total } from '../../support/db-commands';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { eventOutcome, terminateLeftRunning } from '../../support/event-workflows';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

/*
 * Each budget is the count measured when it was pinned: a change that adds a round trip to one of
 * these paths fails here, and a change that removes one lowers its budget. Two kinds of command
 * depend on the clock, not on the order, so they are left out of the budgets and bounded apart:
 * the batched removal of dispatch notes (a 50 ms timer groups the deletes; never more deletes than
 * notes) and the timeline's directory entries (written by a process when a list's 10-second bucket
 * is first used; at most one insert per listed document written), and the copies of stock levels
 * (a 50 ms timer groups the moves of all products into one write; never more writes than moves).
 */
// API, order of two lines, no subscriber, caches warm: the order's dispatch note (holding its reservation), one insert
// of both stock moves (from the heads this process knows: no reads), the order; at most one rate-limit block take (a
// block lasts several requests). The API key and the fan-out reads are served by caches filled by the warm-up order.
const orderBudgetNoSubscriber = 4;
// API, the same order with one subscriber: as above plus one event-log insert for all its subscribed events (the
// warm-up order refilled the fan-out reads the subscription's creation dropped from this process's cache).
const orderBudgetOneSubscriber = 5;
// Worker, one event to one subscription: the attempt-log insert. The event comes in the workflow's input; the
// subscription was read by an earlier round less than SUBSCRIPTION_CACHE_TTL ago (the warm-up's); a delivering
// subscription has no failure streak to write.
const deliveryBudget = 1;
// API, a status change with one subscriber to order.updated, caches warm: the order's read, its claim on the order's
// next place (FerretDB v1's updates are not atomic; see OrderRepository.transition), its dispatch note, the conditional
// update, one event-log insert; at most one rate-limit block take.
const statusChangeBudget = 6;

/** The commands counted against a budget, and the clock-driven ones apart. */
function budgeted(c: Record<string, number>): { counted: number; noteRemovals: number; timelineEntries: number; stockCopies: number } {
  const noteRemovals = c['delete dispatch_notes'] ?? 0;
  const timelineEntries = c['insert timeline'] ?? 0;
  const stockCopies = c['update stock'] ?? 0;
  return { counted: total(c) - noteRemovals - timelineEntries - stockCopies, noteRemovals, timelineEntries, stockCopies };
}

/** Listed documents an order writes: the order and, with a subscriber, its event. */
const listedWrites = (subscribers: number) => 1 + subscribers;

describe('database commands per order and per delivery stay within their budgets', () => {
  let api: TestApi;
  let apiCommands: DbCommandCounter;
  let workerMongo: Mongo;
  // The test's own reads, on a client nobody counts.
  let observer: Mongo;
  let workerCommands: DbCommandCounter;
  let worker: TestWorker;
  let receiver: TestReceiver;
  let client: WebhookServiceClient;

  beforeAll(async () => {
    // The real API's metrics: its database client counts into their db_commands_total.
    const metrics = createApiMetrics();
    apiCommands = metrics.dbCommands;
    // A subscription delivered to within the TTL is not read again: the steady state under load, without a race against the clock.
    api = await startTestApi({ SUBSCRIPTION_CACHE_TTL: '10m' }, { metrics });
    // Stock far above any threshold: no order here crosses into `stock.low`, a type whose fan-out is not cached yet.
    await seedDemoData(api.mongo.db, { stock: 100_000 });
    // The worker on a client of its own, so its commands are counted apart from the API's.
    workerCommands = dbCommandCounter(new Registry());
    workerMongo = createMongo(api.config.mongo.connectUri, api.config.mongo.dbName, 'worker-budget-test', undefined, workerCommands);
    worker = await startTestWorker(api, { db: workerMongo.db });
    observer = createMongo(api.config.mongo.connectUri, api.config.mongo.dbName, 'observer-budget-test');
    receiver = await startReceiver((_req, res) => res.writeHead(200).end('ok'));
    ({ client } = await api.clientWith(['orders:write', 'webhooks:write', 'webhooks:read', 'resources:read'], 'owner-budget'));
  });
  afterAll(async () => {
    expect(await terminateLeftRunning(await api.temporal.client(), api.config.temporal.taskQueue)).toEqual([]);
    await worker.stop();
    await receiver.close();
    await Promise.all([workerMongo.close(), observer.close()]);
    await api.close();
  });

  /**
   * Places one order of two lines; returns the API's commands from the request until its dispatch
   * notes are removed (a batched delete just after the answer), and the order id.
   */
  async function placeOrder(): Promise<{ commands: Record<string, number>; orderId: number }> {
    const before = await counts(apiCommands);
    const res = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }, { product_id: 2, quantity: 1 }] } });
    expect(res.response.status).toBe(201);
    await waitFor(async () => (await observer.db.collection('dispatch_notes').countDocuments({})) === 0, 10_000, 20);
    return { commands: moved(before, await counts(apiCommands)), orderId: res.data!.id };
  }

  /** Moves the order to `status`; returns the API's commands from the request until its dispatch note is removed. */
  async function changeStatus(orderId: number, status: 'paid' | 'shipped'): Promise<Record<string, number>> {
    const before = await counts(apiCommands);
    const res = await client.PATCH('/api/orders/{order_id}', { params: { path: { order_id: orderId } }, body: { status } });
    expect(res.response.status).toBe(200);
    await waitFor(async () => (await observer.db.collection('dispatch_notes').countDocuments({})) === 0, 10_000, 20);
    return moved(before, await counts(apiCommands));
  }

  async function createdEventId(orderId: number): Promise<string> {
    const order = await observer.db.collection<OrderDoc>('orders').findOne({ _id: orderKey(orderId) });
    const id = order?.outbox?.find((e) => e.type === 'order.created')?.id;
    if (!id) throw new Error(`order ${orderId} has no order.created event in its outbox`);
    return id;
  }

  it('an order with no subscriber', async () => {
    // Warm: the first order fills caches (API key, contract) that later ones reuse.
    await placeOrder();
    const { commands } = await placeOrder();
    // Counted at all: the order itself is one insert.
    expect(commands['insert orders']).toBe(1);
    const { counted, noteRemovals, timelineEntries, stockCopies } = budgeted(commands);
    expect(counted, JSON.stringify(commands)).toBeLessThanOrEqual(orderBudgetNoSubscriber);
    expect(noteRemovals).toBeLessThanOrEqual(commands['insert dispatch_notes'] ?? 0);
    expect(stockCopies).toBeLessThanOrEqual(commands['insert stock_moves'] ?? 0);
    expect(timelineEntries).toBeLessThanOrEqual(listedWrites(0));
  });

  it('an order with one subscriber, and its delivery', async () => {
    const sub = await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['order.created'] } });
    expect(sub.response.status).toBe(201);
    const temporal = await api.temporal.client();
    // Warm: one order delivered end to end before the measured one.
    const warm = await placeOrder();
    await eventOutcome(temporal, eventWorkflowId(await createdEventId(warm.orderId)));

    const workerBefore = await counts(workerCommands);
    const { commands, orderId } = await placeOrder();
    const outcome = await eventOutcome(temporal, eventWorkflowId(await createdEventId(orderId)));
    expect(outcome.state).toBe('delivered');
    await waitFor(() => receiver.received.length === 2, 10_000);
    const delivery = moved(workerBefore, await counts(workerCommands));

    expect(commands['insert orders']).toBe(1);
    const { counted, noteRemovals, timelineEntries, stockCopies } = budgeted(commands);
    expect(counted, JSON.stringify(commands)).toBeLessThanOrEqual(orderBudgetOneSubscriber);
    expect(noteRemovals).toBeLessThanOrEqual(commands['insert dispatch_notes'] ?? 0);
    expect(stockCopies).toBeLessThanOrEqual(commands['insert stock_moves'] ?? 0);
    expect(timelineEntries).toBeLessThanOrEqual(listedWrites(1));
    expect(total(delivery), 'the worker sent commands for the delivery').toBeGreaterThan(0);
    const worker = budgeted(delivery);
    expect(worker.counted, JSON.stringify(delivery)).toBeLessThanOrEqual(deliveryBudget);
    // One listed document: the attempt.
    expect(worker.timelineEntries).toBeLessThanOrEqual(1);
  });

  it('a status change with one subscriber', async () => {
    const sub = await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['order.updated'] } });
    expect(sub.response.status).toBe(201);
    const { orderId } = await placeOrder();
    // Warm: the first change refills the fan-out read the subscription's creation dropped.
    await changeStatus(orderId, 'paid');
    const commands = await changeStatus(orderId, 'shipped');
    expect(commands['update orders']).toBe(1);
    const { counted, noteRemovals, timelineEntries } = budgeted(commands);
    expect(counted, JSON.stringify(commands)).toBeLessThanOrEqual(statusChangeBudget);
    expect(noteRemovals).toBeLessThanOrEqual(commands['insert dispatch_notes'] ?? 0);
    // Listed documents written: the event and the claim.
    expect(timelineEntries).toBeLessThanOrEqual(2);
    // Both changes' events delivered: nothing left running.
    const order = await observer.db.collection<OrderDoc>('orders').findOne({ _id: orderKey(orderId) });
    const updates = order!.outbox.filter((e) => e.type === 'order.updated');
    expect(updates.map((e) => e.seq)).toEqual([2, 3]);
    const temporal = await api.temporal.client();
    for (const e of updates) expect((await eventOutcome(temporal, eventWorkflowId(e.id))).state).toBe('delivered');
  });
});
