import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { DispatchNote } from '../../../src/events/dispatch-notes';
import { type OrderDoc, orderKey } from '../../../src/orders/repository';
import { seedDemoData } from '../../../src/seed/seed';
import type { ManagedProcess } from '../../../stack/runtime/processes';
import { eventWorkflowId } from '../../../workflows/ids';
import { startTestApi } from '../../support/api';
import { type ApiProcess, startApiProcess } from '../../support/api-process';
import { terminateLeftRunning } from '../../support/event-workflows';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';
import { startWorkerProcess } from '../../support/worker-process';

/*
 * Owner admission on the real stack: an API process (real, so it can be SIGKILLed), a worker
 * process (its relay every 500 ms), FerretDB and Temporal. Each owner's first ten workflows take
 * the default lane (OWNER_FAIR_BURST=10, a rate that refills nothing), the rest the bulk lane, where
 * the API holds the flood's while the quiet owner has started on the default lane within 2 s,
 * starting one every 2 s. Subscriptions apply at once (no fan-out cache): the test subscribes, then orders.
 */
const env = { OWNER_FAIR_RATE: '0.001', OWNER_FAIR_BURST: '10', BULK_LANE_START_RATE: '0.5', RATE_LIMIT_ENABLED: 'false', SUBSCRIPTION_CACHE_TTL: '0' };

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  const failures: unknown[] = [];
  for (const c of cleanups.splice(0).reverse()) await c().catch((err: unknown) => failures.push(err));
  if (failures.length) throw failures[0];
});

interface Owner {
  key: string;
  receiver: TestReceiver;
}

async function setup() {
  const api = await startTestApi({ DELIVERY_RETRY_SCHEDULE: '2s', DELIVERY_JITTER: '0' });
  const connection = await Connection.connect({ address: api.config.temporal.connectAddress });
  const temporal = new Client({ connection });
  cleanups.push(async () => {
    try {
      expect(await terminateLeftRunning(temporal, api.config.temporal.taskQueue)).toEqual([]);
    } finally {
      await connection.close();
      await api.close();
    }
  });
  await seedDemoData(api.mongo.db, { stock: 100_000 });
  const processes: { api: ApiProcess; worker: ManagedProcess } = { api: await startApiProcess(api, env), worker: startWorkerProcess(api) };
  cleanups.push(() => Promise.all([processes.api.process.stop(), processes.worker.stop()]));
  const owner = async (name: string): Promise<Owner> => {
    const receiver = await startReceiver((_req, res) => res.writeHead(200).end());
    cleanups.push(() => receiver.close());
    const { client, key } = await api.clientWith(['webhooks:write', 'webhooks:read', 'orders:write', 'resources:read'], name);
    expect((await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['order.created'] } })).response.status).toBe(201);
    return { key, receiver };
  };
  /** One order of `who` through the API process; its order.created id. */
  const order = async (who: Owner): Promise<string> => {
    const res = await fetch(`${processes.api.baseUrl}/api/orders/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${who.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ user_id: 1, items: [{ product_id: 1, quantity: 1 }] }),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: number };
    const doc = await api.mongo.db.collection<OrderDoc>('orders').findOne({ _id: orderKey(id) });
    return doc!.outbox.find((e) => e.type === 'order.created')!.id;
  };
  const started = async (eventId: string): Promise<Date | undefined> => {
    try {
      return (await temporal.workflow.getHandle(eventWorkflowId(eventId)).describe()).startTime;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return undefined;
      throw err;
    }
  };
  const note = (eventId: string) => api.mongo.db.collection<DispatchNote>('dispatch_notes').findOne({ _id: eventId });
  return { api, processes, owner, order, started, note };
}

/**
 * The flood's ten orders of its burst and four past it, while the quiet owner orders every 0.5 s
 * (within its own burst) until `stop`: its default-lane starts keep the flood's bulk-lane writes held.
 */
async function floodBesideQuiet(s: Awaited<ReturnType<typeof setup>>, flood: Owner, quiet: Owner) {
  const floodIds: string[] = [];
  const quietIds: string[] = [];
  let sending = true;
  quietIds.push(await s.order(quiet));
  const quietLoop = (async () => {
    for (let i = 1; sending && i < 10; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (sending) quietIds.push(await s.order(quiet));
    }
  })();
  for (let i = 0; i < 14; i++) floodIds.push(await s.order(flood));
  return {
    floodIds,
    quietIds,
    stop: async () => {
      sending = false;
      await quietLoop;
    },
  };
}

async function deliveredOnce(receiver: TestReceiver, ids: readonly string[]): Promise<void> {
  await waitFor(() => receiver.received.length >= ids.length, 60_000, 100);
  const got = receiver.received.map((r) => r.headers['webhook-id'] as string);
  expect(new Set(got)).toEqual(new Set(ids));
}

describe('a flooding owner is held back in the API while another owner sends (real API and worker processes, Temporal, FerretDB)', () => {
  it("holds the flood's bulk-lane writes with their notes due past their turn, starts them in order a turn apart, and delivers every one", async () => {
    const s = await setup();
    const [flood, quiet] = [await s.owner('owner-flood'), await s.owner('owner-quiet')];
    const { floodIds, quietIds, stop } = await floodBesideQuiet(s, flood, quiet);

    // Right after the posts: the flood's last write is held, not started, its note due past its turn (so the relay leaves it).
    const last = floodIds.at(-1)!;
    expect(await s.started(last)).toBeUndefined();
    const held = await s.note(last);
    expect(held && 'due_at' in held && held.due_at!.getTime()).toBeGreaterThan(Date.now() + 5_000);
    expect(Date.now() - held!.created_at.getTime()).toBeLessThan(60_000);

    await deliveredOnce(flood.receiver, floodIds);
    await stop();
    await deliveredOnce(quiet.receiver, quietIds);
    // Its held workflows (the 11th on) started in the order written, a turn (2 s at 0.5/s) apart while the quiet owner sent.
    const starts = await Promise.all(floodIds.map(async (id) => (await s.started(id))!.getTime()));
    const heldStarts = starts.slice(10);
    for (let i = 1; i < heldStarts.length; i++) expect(heldStarts[i]! - heldStarts[i - 1]!).toBeGreaterThanOrEqual(1900);
    // Every note went once its workflows started.
    await waitFor(async () => (await Promise.all(floodIds.map((id) => s.note(id)))).every((n) => n === null), 10_000, 100);
  });

  it('an API SIGKILLed while it holds writes loses none: the relay starts them once their notes are due', async () => {
    const s = await setup();
    const [flood, quiet] = [await s.owner('owner-flood'), await s.owner('owner-quiet')];
    const { floodIds, quietIds, stop } = await floodBesideQuiet(s, flood, quiet);
    await stop();
    const notStarted = (await Promise.all(floodIds.map(async (id) => ((await s.started(id)) === undefined ? id : undefined)))).filter((id) => id !== undefined);
    await s.processes.api.process.kill();
    // Held ones were lost with the process's memory, not from the database.
    expect(notStarted.length).toBeGreaterThan(0);
    for (const id of notStarted) expect(await s.note(id)).not.toBeNull();

    await deliveredOnce(quiet.receiver, quietIds);
    await deliveredOnce(flood.receiver, floodIds);
    await waitFor(async () => (await Promise.all(floodIds.map((id) => s.note(id)))).every((n) => n === null), 10_000, 100);
  });
});
