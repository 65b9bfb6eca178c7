import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { type Received, startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';
import { eventWorkflowId } from '../../../workflows/ids';
import { type OrderPost, outOfOrder, parseOrderPost } from '../../support/ordered-posts';

const v1 = '/api/webhooks/v1';

/**
 * A new owner's ordered subscription to `url`, and an order it creates then pays: once both events
 * are logged for the subscription, their ids by type and a reader of one event's delivery timeline.
 */
async function createdThenPaid(api: TestApi, url: string) {
  const { client: own } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write'], `owner-${randomUUID().slice(0, 8)}`);
  const sub = await own.POST(`${v1}/subscribe`, { body: { url, events: ['order.created', 'order.updated'], ordering: 'per_key' } });
  expect(sub.response.status).toBe(201);
  const subscription_id = sub.data!.id;
  const order = await own.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
  expect(order.response.status).toBe(201);
  const paid = await own.PATCH('/api/orders/{order_id}', { params: { path: { order_id: order.data!.id } }, body: { status: 'paid' } });
  expect(paid.response.status).toBe(200);
  const ids: Record<string, string> = {};
  await waitFor(async () => {
    const list = await own.GET(`${v1}/subscriptions/{subscription_id}/events`, { params: { path: { subscription_id } } });
    for (const e of list.data?.data ?? []) ids[e.type] = e.id;
    return ids['order.created'] !== undefined && ids['order.updated'] !== undefined;
  }, 30_000);
  const timeline = async (event_id: string) => (await own.GET(`${v1}/subscriptions/{subscription_id}/events/{event_id}/delivery`, { params: { path: { subscription_id, event_id } } })).data!;
  return { subscription_id, orderId: order.data!.id, ids, timeline };
}

describe('ordered delivery per key (ordering: per_key), over real deliveries', () => {
  let api: TestApi;
  let worker: TestWorker;
  let receiver: TestReceiver;
  let client: WebhookServiceClient;
  const posts: OrderPost[] = [];
  /** The order whose first event is refused until every other order's events are delivered: its key's later events must wait, others must not. */
  let stuckOrder = -1;
  let stuckRefusals = 0;
  let othersDone = false;

  beforeAll(async () => {
    // 1 s between attempts, so retries happen within the test; enough attempts that nothing fails for good.
    api = await startTestApi({ DELIVERY_RETRY_SCHEDULE: '1s', DELIVERY_MAX_ATTEMPTS: '10', DELIVERY_JITTER: '0.5' });
    await seedDemoData(api.mongo.db, { stock: 100_000 });
    worker = await startTestWorker(api);
    // Every third request fails (500), and the stuck order's order.created until the others are through.
    receiver = await startReceiver((r: Received, res: ServerResponse, n: number) => {
      const p = parseOrderPost(r);
      const stuck = p.orderId === stuckOrder && p.seq === 1 && !othersDone;
      if (stuck) stuckRefusals++;
      const ok = !stuck && n % 3 !== 0;
      posts.push({ ...p, ok });
      res.writeHead(ok ? 200 : 500).end();
    });
    client = (await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write'], `owner-${randomUUID().slice(0, 8)}`)).client;
  });
  afterAll(async () => {
    await receiver?.close();
    await worker?.stop();
    await api?.close();
  });

  it('takes ordering on create and PATCH and shows it on reads', async () => {
    const created = await client.POST(`${v1}/subscribe`, { body: { url: receiver.url, events: ['order.created'], ordering: 'per_key' } });
    expect(created.response.status).toBe(201);
    expect(created.data!.ordering).toBe('per_key');
    const path = { params: { path: { subscription_id: created.data!.id } } };
    const patched = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { ...path, body: { ordering: 'none' } });
    expect(patched.data!.ordering).toBe('none');
    expect((await client.GET(`${v1}/subscriptions/{subscription_id}`, path)).data!.ordering).toBe('none');
    const bad = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { ...path, body: { ordering: 'fifo' as never } });
    expect(bad.response.status).toBe(400);
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path);
  });

  it("delivers each order's events in emission order under a flaky receiver, and a retrying key holds up no other", async () => {
    const sub = await client.POST(`${v1}/subscribe`, { body: { url: receiver.url, events: ['order.created', 'order.updated'], ordering: 'per_key' } });
    expect(sub.response.status).toBe(201);

    // The stuck order first; then several orders, each created and moved through its statuses as fast as the API answers.
    const orderIds: number[] = [];
    const placeOne = async () => {
      const res = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
      expect(res.response.status).toBe(201);
      return res.data!.id;
    };
    stuckOrder = await placeOne();
    orderIds.push(stuckOrder);
    const others = await Promise.all(Array.from({ length: 6 }, placeOne));
    orderIds.push(...others);
    await Promise.all(
      orderIds.map(async (id) => {
        for (const status of ['paid', 'shipped', 'delivered'] as const) {
          const res = await client.PATCH('/api/orders/{order_id}', { params: { path: { order_id: id } }, body: { status } });
          expect(res.response.status).toBe(200);
        }
      }),
    );

    const received = () => receiver.received.filter((r) => orderIds.includes(parseOrderPost(r).orderId));
    const deliveredOf = (id: number) => new Set(posts.filter((p) => p.orderId === id && p.ok).map((p) => p.seq)).size;
    // Other keys flow while the stuck one retries (one FIFO per endpoint would never get here); its later events wait.
    await waitFor(() => others.every((id) => deliveredOf(id) === 4), 90_000);
    othersDone = true;
    expect(stuckRefusals).toBeGreaterThan(0);
    expect(posts.filter((p) => p.orderId === stuckOrder).every((p) => p.seq === 1)).toBe(true);

    await waitFor(() => deliveredOf(stuckOrder) === 4, 60_000);
    expect(outOfOrder(posts)).toEqual([]);
    // Each delivery names its key.
    expect(new Set(received().map((r) => `${r.headers['webhook-ordering-key'] as string}=${parseOrderPost(r).orderId}`))).toEqual(new Set(orderIds.map((id) => `order:${id}=${id}`)));
    // Every third request failed: the order held through retries, not by luck.
    expect(posts.filter((p) => !p.ok).length).toBeGreaterThan(5);
  });

  it('shows in the timeline that an event waits for the earlier one of its key, then that it was delivered', async () => {
    let holdCreated = true;
    const gated = await startReceiver((r: Received, res: ServerResponse) => {
      res.writeHead(holdCreated && parseOrderPost(r).seq === 1 ? 500 : 200).end();
    });
    try {
      // Both events logged for the subscription: order.created retries (500), order.updated waits for it.
      const { orderId, ids, timeline } = await createdThenPaid(api, gated.url);
      let next = (await timeline(ids['order.updated']!)).next;
      await waitFor(async () => {
        next = (await timeline(ids['order.updated']!)).next;
        return next.waiting !== undefined;
      }, 30_000);
      expect(next).toMatchObject({
        final: false,
        state: 'pending',
        attempt: 1,
        waiting: { reason: 'ordering', key: `order:${orderId}`, event_id: ids['order.created'], event_state: 'in_delivery' },
      });
      expect(next.at).toBeUndefined();
      expect(next.reason).toContain(ids['order.created']);

      holdCreated = false;
      await waitFor(async () => (await timeline(ids['order.updated']!)).state === 'delivered', 60_000);
      expect((await timeline(ids['order.updated']!)).next).toEqual({ final: true, state: 'delivered' });
      expect((await timeline(ids['order.created']!)).state).toBe('delivered');
    } finally {
      await gated.close();
    }
  });

  it('lets the next event of a key go when the workflow of the one before it was terminated without ending its turn', async () => {
    // Refuses order.created for good: only an operator's terminate ends its delivery.
    const refusing = await startReceiver((r: Received, res: ServerResponse) => {
      res.writeHead(parseOrderPost(r).seq === 1 ? 500 : 200).end();
    });
    try {
      const { subscription_id, ids, timeline } = await createdThenPaid(api, refusing.url);
      await waitFor(async () => (await timeline(ids['order.updated']!)).next.waiting !== undefined, 30_000);

      // No mark, no signal: the waiting event finds the closed workflow on its next look.
      const temporal = await api.temporal.client();
      await temporal.workflow.getHandle(eventWorkflowId(ids['order.created']!)).terminate('operator ends a stuck delivery');
      await waitFor(async () => (await timeline(ids['order.updated']!)).state === 'delivered', 90_000);
      expect(await api.mongo.db.collection('ordering_marks').countDocuments({ _id: `${subscription_id}|${ids['order.created']!}` as never })).toBe(1);
    } finally {
      await refusing.close();
    }
  });

  it("delivers a product's stock events in ledger order while many orders take its units at once", async () => {
    // Each POST of stock.updated, in arrival order: its product's level before and after, and whether it was answered 2xx.
    const stock: Array<{ product: number; from: number; to: number; ok: boolean }> = [];
    const flaky = await startReceiver((r: Received, res: ServerResponse, n: number) => {
      const body = JSON.parse(r.body) as { data: { product_id: number; previous_quantity: number; quantity: number } };
      const ok = n % 3 !== 0;
      stock.push({ product: body.data.product_id, from: body.data.previous_quantity, to: body.data.quantity, ok });
      res.writeHead(ok ? 200 : 500).end();
    });
    try {
      const { client: own } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write'], `owner-${randomUUID().slice(0, 8)}`);
      const sub = await own.POST(`${v1}/subscribe`, { body: { url: flaky.url, events: ['stock.updated'], ordering: 'per_key' } });
      expect(sub.response.status).toBe(201);
      // Twelve orders at once, each taking one unit of product 2 and one of product 3: two keys, each a chain of twelve moves.
      const placed = await Promise.all(
        Array.from({ length: 12 }, () => own.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 2, quantity: 1 }, { product_id: 3, quantity: 1 }] } })),
      );
      expect(placed.map((p) => p.response.status)).toEqual(Array.from({ length: 12 }, () => 201));
      await waitFor(() => stock.filter((s) => s.ok).length === 24, 90_000);
      // In ledger order, each event starts from the level the one before it left; a POST never comes before its predecessor was delivered.
      for (const product of [2, 3]) {
        const posts = stock.filter((s) => s.product === product);
        let level: number | undefined;
        for (const p of posts) {
          if (level !== undefined) expect(p.from, `product ${product}: ${JSON.stringify(posts)}`).toBe(level);
          if (p.ok) level = p.to;
        }
      }
      expect(stock.filter((s) => !s.ok).length).toBeGreaterThan(3);
    } finally {
      await flaky.close();
    }
  });
});
