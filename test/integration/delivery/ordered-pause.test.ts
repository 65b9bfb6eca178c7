import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Client } from '@temporalio/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { laneTaskQueues } from '../../../src/events/lanes';
import { seedDemoData } from '../../../src/seed/seed';
import { drainWorkflowId } from '../../../workflows/ids';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { terminateLeftRunning } from '../../support/event-workflows';
import { type OrderPost, outOfOrder, parseOrderPost } from '../../support/ordered-posts';
import { type Received, startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

const v1 = '/api/webhooks/v1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * An ordered subscription (ordering: per_key) paused while orders are created and moved through
 * their statuses (docs/delivery.md, "Ordered delivery per key" and "Pause holds, resume drains"):
 * a held delivery keeps its key's later events waiting, and its drained run goes through the gate,
 * so after the resume each order's events arrive in emission order, a retry included, none lost.
 */
describe('a paused ordered subscription keeps each key in order through hold and drain', () => {
  let api: TestApi;
  let worker: TestWorker;
  let temporal: Client;
  let receiver: TestReceiver;
  const posts: OrderPost[] = [];
  /** The event whose first attempt the receiver refuses (500): its key's later events must wait for its retry. */
  const refuseOnce = new Set<string>();

  beforeAll(async () => {
    api = await startTestApi({ DELIVERY_RETRY_SCHEDULE: '1s', DELIVERY_MAX_ATTEMPTS: '10', DELIVERY_JITTER: '0', SUBSCRIPTION_HOLD_MAX: '1h' });
    await seedDemoData(api.mongo.db, { stock: 10_000 });
    worker = await startTestWorker(api, { holdMaxMs: api.config.delivery.holdMaxMs });
    temporal = await api.temporal.client();
    receiver = await startReceiver((r: Received, res: ServerResponse) => {
      const p = parseOrderPost(r);
      const ok = !refuseOnce.delete(`${p.orderId}#${p.seq}`);
      posts.push({ ...p, ok });
      res.writeHead(ok ? 200 : 500).end();
    });
  });
  afterEach(async () => {
    expect(await terminateLeftRunning(temporal, api.config.temporal.taskQueue)).toEqual([]);
  });
  afterAll(async () => {
    await receiver?.close();
    await worker?.stop();
    await api?.close();
  });

  it("delivers each order's events in emission order after the resume, a refused first attempt retried before the next, none lost", async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write'], `owner-${randomUUID().slice(0, 8)}`);
    const sub = (await client.POST(`${v1}/subscribe`, { body: { url: receiver.url, events: ['order.created', 'order.updated'], ordering: 'per_key', drain_rate: 20 } })).data!;
    const path = { params: { path: { subscription_id: sub.id } } };
    expect((await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { ...path, body: { status: 'paused' } })).response.status).toBe(200);

    // While paused: three orders, each created then moved through its statuses.
    const orderIds: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
      expect(res.response.status).toBe(201);
      orderIds.push(res.data!.id);
    }
    for (const status of ['paid', 'shipped', 'delivered'] as const) {
      for (const id of orderIds) expect((await client.PATCH('/api/orders/{order_id}', { params: { path: { order_id: id } }, body: { status } })).response.status).toBe(200);
    }
    // The first order's first event, and the second order's second, are refused once when they are sent.
    refuseOnce.add(`${orderIds[0]}#1`);
    refuseOnce.add(`${orderIds[1]}#2`);
    await waitFor(async () => {
      const list = await client.GET(`${v1}/subscriptions/{subscription_id}/events`, { ...path, params: { ...path.params, query: { limit: 100 } } });
      return (list.data?.data.length ?? 0) === orderIds.length * 4;
    }, 30_000);
    // At least each order's first event is held; nothing reached the receiver.
    await waitFor(async () => ((await client.GET(`${v1}/subscriptions/{subscription_id}`, path)).data!.held?.count ?? 0) >= orderIds.length, 30_000);
    // Time for what else a pause does to come due (the later events: held, or waiting for their turn).
    await sleep(3000);
    expect(posts).toEqual([]);

    expect((await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { ...path, body: { status: 'active' } })).response.status).toBe(200);
    await temporal.workflow.getHandle(drainWorkflowId(sub.id)).result();
    const deliveredOf = (id: number) => new Set(posts.filter((p) => p.orderId === id && p.ok).map((p) => p.seq)).size;
    await waitFor(() => orderIds.every((id) => deliveredOf(id) === 4), 90_000);

    expect(outOfOrder(posts)).toEqual([]);
    // The refusals happened: the order held through a retry, not by luck.
    expect(refuseOnce.size).toBe(0);
    expect(posts.filter((p) => !p.ok)).toHaveLength(2);
    // None twice.
    expect(posts.filter((p) => p.ok)).toHaveLength(orderIds.length * 4);
    // A run's last POST arrives before it writes its mark and closes: let them all close.
    const running = () => temporal.workflow.count(`(${laneTaskQueues(api.config.temporal.taskQueue).map((q) => `TaskQueue = '${q}'`).join(' OR ')}) AND ExecutionStatus = 'Running'`);
    await waitFor(async () => (await running()).count === 0, 60_000);
  });
});
