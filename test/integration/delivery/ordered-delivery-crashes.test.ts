import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type WebhookServiceClient } from '../../../src/client';
import { type OrderDoc, orderKey } from '../../../src/orders/repository';
import { seedDemoData } from '../../../src/seed/seed';
import type { ManagedProcess } from '../../../stack/runtime/processes';
import { startTestApi, type TestApi } from '../../support/api';
import { startApiProcess } from '../../support/api-process';
import { type Received, startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';
import { orderLeftByACrash } from '../../support/crashed-order';
import { type OrderPost, outOfOrder, parseOrderPost } from '../../support/ordered-posts';
import { startWorkerProcess } from '../../support/worker-process';

const v1 = '/api/webhooks/v1';

/*
 * Ordered delivery through crashes, with the real worker process (its relay every 500 ms) and a
 * receiver that fails every third request: an API that died between an event's write and its
 * dispatch, a worker SIGKILLed mid-run, and an API process SIGKILLed while it moves orders.
 */
describe('ordered delivery per key through crashes', () => {
  let api: TestApi;
  let receiver: TestReceiver;
  let client: WebhookServiceClient;
  let worker: ManagedProcess | undefined;
  const posts: OrderPost[] = [];
  const owner = `owner-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    api = await startTestApi({ DELIVERY_RETRY_SCHEDULE: '1s', DELIVERY_MAX_ATTEMPTS: '10', DELIVERY_JITTER: '0.5' });
    await seedDemoData(api.mongo.db, { stock: 100_000 });
    receiver = await startReceiver((r: Received, res: ServerResponse, n: number) => {
      const ok = n % 3 !== 0;
      posts.push({ ...parseOrderPost(r), ok });
      res.writeHead(ok ? 200 : 500).end();
    });
    client = (await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write', 'admin'], owner)).client;
    const sub = await client.POST(`${v1}/subscribe`, { body: { url: receiver.url, events: ['order.created', 'order.updated'], ordering: 'per_key' } });
    expect(sub.response.status).toBe(201);
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await api?.close();
  });

  const deliveredOf = (id: number) => new Set(posts.filter((p) => p.orderId === id && p.ok).map((p) => p.seq)).size;

  it('an update dispatched while the order.created before it waits in its outbox (its API died) is delivered after it', async () => {
    // What a crash right after the order's insert leaves: its note, and order.created (place 1) in its outbox only.
    const id = 9101;
    await orderLeftByACrash(api, id);
    // Another API process moves it on at once: its event is dispatched right away, the relay takes the note only seconds later.
    const paid = await client.PATCH('/api/orders/{order_id}', { params: { path: { order_id: id } }, body: { status: 'paid' } });
    expect(paid.response.status).toBe(200);
    worker = startWorkerProcess(api);
    await waitFor(() => deliveredOf(id) === 2, 90_000);
    expect(outOfOrder(posts)).toEqual([]);
  });

  it('a worker SIGKILLed and an API process SIGKILLed mid-run: nothing lost, nothing out of order', async () => {
    const apiProcess = await startApiProcess(api, { DELIVERY_RETRY_SCHEDULE: '1s', DELIVERY_MAX_ATTEMPTS: '10' });
    const { key } = await api.deps.apiKeys.create({ ownerId: owner, name: 'crash', scopes: ['orders:write', 'resources:read'] });
    const viaProcess = createClient({ baseUrl: apiProcess.baseUrl, apiKey: key });
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
      ids.push(res.data!.id);
    }
    // Each order is moved through its statuses by the API process, as fast as it answers, until it is killed.
    const moving = Promise.allSettled(
      ids.map(async (id) => {
        for (const status of ['paid', 'shipped', 'delivered'] as const) {
          const res = await viaProcess.PATCH('/api/orders/{order_id}', { params: { path: { order_id: id } }, body: { status } });
          if (res.response.status !== 200) return;
        }
      }),
    );
    // Killed once some updates went out: others are still being written, dispatched or retried.
    await waitFor(() => posts.filter((p) => ids.includes(p.orderId) && p.seq > 1).length >= 3, 60_000, 20);
    await worker!.kill();
    await apiProcess.process.kill();
    await moving;
    worker = startWorkerProcess(api);

    // Nothing lost: every event each order's outbox holds reaches the receiver, in its place.
    const written = async () =>
      Promise.all(ids.map(async (id) => (await api.mongo.db.collection<OrderDoc>('orders').findOne({ _id: orderKey(id) }))!.outbox.filter((e) => e.type.startsWith('order.')).length));
    await waitFor(async () => {
      const counts = await written();
      return ids.every((id, i) => deliveredOf(id) === counts[i]);
    }, 120_000);
    expect((await written()).reduce((a, b) => a + b, 0)).toBeGreaterThan(ids.length);
    expect(outOfOrder(posts)).toEqual([]);
  });
});
