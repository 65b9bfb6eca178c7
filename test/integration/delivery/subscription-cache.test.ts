import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { verify } from '../../../src/receiver';
import { eventWorkflowId } from '../../../workflows/ids';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { eventOutcome, terminateLeftRunning } from '../../support/event-workflows';
import { startReceiver, type TestReceiver } from '../../support/receiver';

/**
 * SUBSCRIPTION_CACHE_TTL's rule: a change to a subscription (URL, secret rotation, pause) applies
 * to attempts that start at least the TTL after it; with 0, to the very next one. Only that it
 * applies by then is asserted: whether an earlier attempt already sees it is left open.
 */
describe.each([
  { ttl: '1s', waitMs: 1_100 },
  { ttl: '0', waitMs: 0 },
])('a subscription change with SUBSCRIPTION_CACHE_TTL=$ttl', ({ ttl, waitMs }) => {
  let api: TestApi;
  let worker: TestWorker;
  let temporal: Client;
  let client: WebhookServiceClient;
  let first: TestReceiver;
  let second: TestReceiver;

  beforeAll(async () => {
    api = await startTestApi({ SUBSCRIPTION_CACHE_TTL: ttl, DELIVERY_RETRY_SCHEDULE: '1500ms', DELIVERY_JITTER: '0' });
    worker = await startTestWorker(api);
    temporal = await api.temporal.client();
    ({ client } = await api.clientWith(['webhooks:write', 'webhooks:read'], `owner-cache-${ttl}`));
    first = await startReceiver((_req, res) => res.writeHead(200).end());
    second = await startReceiver((_req, res) => res.writeHead(200).end());
  });
  afterAll(async () => {
    expect(await terminateLeftRunning(temporal, api.config.temporal.taskQueue)).toEqual([]);
    await Promise.all([first.close(), second.close()]);
    await worker.stop();
    await api.close();
  });

  const path = (id: string) => ({ params: { path: { subscription_id: id } } });
  async function deliverTest(id: string): Promise<string> {
    const res = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', path(id));
    expect(res.response.status).toBe(202);
    return (await eventOutcome(temporal, eventWorkflowId(res.data!.event_id))).subscriptions[id]!.state;
  }

  it('applies a new URL and a rotated secret once the TTL has passed', async () => {
    const sub = (await client.POST('/api/webhooks/v1/subscribe', { body: { url: first.url, events: ['webhook.test'] } })).data!;
    expect(await deliverTest(sub.id)).toBe('delivered');
    expect(first.received).toHaveLength(1);

    expect((await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { ...path(sub.id), body: { url: second.url } })).response.status).toBe(200);
    const rotated = (await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/rotate-secret', { ...path(sub.id), body: { expire_previous_in_seconds: 0 } })).data!;
    await sleep(waitMs);
    expect(await deliverTest(sub.id)).toBe('delivered');
    expect(second.received).toHaveLength(1);
    const got = second.received[0]!;
    expect(verify(got.body, got.headers, rotated.secret)).toBeTruthy();
    expect(got.headers['x-signature-previous']).toBeUndefined();
  });

  it('applies a pause to a retry that starts once the TTL has passed', async () => {
    let pause: () => Promise<unknown> = () => Promise.reject(new Error('not subscribed yet'));
    // The first attempt pauses the subscription before it answers 503; the retry comes 1.5 s later.
    const pausing = await startReceiver((_req, res, n) => (n > 1 ? res.writeHead(200).end() : void pause().finally(() => res.writeHead(503).end())));
    try {
      const sub = (await client.POST('/api/webhooks/v1/subscribe', { body: { url: pausing.url, events: ['webhook.test'] } })).data!;
      pause = () => client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { ...path(sub.id), body: { status: 'paused' } });
      expect(await deliverTest(sub.id)).toBe('cancelled');
      expect(pausing.received).toHaveLength(1);
    } finally {
      await pausing.close();
    }
  });
});
