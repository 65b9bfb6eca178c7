import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { newOutboxEvent } from '../../../src/events/outbox';
import { type OrderDoc, orderKey } from '../../../src/resources/repository';
import { seedDemoData } from '../../../src/seed/seed';
import { verify } from '../../../src/receiver';
import type { ManagedProcess } from '../../../src/runtime/processes';
import type { RunningTemporal } from '../../../src/runtime/temporal-dev-server';
import { startTestApi, type TestApi } from '../../support/api';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { startPrivateTemporal, tempDir } from '../../support/servers';
import { waitFor } from '../../support/wait';
import { startWorkerProcess } from '../../support/worker-process';

const schedule = { DELIVERY_RETRY_SCHEDULE: '2s', DELIVERY_MAX_ATTEMPTS: '5', DELIVERY_JITTER: '0' };
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(env: Record<string, string> = {}) {
  const api = await startTestApi({ ...schedule, ...env });
  cleanups.push(() => api.close());
  await seedDemoData(api.mongo.db);
  return api;
}
async function receiverAnswering(status: (n: number) => number) {
  const r = await startReceiver((_req, res, n) => res.writeHead(status(n)).end());
  cleanups.push(() => r.close());
  return r;
}
function worker(api: TestApi): ManagedProcess {
  const w = startWorkerProcess(api);
  cleanups.push(() => w.stop());
  return w;
}
async function subscribe(api: TestApi, receiver: TestReceiver) {
  const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'orders:write']);
  const sub = await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['order.created'] } });
  return { client, sub: sub.data! };
}

describe('no event is lost', () => {
  it('a worker SIGKILLed mid-schedule: the delivery completes after a new worker starts', async () => {
    const api = await setup();
    const receiver = await receiverAnswering((n) => (n === 1 ? 503 : 200));
    const { client, sub } = await subscribe(api, receiver);
    let w = worker(api);
    await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    await waitFor(() => receiver.received.length === 1, 60_000);

    await w.kill(); // as a crash: no graceful shutdown
    await new Promise((r) => setTimeout(r, 3000)); // past the 2 s retry: nobody is there to run it
    expect(receiver.received).toHaveLength(1);

    w = worker(api);
    await waitFor(() => receiver.received.length === 2, 60_000);
    expect(verify(receiver.received[1]!.body, receiver.received[1]!.headers, sub.secret)).toMatchObject({ event: 'order.created' });
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
  });

  it('an order whose API process died before dispatch is delivered by the relay, found through its dispatch note', async () => {
    const api = await setup();
    const receiver = await receiverAnswering(() => 200);
    await subscribe(api, receiver);
    // What a crash right after the order's insert leaves: the note announcing the event (written
    // before the insert), and the order with its event still in the outbox.
    const event = newOutboxEvent('order.created', { order_id: 9001, total: 12.5, currency: 'EUR', status: 'pending', user_id: 1 });
    const source = { collection: 'orders', id: 9001 } as const;
    await api.dispatcher.announce([event], source);
    const now = new Date();
    await api.mongo.db.collection<OrderDoc>('orders').insertOne({
      _id: orderKey(9001),
      id: 9001,
      user_id: 1,
      status: 'pending',
      items: [{ product_id: 1, quantity: 1, unit_price: 12.5 }],
      total: 12.5,
      currency: 'EUR',
      date: now,
      updated_at: now,
      outbox: [event],
    });
    worker(api);
    await waitFor(() => receiver.received.length === 1, 60_000);
    expect(JSON.parse(receiver.received[0]!.body)).toEqual({ event: 'order.created', id: event.id, data: event.data });
    // The outbox keeps the entry as the order's event record; the log has it, the note is gone.
    const order = await api.mongo.db.collection<OrderDoc>('orders').findOne({ _id: orderKey(9001) });
    expect(order!.outbox.map((e) => e.id)).toEqual([event.id]);
    expect(await api.dispatcher.events.find(event.id)).toMatchObject({ type: 'order.created', source: { collection: 'orders', id: 9001 } });
    await waitFor(async () => (await api.dispatcher.notes.countDocuments({ _id: event.id })) === 0, 10_000);
  });

  it('a status change whose API process died before dispatch is delivered too', async () => {
    const api = await setup();
    const receiver = await receiverAnswering(() => 200);
    const { client } = await api.clientWith(['webhooks:write', 'orders:write']);
    await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['order.updated'] } });
    // Demo order 7 is pending: the change and its event are written, the flush never runs.
    const event = newOutboxEvent('order.updated', { order_id: 7, total: 25.8, currency: 'EUR', status: 'paid', user_id: 3, previous_status: 'pending' });
    await api.dispatcher.announce([event], { collection: 'orders', id: 7 });
    expect(await api.deps.resources.orders.transition(7, 'pending', 'paid', event, new Date())).toBe(true);
    worker(api);
    await waitFor(() => receiver.received.length === 1, 60_000);
    expect(JSON.parse(receiver.received[0]!.body)).toEqual({ event: 'order.updated', id: event.id, data: event.data });
  });

  it('the relay drops a note whose write never happened, once it is old, and dispatches nothing for it', async () => {
    const api = await setup();
    // A crash between the note and the insert: the note names an order that was never written.
    const event = newOutboxEvent('order.created', { order_id: 9002 });
    await api.dispatcher.announce([event], { collection: 'orders', id: 9002 });
    expect(await api.dispatcher.relayOnce({ graceMs: 0, abandonMs: 60_000, batch: 10 })).toEqual({ flushed: 1, dispatched: 0, abandoned: 0 });
    expect(await api.dispatcher.notes.countDocuments({ _id: event.id })).toBe(1);
    expect(await api.dispatcher.relayOnce({ graceMs: 0, abandonMs: 0, batch: 10 })).toEqual({ flushed: 1, dispatched: 0, abandoned: 1 });
    expect(await api.dispatcher.notes.countDocuments({ _id: event.id })).toBe(0);
    expect(await api.dispatcher.events.find(event.id)).toBeUndefined();
  });

  describe('Temporal down while an order is created', () => {
    const dir = tempDir('outage');
    let temporal: RunningTemporal | undefined;
    afterAll(async () => {
      await temporal?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('the order is still created, and its event is delivered once Temporal is back', async () => {
      const dbFile = join(dir, 'temporal.sqlite');
      temporal = await startPrivateTemporal(dbFile);
      const port = Number(temporal.address.split(':')[1]);
      const api = await setup({ TEMPORAL_ADDRESS: temporal.address });
      const receiver = await receiverAnswering(() => 200);
      await subscribe(api, receiver);
      const w = worker(api);
      const { client } = await api.clientWith(['orders:write']);

      await temporal.stop();
      const order = await client.POST('/api/orders/', { body: { user_id: 2, items: [{ product_id: 2, quantity: 2 }] } });
      expect(order.response.status).toBe(201);
      const events = api.mongo.db.collection<{ _id: string; data: { order_id: number } }>('events');
      const logged = await events.findOne({ 'data.order_id': order.data!.id });
      expect(await api.dispatcher.notes.countDocuments({ _id: logged!._id })).toBe(1);
      expect(receiver.received).toHaveLength(0);

      temporal = await startPrivateTemporal(dbFile, port);
      await waitFor(() => receiver.received.length === 1, 90_000).catch((err: unknown) => {
        console.error(`worker exited=${w.hasExited}\n${w.recentOutput()}`);
        throw err;
      });
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ event: 'order.created', id: logged!._id });
      await waitFor(async () => (await api.dispatcher.notes.countDocuments({ _id: logged!._id })) === 0, 10_000);
    });
  });
});
