import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { type ReceivedEvent, webhookReceiver } from '../../../src/receiver';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { terminateLeftRunning } from '../../support/event-workflows';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

/** A receiver-kit endpoint on loopback that accepts deliveries only from `allowedSources`. */
async function kitReceiver(secret: string, allowedSources: readonly string[]) {
  const handled: ReceivedEvent[] = [];
  const app = express();
  app.use(
    '/hooks',
    webhookReceiver({
      secret,
      dedupe: false,
      allowedSources,
      handle: (event) => {
        handled.push(event);
        return Promise.resolve();
      },
    }),
  );
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, handled, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

describe('DELIVERY_SOURCE_ADDRESS end to end: the real worker delivers from it, receivers allow-list it', () => {
  let api: TestApi;
  let worker: TestWorker;
  let client: WebhookServiceClient;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    api = await startTestApi({ DELIVERY_SOURCE_ADDRESS: '127.0.0.2', DELIVERY_RETRY_SCHEDULE: '1s', DELIVERY_MAX_ATTEMPTS: '5', DELIVERY_JITTER: '0' });
    worker = await startTestWorker(api);
    ({ client } = await api.clientWith(['webhooks:write', 'webhooks:read'], `owner-${randomUUID().slice(0, 8)}`));
  });
  afterAll(async () => {
    await Promise.all(closers.map((close) => close()));
    // Every workflow a test started has ended: nothing is left running on the shared server.
    expect(await terminateLeftRunning(await api.temporal.client(), api.config.temporal.taskQueue)).toEqual([]);
    await worker.stop();
    await api.close();
  });

  /** Subscribes `url` with `secret` and sends it a test event; returns the subscription and event ids. */
  async function sendTestEvent(url: string, secret?: string): Promise<{ subscriptionId: string; eventId: string }> {
    const sub = await client.POST('/api/webhooks/v1/subscribe', { body: { url, events: ['webhook.test'], ...(secret ? { secret } : {}) } });
    expect(sub.response.status).toBe(201);
    const sent = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path: { subscription_id: sub.data!.id } } });
    expect(sent.response.status).toBe(202);
    return { subscriptionId: sub.data!.id, eventId: sent.data!.event_id };
  }

  it('publishes the address at /meta, and the delivery arrives from it (the receiver socket’s peer)', async () => {
    const meta = await api.anonymous().GET('/api/webhooks/v1/meta');
    expect(meta.data).toEqual({ delivery_source_addresses: ['127.0.0.2/32'], delivery_source_addresses_fixed: true });

    const receiver: TestReceiver = await startReceiver((_req, res) => res.writeHead(200).end('ok'));
    closers.push(() => receiver.close());
    await sendTestEvent(receiver.url);
    await waitFor(() => receiver.received.length === 1, 20_000);
    expect(receiver.received[0]!.remoteAddress).toBe('127.0.0.2');
  });

  it('a receiver kit allowing the published list processes the delivery; one allowing only 127.0.0.3 answers 403 and the service stops', async () => {
    const published = (await api.anonymous().GET('/api/webhooks/v1/meta')).data!.delivery_source_addresses;
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const allowing = await kitReceiver(secret, published);
    const refusing = await kitReceiver(secret, ['127.0.0.3']);
    closers.push(allowing.close, refusing.close);

    const accepted = await sendTestEvent(allowing.url, secret);
    const refused = await sendTestEvent(refusing.url, secret);

    await waitFor(() => allowing.handled.length === 1, 20_000);
    expect(allowing.handled[0]!.id).toBe(accepted.eventId);

    // A 4xx stops the delivery: one attempt, logged with the kit's 403 and its problem detail.
    const attemptsOf = async (subscriptionId: string) =>
      (await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: subscriptionId } } })).data!.data;
    await waitFor(async () => (await attemptsOf(refused.subscriptionId)).length > 0, 20_000);
    const [attempt, ...more] = await attemptsOf(refused.subscriptionId);
    expect(more).toEqual([]);
    expect(attempt).toMatchObject({ event_id: refused.eventId, outcome: 'http_error', status_code: 403, state: 'stopped' });
    expect(attempt!.response_excerpt).toContain('127.0.0.2 is not an allowed source address');
    expect(refusing.handled).toEqual([]);
    expect((await attemptsOf(accepted.subscriptionId)).map((a) => [a.outcome, a.status_code])).toEqual([['delivered', 200]]);
  });
});
