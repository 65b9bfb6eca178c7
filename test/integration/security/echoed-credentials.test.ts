import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import type { WebhookServiceClient } from '../../../src/client';
import type { AttemptDoc } from '../../../src/deliveries/attempts';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { eventOutcome, terminateLeftRunning } from '../../support/event-workflows';
import { type Received, startReceiver, type TestReceiver } from '../../support/receiver';
import { eventWorkflowId } from '../../../workflows/ids';

type SubscribeBody = components['schemas']['SubscriptionCreate'];

describe('a receiver echoing the request headers', () => {
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

  /** A subscription of `client`'s owner to order.created whose receiver answers 200 with `answer(request)`. */
  async function subscribed(client: WebhookServiceClient, body: Omit<SubscribeBody, 'url' | 'events'>, answer: (req: Received) => string) {
    const receiver = await startReceiver((req, res) => res.writeHead(200).end(answer(req)));
    receivers.push(receiver);
    const sub = await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['order.created'], ...body } });
    expect(sub.response.status).toBe(201);
    return { id: sub.data!.id, receiver };
  }

  it('has every credential it echoes redacted from the stored excerpt, one cut by the excerpt cap included', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write'], `owner-${randomUUID().slice(0, 8)}`);
    const apiKey = `key-${randomUUID()}`;
    const token = `tok-${randomUUID()}`;
    const password = `pw-${randomUUID()}`;
    const echo = (req: Received) => `x-api-key=${String(req.headers['x-api-key'])} authorization=${String(req.headers.authorization)}`;
    const bearer = await subscribed(client, { headers: { 'X-Api-Key': apiKey }, auth: { type: 'bearer', token } }, echo);
    // The decoded password in full, then the Authorization value cut by the 1024-byte excerpt cap.
    const basic = await subscribed(client, { auth: { type: 'basic', username: 'hooks', password } }, (req) => {
      const value = String(req.headers.authorization);
      const pair = Buffer.from(value.slice('Basic '.length), 'base64').toString('utf8');
      const head = `pair=${pair} authorization=`;
      return `${head}${'.'.repeat(1024 - head.length - 10)}${value}`;
    });

    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    const eventId = (await api.deps.resources.orders.outboxOf(order.data!.id)).find((e) => e.type === 'order.created')!.id;
    expect((await eventOutcome(await api.temporal.client(), eventWorkflowId(eventId))).state).toBe('delivered');
    // The receivers did get the credentials: it is the log that must not keep them.
    expect(bearer.receiver.received[0]!.headers['x-api-key']).toBe(apiKey);
    expect(basic.receiver.received[0]!.headers.authorization).toMatch(/^Basic /);

    const excerpt = async (subscriptionId: string) => {
      const res = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: subscriptionId } } });
      expect(res.data?.data).toHaveLength(1);
      return res.data!.data[0]!.response_excerpt ?? '';
    };
    expect(await excerpt(bearer.id)).toBe('x-api-key=[redacted] authorization=[redacted]');
    const cut = await excerpt(basic.id);
    expect(cut.startsWith('pair=[redacted] authorization=....')).toBe(true);
    expect(cut.endsWith('.[redacted]')).toBe(true);
    // Nothing of any credential anywhere in what was stored.
    const stored = JSON.stringify(await api.mongo.db.collection<AttemptDoc>('attempts').find({ event_id: eventId }).toArray());
    for (const secret of [apiKey, token, password, Buffer.from(`hooks:${password}`).toString('base64').slice(0, 8)]) expect(stored).not.toContain(secret);
  });
});
