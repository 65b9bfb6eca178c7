import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../../src/seed/seed';
import { eventWorkflowId } from '../../../workflows/ids';
import { retryNowSignal } from '../../../workflows/event';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { eventOutcome } from '../../support/event-workflows';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

const timeoutMs = 2000;
const events = 60;

describe('a receiver that never answers does not hold up the others (real Temporal, FerretDB and receivers)', () => {
  let api: TestApi;
  let worker: TestWorker;
  const receivers: TestReceiver[] = [];
  const held: ServerResponse[] = [];

  beforeAll(async () => {
    api = await startTestApi({ DELIVERY_TIMEOUT: `${timeoutMs}ms`, DELIVERY_RETRY_SCHEDULE: '1h', DELIVERY_MAX_ATTEMPTS: '5' });
    // 60 orders of one product: delivery, not stock, is the matter here.
    await seedDemoData(api.mongo.db, { stock: 100_000 });
    worker = await startTestWorker(api);
  });
  afterAll(async () => {
    for (const res of held) res.destroy();
    await Promise.all(receivers.map((r) => r.close()));
    await worker.stop();
    await api.close();
  });

  it(`delivers ${events} events to three healthy subscribers before the slow one's POST of each event times out`, async () => {
    const slow = await startReceiver((_req, res) => held.push(res));
    const healthy = await Promise.all([0, 1, 2].map(() => startReceiver((_req, res) => res.writeHead(200).end())));
    receivers.push(slow, ...healthy);
    const { client } = await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write'], 'owner-slow');
    const subscribe = async (r: TestReceiver) => (await client.POST('/api/webhooks/v1/subscribe', { body: { url: r.url, events: ['order.created'] } })).data!.id;
    const slowSub = await subscribe(slow);
    for (const r of healthy) await subscribe(r);

    // Orders in waves of 10 concurrent requests; each order's answer time is when its event exists.
    const createdAt = new Map<string, number>();
    for (let wave = 0; wave < events / 10; wave++) {
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
          expect(order.response.status).toBe(201);
          const stored = await api.deps.resources.orders.findById(order.data!.id);
          createdAt.set(stored!.outbox[0]!.id, Date.now());
        }),
      );
    }
    await waitFor(() => healthy.every((r) => r.received.length === events), 60_000, 50);

    // Each healthy delivery arrived before the slow POST of the same event, sent in the same round, timed out.
    await waitFor(() => slow.received.length === events, 30_000, 50);
    const slowAt = new Map(slow.received.map((got) => [got.headers['webhook-id'] as string, got.at]));
    const margins = healthy.flatMap((r) => r.received.map((got) => slowAt.get(got.headers['webhook-id'] as string)! + timeoutMs - got.at));
    console.log(`healthy deliveries: ${margins.length}, the closest ${Math.min(...margins)} ms before the slow POST of its event timed out (${timeoutMs} ms)`);
    expect(margins).toHaveLength(3 * events);
    expect(margins.every((m) => m > 0)).toBe(true);

    // Every event then waits an hour to retry the slow subscriber: delete it and wake them, and each ends cancelled for it.
    await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: slowSub } } });
    const temporal = await api.temporal.client();
    for (const eventId of createdAt.keys()) {
      const handle = temporal.workflow.getHandle(eventWorkflowId(eventId));
      await waitFor(async () => (await handle.query<{ state: string }>('deliveryStatus')).state === 'retrying', 30_000, 50);
      await handle.signal(retryNowSignal, { subscriptionId: slowSub });
      const outcome = await eventOutcome(temporal, handle.workflowId);
      expect(outcome.subscriptions[slowSub]).toMatchObject({ state: 'cancelled', attempts: 1, lastOutcome: 'timeout', cancelReason: 'subscription deleted' });
      expect(Object.values(outcome.subscriptions).filter((s) => s.state === 'delivered')).toHaveLength(3);
    }
  });
});
