import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { Db } from 'mongodb';
import { afterEach, describe, expect, it } from 'vitest';
import type { DispatchNote, RedeliveryNote } from '../../../src/events/dispatch-notes';
import { OrderingMarks } from '../../../src/events/ordering-marks';
import { newOutboxEvent } from '../../../src/events/outbox';
import { type RelayDeps, relayOnce } from '../../../src/events/relay';
import { createLogger } from '../../../src/logger';
import { type OrderDoc, orderKey } from '../../../src/orders/repository';
import { seedDemoData } from '../../../src/seed/seed';
import { deliverySettings, eventDispatch } from '../../../src/compose/shared';
import { SubscriptionRepository } from '../../../src/subscriptions/repository';
import { verify } from '../../../src/receiver';
import type { ManagedProcess } from '../../../stack/runtime/processes';
import { eventWorkflowId, redeliveryWorkflowId } from '../../../workflows/ids';
import { startTestApi, startTestWorker, type TestApi } from '../../support/api';
import { eventOutcome, HistoryEvent, terminateLeftRunning, waitForHistoryEvent } from '../../support/event-workflows';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { startPrivateTemporal, tempDir } from '../../support/servers';
import { waitFor } from '../../support/wait';
import { orderLeftByACrash } from '../../support/crashed-order';
import { startWorkerProcess } from '../../support/worker-process';

const schedule = { DELIVERY_RETRY_SCHEDULE: '2s', DELIVERY_MAX_ATTEMPTS: '5', DELIVERY_JITTER: '0' };
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  // Every cleanup runs (no process is left behind); the first failure is reported.
  const failures: unknown[] = [];
  for (const c of cleanups.splice(0).reverse()) await c().catch((err: unknown) => failures.push(err));
  if (failures.length) throw failures[0];
});

async function setup(env: Record<string, string> = {}) {
  const api = await startTestApi({ ...schedule, ...env });
  cleanups.push(async () => {
    try {
      // Every workflow the test started has ended: nothing is left running on the shared server.
      const connection = await Connection.connect({ address: api.config.temporal.connectAddress });
      try {
        expect(await terminateLeftRunning(new Client({ connection }), api.config.temporal.taskQueue)).toEqual([]);
      } finally {
        await connection.close();
      }
    } finally {
      await api.close();
    }
  });
  await seedDemoData(api.mongo.db);
  return api;
}
async function receiverAnswering(status: (n: number) => number) {
  const r = await startReceiver((_req, res, n) => res.writeHead(status(n)).end());
  cleanups.push(() => r.close());
  return r;
}
/** The real worker process; it runs the relay every 500 ms. */
function worker(api: TestApi): ManagedProcess {
  const w = startWorkerProcess(api);
  cleanups.push(() => w.stop());
  return w;
}
async function subscribe(api: TestApi, receiver: TestReceiver, events: Array<'order.created' | 'order.updated' | 'webhook.test'> = ['order.created']) {
  const { client } = await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write']);
  const sub = await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events } });
  expect(sub.response.status).toBe(201);
  return { client, sub: sub.data! };
}
/** A dispatcher on the API's database whose every workflow start fails, as while Temporal is down. */
function temporalDown(api: TestApi) {
  return eventDispatch(api.mongo.db, {
    fanout: new SubscriptionRepository(api.mongo.db),
    temporal: () => Promise.reject(new Error('Temporal unreachable')),
    settings: deliverySettings(api.config),
    logger: createLogger('silent', 'test'),
  }).dispatcher;
}
/** A Temporal client of its own, closed when the test ends. */
async function temporalClient(address: string): Promise<Client> {
  const connection = await Connection.connect({ address });
  cleanups.push(() => connection.close());
  return new Client({ connection });
}

