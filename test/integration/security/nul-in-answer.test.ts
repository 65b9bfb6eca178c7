import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { type AttemptDoc, AttemptRepository, attemptId } from '../../../src/deliveries/attempts';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { eventOutcome, terminateLeftRunning } from '../../support/event-workflows';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { eventWorkflowId } from '../../../workflows/ids';

describe('a receiver answering a NUL byte', () => {
  let api: TestApi;
  let worker: TestWorker;
  const receivers: TestReceiver[] = [];

  beforeAll(async () => {
    api = await startTestApi({ DELIVERY_RETRY_SCHEDULE: '1s', DELIVERY_JITTER: '0' });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
  });
  afterAll(async () => {
    if (!api) return;
    expect(await terminateLeftRunning(await api.temporal.client(), api.config.temporal.taskQueue)).toEqual([]);
    await Promise.all(receivers.map((r) => r.close()));
    await worker?.stop();
    await api.close();
  });

  /** A subscription of `client`'s owner to order.created, answered by a receiver that sends `body`. */
  async function subscribed(client: WebhookServiceClient, body: string): Promise<{ client: WebhookServiceClient; id: string; receiver: TestReceiver }> {
    const receiver = await startReceiver((_req, res) => res.writeHead(200).end(body));
    receivers.push(receiver);
    const sub = await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['order.created'] } });
    expect(sub.response.status).toBe(201);
    return { client, id: sub.data!.id, receiver };
  }

  it('a log write that stores only some documents fails, and a retry stores the rest once each', async () => {
    const repo = new AttemptRepository(api.mongo.db);
    const tag = randomUUID().slice(0, 8);
    const doc = (attempt: number, excerpt: string): AttemptDoc => ({
      _id: attemptId(`probe/${tag}`, attempt),
      event_id: `evt_${tag}`,
      subscription_id: `sub_${tag}_${attempt}`,
      series: `probe/${tag}`,
      attempt,
      started_at: new Date(),
      duration_ms: 1,
      outcome: 'delivered',
      status_code: 200,
      response_excerpt: excerpt,
      url: 'http://127.0.0.1:9/hooks',
      state: 'delivered',
    });
    // Written as given (not through the activity, which makes every string storable): the database refuses the NUL.
    const batch = [doc(1, 'ok'), doc(2, 'ok\u0000ok'), doc(3, 'ok'), doc(4, 'ok')];
    await expect(repo.recordMany(batch)).rejects.toThrow(/not stored/);
    const stored = async () => (await api.mongo.db.collection<AttemptDoc>('attempts').find({ event_id: `evt_${tag}` }).toArray()).map((d) => d.attempt).sort();
    expect(await stored()).toEqual([1, 3, 4]);
    // The retry Temporal makes: the stored three are proven there (read back), the fixed one is written.
    expect(await repo.recordMany([batch[0]!, doc(2, 'ok\uFFFDok'), batch[2]!, batch[3]!])).toEqual(new Set([0, 2, 3]));
    expect(await stored()).toEqual([1, 2, 3, 4]);
  });

  it("logs every subscription's attempt of the round, the NUL stored as U+FFFD", async () => {
    // Subscribed in this order, so the NUL answer is the second document of the round's log write.
    const { client } = await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write'], `owner-${randomUUID().slice(0, 8)}`);
    const subs = [await subscribed(client, 'ok'), await subscribed(client, 'ok\u0000ok'), await subscribed(client, 'ok'), await subscribed(client, 'ok')];
    const order = await subs[0]!.client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    const eventId = (await api.deps.resources.orders.outboxOf(order.data!.id)).find((e) => e.type === 'order.created')!.id;

    const outcome = await eventOutcome(await api.temporal.client(), eventWorkflowId(eventId));
    expect(outcome.state).toBe('delivered');
    for (const s of subs) expect(s.receiver.received).toHaveLength(1);
    const logged = await Promise.all(
      subs.map(async (s) => {
        const res = await s.client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: s.id } } });
        expect(res.response.status).toBe(200);
        return (res.data?.data ?? []).map((a) => [a.event_id, a.attempt, a.outcome, a.state, a.response_excerpt]);
      }),
    );
    expect(logged).toEqual([
      [[eventId, 1, 'delivered', 'delivered', 'ok']],
      [[eventId, 1, 'delivered', 'delivered', 'ok\uFFFDok']],
      [[eventId, 1, 'delivered', 'delivered', 'ok']],
      [[eventId, 1, 'delivered', 'delivered', 'ok']],
    ]);
  });
});
