import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import type { Client } from '@temporalio/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { laneTaskQueues } from '../../../src/events/lanes';
import { seedDemoData } from '../../../src/seed/seed';
import { withTimeout } from '../../../src/lib/timing';
import { drainWorkflowId } from '../../../workflows/ids';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { terminateLeftRunning } from '../../support/event-workflows';
import { type Received, startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

const v1 = '/api/webhooks/v1';
const idOf = (r: Received) => (JSON.parse(r.body) as { id: string }).id;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The first receipt of each event, in arrival order. */
function firstReceipts(received: Received[]): Received[] {
  const seen = new Set<string>();
  return received.filter((r) => !seen.has(idOf(r)) && seen.add(idOf(r)));
}

/** How long the subscription stays paused: several minutes, as an integrator's deploy or incident would. */
const PAUSE_MS = 180_000;
/** Orders a second while paused: the paused subscription's events, and the load the other owner's deliveries share the stack with. */
const ORDERS_PER_S = 3;
/** The paused subscription's drain_rate. */
const DRAIN_RATE = 10;

/**
 * A pause of several minutes under steady load (docs/delivery.md, "Pause holds, resume drains"):
 * another owner's subscription keeps getting every event meanwhile, the paused one gets nothing;
 * after the resume every held delivery arrives, in emission order, none ahead of its drain_rate
 * schedule. Delivery is at least once: a repeat (a task run again on a starved worker) is reported.
 */
describe('a pause of several minutes under load', () => {
  let api: TestApi;
  let worker: TestWorker;
  let temporal: Client;
  const receivers: TestReceiver[] = [];

  beforeAll(async () => {
    api = await startTestApi({ SUBSCRIPTION_HOLD_MAX: '1h' });
    await seedDemoData(api.mongo.db, { stock: 10_000 });
    worker = await startTestWorker(api, { holdMaxMs: api.config.delivery.holdMaxMs });
    temporal = await api.temporal.client();
  });
  afterEach(async () => {
    expect(await terminateLeftRunning(temporal, api.config.temporal.taskQueue)).toEqual([]);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await worker?.stop();
    await api?.close();
  });

  async function owner(): Promise<WebhookServiceClient> {
    return (await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write'], `owner-${randomUUID().slice(0, 8)}`)).client;
  }
  async function receiver(): Promise<TestReceiver> {
    const r = await startReceiver((_req, res) => res.writeHead(200).end());
    receivers.push(r);
    return r;
  }
  /** Creates an order as `client`'s owner; the id of its order.created event. */
  async function order(client: WebhookServiceClient): Promise<string> {
    const res = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 3, quantity: 1 }] } });
    expect(res.response.status).toBe(201);
    return (await api.deps.resources.orders.outboxOf(res.data!.id)).find((e) => e.type === 'order.created')!.id;
  }

  it('loses nothing, delivers nothing while paused, and drains in emission order at the set rate', async () => {
    const pausedTo = await receiver();
    const activeTo = await receiver();
    const client = await owner();
    const other = await owner();
    const sub = (await client.POST(`${v1}/subscribe`, { body: { url: pausedTo.url, events: ['order.created'], drain_rate: DRAIN_RATE } })).data!;
    await other.POST(`${v1}/subscribe`, { body: { url: activeTo.url, events: ['order.created'] } });
    const path = { params: { path: { subscription_id: sub.id } } };
    expect((await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { ...path, body: { status: 'paused' } })).response.status).toBe(200);

    // A steady trickle for both owners, paced from the start so a slow request does not stretch the pause.
    const held: string[] = [];
    const otherEvents: string[] = [];
    const start = Date.now();
    for (let i = 0; Date.now() - start < PAUSE_MS; i++) {
      held.push(await order(client));
      otherEvents.push(await order(other));
      const due = start + ((i + 1) * 1000) / ORDERS_PER_S;
      if (due > Date.now()) await sleep(due - Date.now());
    }
    await waitFor(async () => (await client.GET(`${v1}/subscriptions/{subscription_id}`, path)).data!.held?.count === held.length, 60_000);
    expect(pausedTo.received).toHaveLength(0);
    // The other owner's deliveries went on meanwhile.
    await waitFor(() => activeTo.received.length >= otherEvents.length, 60_000);

    const resumedAt = Date.now();
    expect((await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { ...path, body: { status: 'active' } })).response.status).toBe(200);
    const drain = (await withTimeout(temporal.workflow.getHandle(drainWorkflowId(sub.id)).result(), 120_000, 'the drain')) as { started: number; ended: string };
    expect(drain).toMatchObject({ started: held.length, ended: 'drained' });
    const firsts = () => firstReceipts(pausedTo.received);
    await waitFor(() => firsts().length >= held.length, 120_000);
    // A run's last POST arrives before it closes: let them all close before the left-running check.
    const running = () => temporal.workflow.count(`(${laneTaskQueues(api.config.temporal.taskQueue).map((q) => `TaskQueue = '${q}'`).join(' OR ')}) AND ExecutionStatus = 'Running'`);
    await waitFor(async () => (await running()).count === 0, 60_000);

    // Every one, in emission order.
    const drained = firsts();
    expect(drained.map(idOf)).toEqual(held);
    // None ahead of drain_rate's schedule: the k-th goes no earlier than k gaps after the resume.
    const gapMs = 1000 / DRAIN_RATE;
    const early = drained.filter((r, k) => r.at < resumedAt + k * gapMs - 5);
    expect(early).toEqual([]);
    expect(firstReceipts(activeTo.received).map(idOf).sort()).toEqual([...otherEvents].sort());
    expect((await client.GET(`${v1}/subscriptions/{subscription_id}`, path)).data!.held).toBeUndefined();
    // Reported, not asserted: how long the drain took on this machine.
    const took = drained.at(-1)!.at - resumedAt;
    const repeats = pausedTo.received.length + activeTo.received.length - drained.length - otherEvents.length;
    console.log(
      `paused ${(PAUSE_MS / 1000).toFixed(0)} s, ${held.length} held, drained in ${(took / 1000).toFixed(1)} s (${((held.length * 1000) / took).toFixed(1)}/s, asked ${DRAIN_RATE}/s; ${repeats} repeated; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
    );
  }, 420_000);
});