describe('no event is lost', () => {
  it('a worker SIGKILLed mid-schedule: the delivery completes after a new worker starts', async () => {
    const api = await setup();
    const receiver = await receiverAnswering((n) => (n === 1 ? 503 : 200));
    const { client, sub } = await subscribe(api, receiver);
    let w = worker(api);
    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    const eventId = (await api.deps.resources.orders.outboxOf(order.data!.id))[0]!.id;
    const temporal = await api.temporal.client();
    // Attempt 1 (503) is in the workflow's history and its 2 s retry timer started.
    await waitForHistoryEvent(temporal, eventWorkflowId(eventId), HistoryEvent.TimerStarted);
    expect(receiver.received).toHaveLength(1);

    await w.kill(); // as a crash: no graceful shutdown
    // The retry is due (its timer fired on the server), but nobody is there to run it.
    await waitForHistoryEvent(temporal, eventWorkflowId(eventId), HistoryEvent.TimerFired);
    expect(receiver.received).toHaveLength(1);

    w = worker(api);
    expect(await eventOutcome(temporal, eventWorkflowId(eventId))).toMatchObject({
      state: 'delivered',
      subscriptions: { [sub.id]: { state: 'delivered', attempts: 2, lastStatusCode: 200 } },
    });
    expect(receiver.received).toHaveLength(2);
    expect(verify(receiver.received[1]!.body, receiver.received[1]!.headers, sub.secret)).toMatchObject({ event: 'order.created', id: eventId });
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    const attempts = await api.deps.deliveries.attempts.listForSubscription(sub.id, 10, {});
    expect(attempts.map((a) => [a.attempt, a.status_code, a.state])).toEqual([
      [2, 200, 'delivered'],
      [1, 503, 'retrying'],
    ]);
  });

  it('an order whose API process died before dispatch is delivered by the relay, found through its dispatch note', async () => {
    const api = await setup();
    const receiver = await receiverAnswering(() => 200);
    const { sub } = await subscribe(api, receiver);
    const event = await orderLeftByACrash(api, 9001);
    worker(api);
    // The worker's relay notices the note and flushes the order's outbox.
    await waitFor(async () => (await api.notes.count(event.id)) === 0, 60_000);
    expect(await eventOutcome(await api.temporal.client(), eventWorkflowId(event.id))).toMatchObject({
      state: 'delivered',
      subscriptions: { [sub.id]: { state: 'delivered', attempts: 1 } },
    });
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]!.body)).toEqual({ event: 'order.created', id: event.id, data: { ...event.data, url: `${api.baseUrl}/api/orders/9001` } });
    // The outbox keeps the entry as the order's event record; the log has it.
    const order = await api.mongo.db.collection<OrderDoc>('orders').findOne({ _id: orderKey(9001) });
    expect(order!.outbox.map((e) => e.id)).toEqual([event.id]);
    expect(await api.events.find(event.id)).toMatchObject({ type: 'order.created', source: { collection: 'orders', id: 9001 }, subscription_ids: [sub.id] });
  });

  it('a status change whose API process died before dispatch is delivered too', async () => {
    const api = await setup();
    const receiver = await receiverAnswering(() => 200);
    const { sub } = await subscribe(api, receiver, ['order.updated']);
    // Demo order 7 is pending: the change and its event are written, the flush never runs.
    const event = newOutboxEvent('order.updated', { order_id: 7, total: 25.8, currency: 'EUR', status: 'paid', user_id: 3, previous_status: 'pending' }, { seq: 2 });
    await api.dispatcher.announce([event], { collection: 'orders', id: 7 });
    expect(await api.deps.resources.orders.transition(7, 'pending', 'paid', event, new Date())).toEqual({ kind: 'written' });
    worker(api);
    await waitFor(async () => (await api.notes.count(event.id)) === 0, 60_000);
    expect(await eventOutcome(await api.temporal.client(), eventWorkflowId(event.id))).toMatchObject({
      state: 'delivered',
      subscriptions: { [sub.id]: { state: 'delivered', attempts: 1 } },
    });
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]!.body)).toEqual({ event: 'order.updated', id: event.id, data: { ...event.data, url: `${api.baseUrl}/api/orders/7` } });
  });

  it('the relay drops a note whose write never happened, once it is old, and dispatches nothing for it', async () => {
    const api = await setup();
    // A crash between the note and the insert: the note names an order that was never written.
    const event = newOutboxEvent('order.created', { order_id: 9002, total: 1, currency: 'EUR', status: 'pending', user_id: 1 });
    await api.dispatcher.announce([event], { collection: 'orders', id: 9002 });
    const nothing = { flushed: 0, dispatched: 0, redelivered: 0, abandoned: 0, failed: 0, read: 1 };
    // Passes that are not sweeps read it: it is not held.
    expect(await relayOnce(api.relay, { graceMs: 0, abandonMs: 60_000, batch: 10, sweep: false })).toEqual(nothing);
    expect(await api.notes.count(event.id)).toBe(1);
    expect(await relayOnce(api.relay, { graceMs: 0, abandonMs: 0, batch: 10, sweep: false })).toEqual({ ...nothing, abandoned: 1 });
    expect(await api.notes.count(event.id)).toBe(0);
    expect(await api.events.find(event.id)).toBeUndefined();
  });

  it("a pass leaves a held write's note to the sweeps, which start it once it is due", async () => {
    const api = await setup();
    const receiver = await receiverAnswering(() => 200);
    const { sub } = await subscribe(api, receiver, ['order.updated']);
    // A held write whose process stopped: its note is due in 2 s, its order written, nothing started.
    const event = newOutboxEvent('order.updated', { order_id: 7, total: 25.8, currency: 'EUR', status: 'paid', user_id: 3, previous_status: 'pending' }, { seq: 2 });
    await api.notes.announce({ eventIds: [event.id], source: { collection: 'orders', id: 7 }, dueAt: new Date(Date.now() + 2_000) });
    expect(await api.deps.resources.orders.transition(7, 'pending', 'paid', event, new Date())).toEqual({ kind: 'written' });
    const opts = { graceMs: 0, abandonMs: 60_000, batch: 10 };
    const nothing = { flushed: 0, dispatched: 0, redelivered: 0, abandoned: 0, failed: 0, read: 0 };

    // Not yet due: neither a pass nor a sweep takes it.
    expect(await relayOnce(api.relay, { ...opts, sweep: false })).toEqual(nothing);
    expect(await relayOnce(api.relay, { ...opts, sweep: true })).toEqual(nothing);
    await new Promise((r) => setTimeout(r, 2_100));
    // Due: a pass still does not read it (held notes are not read each pass); a sweep starts it.
    expect(await relayOnce(api.relay, { ...opts, sweep: false })).toEqual(nothing);
    expect(await relayOnce(api.relay, { ...opts, sweep: true })).toEqual({ ...nothing, flushed: 1, read: 1 });
    expect(await api.notes.count(event.id)).toBe(0);
    worker(api);
    expect(await eventOutcome(await api.temporal.client(), eventWorkflowId(event.id))).toMatchObject({ state: 'delivered', subscriptions: { [sub.id]: { state: 'delivered' } } });
  });

  it('an event the writer and the relay both flush is counted once, with or without subscribers', async () => {
    const api = await setup();
    const receiver = await receiverAnswering(() => 200);
    await subscribe(api, receiver, ['order.created']);
    const counted: string[] = [];
    const { dispatcher } = eventDispatch(api.mongo.db, {
      fanout: new SubscriptionRepository(api.mongo.db),
      // Not started here: only the logging and its count are under test.
      temporal: () => Promise.reject(new Error('not started in this test')),
      settings: deliverySettings(api.config),
      logger: createLogger('silent', 'test'),
      metrics: { eventsEmitted: { inc: ({ event_type }: { event_type: string }) => counted.push(event_type) } } as never,
    });
    const subscribed = newOutboxEvent('order.created', { id: 9201, user_id: 1, status: 'pending', total: 1, currency: 'EUR', items: [], item_count: 0 } as never, { ownerId: 'owner-a' });
    const unsubscribed = newOutboxEvent('stock.low', { product_id: 1, available: 0, threshold: 1 } as never, { ownerId: 'owner-a' });
    for (const event of [subscribed, unsubscribed]) {
      const source = { collection: 'orders' as const, id: 9201 };
      // The writer's flush, then the relay's recovery of the same event (its dispatch fails: Temporal is not asked).
      await dispatcher.flush(source, [event]).catch(() => undefined);
      await dispatcher.flush(source, [event], 'remove').catch(() => undefined);
    }
    expect(counted).toEqual(['order.created', 'stock.low']);
  });

  it('an event its API logged but could not start is started by the relay as logged, whatever its subscription became since', async () => {
    const api = await setup();
    const receiver = await receiverAnswering(() => 200);
    const { client } = await api.clientWith(['webhooks:write', 'resources:read']);
    const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['order.created'], ordering: 'per_key' } });
    expect(created.response.status).toBe(201);
    const ordered = created.data!;
    const w = await startTestWorker(api); // no relay of its own: this test runs the pass
    cleanups.push(() => w.stop());
    // The API logged the order's event with its snapshot (the subscription in order), then its start failed.
    const down = temporalDown(api);
    const event = await orderLeftByACrash(api, 9301);
    await down.flush({ collection: 'orders', id: 9301 }, [event]);
    await down.drain();
    expect(await api.events.find(event.id)).toMatchObject({ subscription_ids: [ordered.id], ordered_ids: [ordered.id] });
    expect(await api.notes.count(event.id)).toBe(1);
    // Since then the subscription stopped asking for order: a fresh fan-out would start the event unordered.
    const patched = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: ordered.id } }, body: { ordering: 'none' } });
    expect(patched.response.status).toBe(200);

    expect(await relayOnce(api.relay, { graceMs: 0, abandonMs: 60_000, batch: 10 })).toMatchObject({ flushed: 1, failed: 0 });
    expect(await eventOutcome(await api.temporal.client(), eventWorkflowId(event.id))).toMatchObject({
      state: 'delivered',
      subscriptions: { [ordered.id]: { state: 'delivered', attempts: 1 } },
    });
    // Delivered in order as logged: its end is marked, so the key's next event is not held behind it forever.
    expect(await new OrderingMarks(api.mongo.db).has(ordered.id, event.id)).toBe(true);
    expect(receiver.received).toHaveLength(1);
  });

  it("a relay pass where one note's step fails still handles the others; the next pass handles that one", async () => {
    const api = await setup();
    const receiver = await receiverAnswering(() => 200);
    const { sub } = await subscribe(api, receiver, ['order.created', 'webhook.test']);
    const w = await startTestWorker(api); // no relay of its own: this test runs the passes
    cleanups.push(() => w.stop());
    // What Temporal being down leaves: a logged event and an accepted redelivery, neither started.
    const down = temporalDown(api);
    const unreadable = await orderLeftByACrash(api, 9101);
    const flushable = await orderLeftByACrash(api, 9102);
    const logged = await down.emit(newOutboxEvent('webhook.test', { message: 'relay', subscription_id: sub.id }), { ownerId: 'owner-a', subscriptionIds: [sub.id] });
    await down.redeliver([{ event: logged, subscriptionIds: [sub.id], redeliveryId: 'rdl_relaytest' }]);
    const redelivery = redeliveryWorkflowId(logged._id, 'rdl_relaytest');
    expect(await api.notes.count(logged._id)).toBe(1);
    expect(await api.notes.count(redelivery)).toBe(1);

    // Order 9101's outbox cannot be read during the first pass; its note is tried first.
    const failing: RelayDeps = {
      ...api.relay,
      outboxes: { ...api.relay.outboxes, orders: (id) => (id === 9101 ? Promise.reject(new Error('outbox unreadable')) : api.relay.outboxes.orders(id)) },
    };
    const opts = { graceMs: 0, abandonMs: 60_000, batch: 10 };
    expect(await relayOnce(failing, opts)).toEqual({ flushed: 1, dispatched: 1, redelivered: 1, abandoned: 0, failed: 1, read: 4 });
    expect(await api.notes.count(unreadable.id)).toBe(1);
    expect(await api.events.find(unreadable.id)).toBeUndefined();
    for (const id of [flushable.id, logged._id, redelivery]) expect(await api.notes.count(id), id).toBe(0);
    const temporal = await api.temporal.client();
    for (const id of [eventWorkflowId(flushable.id), eventWorkflowId(logged._id), redelivery]) {
      expect(await eventOutcome(temporal, id), id).toMatchObject({ state: 'delivered', subscriptions: { [sub.id]: { state: 'delivered' } } });
    }
    await expect(temporal.workflow.getHandle(eventWorkflowId(unreadable.id)).describe()).rejects.toThrow(/not found/i);

    expect(await relayOnce(api.relay, opts)).toEqual({ flushed: 1, dispatched: 0, redelivered: 0, abandoned: 0, failed: 0, read: 1 });
    expect(await api.notes.count(unreadable.id)).toBe(0);
    expect(await eventOutcome(temporal, eventWorkflowId(unreadable.id))).toMatchObject({ state: 'delivered', subscriptions: { [sub.id]: { state: 'delivered' } } });
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids.sort()).toEqual([flushable.id, logged._id, logged._id, unreadable.id].sort());
  });

  it('an attempt log write that fails (database briefly away) is retried alone: the POST is not repeated, the attempt is logged once', async () => {
    const api = await setup();
    const receiver = await receiverAnswering(() => 200);
    const { sub } = await subscribe(api, receiver, ['webhook.test']);
    const log = attemptLogFailing(api.mongo.db, 2);
    const w = await startTestWorker(api, { db: log.db });
    cleanups.push(() => w.stop());
    const event = await api.dispatcher.emit(newOutboxEvent('webhook.test', { message: 'flaky log', subscription_id: sub.id }), { ownerId: 'owner-a', subscriptionIds: [sub.id] });
    expect(await eventOutcome(await api.temporal.client(), eventWorkflowId(event._id))).toMatchObject({
      state: 'delivered',
      subscriptions: { [sub.id]: { state: 'delivered', attempts: 1 } },
    });
    // Two writes refused, the third landed; the receiver got one POST.
    expect(log.writes()).toBe(3);
    expect(receiver.received).toHaveLength(1);
    const attempts = await api.deps.deliveries.attempts.listForSubscription(sub.id, 10, {});
    expect(attempts.map((a) => [a.event_id, a.attempt, a.state])).toEqual([[event._id, 1, 'delivered']]);
  });

  describe('Temporal down', () => {
    /** A private Temporal dev server, restartable on its port and data; stopped and removed when the test ends. */
    async function privateTemporal() {
      const dir = tempDir('outage');
      const dbFile = join(dir, 'temporal.sqlite');
      let running = await startPrivateTemporal(dbFile);
      const port = Number(running.address.split(':')[1]);
      cleanups.push(async () => {
        await running.stop();
        rmSync(dir, { recursive: true, force: true });
      });
      return {
        address: running.address,
        stop: () => running.stop(),
        async restart() {
          running = await startPrivateTemporal(dbFile, port);
        },
      };
    }

    it('an order created meanwhile is still created, and its event is delivered once Temporal is back', async () => {
      const temporal = await privateTemporal();
      const api = await setup({ TEMPORAL_ADDRESS: temporal.address });
      const receiver = await receiverAnswering(() => 200);
      const { sub } = await subscribe(api, receiver);
      const w = worker(api);
      const { client } = await api.clientWith(['orders:write']);

      await temporal.stop();
      const order = await client.POST('/api/orders/', { body: { user_id: 2, items: [{ product_id: 2, quantity: 2 }] } });
      expect(order.response.status).toBe(201);
      const eventId = (await api.deps.resources.orders.outboxOf(order.data!.id))[0]!.id;
      // Logged with its fan-out, and noted for the relay: its workflow could not be started.
      expect(await api.events.find(eventId)).toMatchObject({ subscription_ids: [sub.id] });
      expect(await api.notes.count(eventId)).toBe(1);
      expect(receiver.received).toHaveLength(0);

      await temporal.restart();
      await waitFor(async () => (await api.notes.count(eventId)) === 0, 90_000).catch((err: unknown) => {
        console.error(`worker exited=${w.hasExited}\n${w.recentOutput()}`);
        throw err;
      });
      const outcome = await eventOutcome(await temporalClient(temporal.address), eventWorkflowId(eventId));
      expect(outcome).toMatchObject({ state: 'delivered', subscriptions: { [sub.id]: { state: 'delivered', attempts: 1 } } });
      expect(receiver.received).toHaveLength(1);
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ event: 'order.created', id: eventId });
    });

    it('a redeliver and a recover accepted meanwhile answer 202 and are delivered by the relay once Temporal is back', async () => {
      const temporal = await privateTemporal();
      const api = await setup({ TEMPORAL_ADDRESS: temporal.address });
      const healthy = await receiverAnswering(() => 200);
      const refusing = await receiverAnswering((n) => (n === 1 ? 400 : 200));
      const { client, sub: delivered } = await subscribe(api, healthy, ['webhook.test']);
      const { sub: stopped } = await subscribe(api, refusing, ['webhook.test']);
      const w = worker(api);
      const since = new Date(Date.now() - 1000).toISOString();
      const sendTest = async (subscriptionId: string) =>
        (await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path: { subscription_id: subscriptionId } } })).data!.event_id;
      const first = await sendTest(delivered.id);
      const second = await sendTest(stopped.id);
      const before = await temporalClient(temporal.address);
      expect((await eventOutcome(before, eventWorkflowId(first))).state).toBe('delivered');
      expect(await eventOutcome(before, eventWorkflowId(second))).toMatchObject({ state: 'failed', subscriptions: { [stopped.id]: { state: 'stopped' } } });

      await temporal.stop();
      const redelivered = await client.POST('/api/webhooks/v1/events/{event_id}/redeliver', { params: { path: { event_id: first } } });
      expect(redelivered.response.status).toBe(202);
      expect(redelivered.data).toEqual({ event_id: first, subscription_ids: [delivered.id] });
      const recovered = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/recover', { params: { path: { subscription_id: stopped.id } }, body: { since } });
      expect(recovered.response.status).toBe(202);
      expect(recovered.data).toEqual({ event_ids: [second] });
      // Accepted durably: each is noted under its workflow id for the relay; nothing was sent.
      const notes = (await api.mongo.db.collection<DispatchNote>('dispatch_notes').find({ kind: 'redelivery' }).toArray()).filter((n): n is RedeliveryNote => n.kind === 'redelivery');
      expect(notes.map((n) => [n.event_id, n.subscription_ids]).sort()).toEqual(
        [
          [first, [delivered.id]],
          [second, [stopped.id]],
        ].sort(),
      );
      for (const note of notes) expect(note._id).toMatch(new RegExp(`^${eventWorkflowId(note.event_id)}/redelivery/`));
      expect(healthy.received).toHaveLength(1);
      expect(refusing.received).toHaveLength(1);

      // The API does not retry: the worker's relay starts both once Temporal is back.
      await temporal.restart();
      await waitFor(async () => (await api.mongo.db.collection<DispatchNote>('dispatch_notes').countDocuments({ kind: 'redelivery' })) === 0, 90_000).catch((err: unknown) => {
        console.error(`worker exited=${w.hasExited}\n${w.recentOutput()}`);
        throw err;
      });
      const after = await temporalClient(temporal.address);
      for (const note of notes) {
        expect(await eventOutcome(after, note._id)).toMatchObject({ eventId: note.event_id, state: 'delivered', subscriptions: { [note.subscription_ids[0]!]: { state: 'delivered', attempts: 1 } } });
      }
      expect(healthy.received.map((r) => r.headers['webhook-id'])).toEqual([first, first]);
      expect(refusing.received.map((r) => r.headers['webhook-id'])).toEqual([second, second]);
    });
  });
});

/** `db`, except that its first `failures` writes to the attempt log fail as if the database were away; counts the writes. */
function attemptLogFailing(db: Db, failures: number) {
  let writes = 0;
  const attempts = db.collection('attempts');
  const flaky = new Proxy(attempts, {
    get(target, prop) {
      if (prop === 'insertMany') {
        return (...args: Parameters<typeof attempts.insertMany>) =>
          ++writes <= failures ? Promise.reject(new Error('connection reset by FerretDB')) : target.insertMany(...args);
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const wrapped = new Proxy(db, {
    get(target, prop) {
      if (prop === 'collection') return (name: string, ...rest: unknown[]) => (name === 'attempts' ? flaky : target.collection(name, ...(rest as [])));
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: wrapped, writes: () => writes };
}
