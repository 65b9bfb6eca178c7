import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../../src/seed/seed';
import { eventWorkflowId, partWorkflowId } from '../../../workflows/ids';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { eventOutcome } from '../../support/event-workflows';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

const burst = 5;

describe('lanes: an owner past its fair rate starts on the bulk task queue (real Temporal, FerretDB and receivers)', () => {
  let api: TestApi;
  let worker: TestWorker;
  const receivers: TestReceiver[] = [];

  beforeAll(async () => {
    // A rate that refills nothing during the test: exactly the first `burst` events of an owner take the default lane.
    // Parts of one subscription each: every event is split, and its parts must follow it to its lane.
    api = await startTestApi({ OWNER_FAIR_RATE: '0.001', OWNER_FAIR_BURST: String(burst), DELIVERY_BATCH_SIZE: '1' });
    await seedDemoData(api.mongo.db, { stock: 100_000 });
    worker = await startTestWorker(api);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await worker.stop();
    await api.close();
  });

  /** An owner subscribed to order.created at two receivers of its own, placing `n` orders; their event ids in order. */
  async function ownerOrders(owner: string, n: number): Promise<{ eventIds: string[]; own: TestReceiver[] }> {
    const own = await Promise.all([0, 1].map(() => startReceiver((_req, res) => res.writeHead(200).end())));
    receivers.push(...own);
    const { client } = await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write'], owner);
    for (const r of own) expect((await client.POST('/api/webhooks/v1/subscribe', { body: { url: r.url, events: ['order.created'] } })).response.status).toBe(201);
    const eventIds: string[] = [];
    for (let i = 0; i < n; i++) {
      const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
      expect(order.response.status).toBe(201);
      eventIds.push((await api.deps.resources.orders.findById(order.data!.id))!.outbox[0]!.id);
    }
    return { eventIds, own };
  }

  it("delivers a burst owner's events past its burst from the bulk lane, parts included, and a quiet owner's from the default lane, losing none", async () => {
    const flood = await ownerOrders('owner-flood', burst + 10);
    const quiet = await ownerOrders('owner-quiet', 3);
    const temporal = await api.temporal.client();
    const queue = api.config.temporal.taskQueue;
    const queueOf = async (workflowId: string) => (await temporal.workflow.getHandle(workflowId).describe()).taskQueue;
    // An event's lane, once its two parts are seen on the same one.
    const lanesOf = (ids: string[]) =>
      Promise.all(
        ids.map(async (id) => {
          const lane = await queueOf(eventWorkflowId(id));
          for (const k of [1, 2]) await waitFor(async () => (await queueOf(partWorkflowId(eventWorkflowId(id), k)).catch(() => undefined)) !== undefined, 30_000, 100);
          const parts = await Promise.all([1, 2].map((k) => queueOf(partWorkflowId(eventWorkflowId(id), k))));
          return parts.every((q) => q === lane) ? lane : `parts on ${parts.join(', ')} apart from ${lane}`;
        }),
      );

    expect(await lanesOf(flood.eventIds)).toEqual([...Array<string>(burst).fill(queue), ...Array<string>(10).fill(`${queue}-bulk`)]);
    expect(await lanesOf(quiet.eventIds)).toEqual(Array<string>(3).fill(queue));

    for (const { eventIds, own } of [flood, quiet]) {
      for (const id of eventIds) expect((await eventOutcome(temporal, eventWorkflowId(id))).state).toBe('delivered');
      for (const receiver of own) {
        await waitFor(() => receiver.received.length >= eventIds.length, 30_000, 50);
        const delivered = receiver.received.map((got) => got.headers['webhook-id'] as string);
        expect(new Set(delivered)).toEqual(new Set(eventIds));
        expect(delivered).toHaveLength(eventIds.length);
      }
    }
  });
});
