import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import type { WebhookServiceClient } from '../../../src/client';
import { verify } from '../../../src/receiver';
import { eventWorkflowId } from '../../../workflows/ids';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { eventOutcome, terminateLeftRunning } from '../../support/event-workflows';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

type SubscriptionDisabledNotification = components['schemas']['SubscriptionDisabledNotification'];
const alertSecret = `whsec_${Buffer.alloc(24, 5).toString('base64')}`;

describe('failing endpoints are isolated', () => {
  let api: TestApi;
  let worker: TestWorker;
  let temporal: Client;
  let alerts: TestReceiver;
  const receivers: TestReceiver[] = [];

  beforeAll(async () => {
    alerts = await startReceiver((_req, res) => res.writeHead(204).end());
    api = await startTestApi({
      DELIVERY_RETRY_SCHEDULE: '1500ms',
      DELIVERY_MAX_ATTEMPTS: '6',
      DELIVERY_JITTER: '0',
      ENDPOINT_DISABLE_AFTER: '2s',
      ADMIN_ALERT_URL: alerts.url,
      ADMIN_ALERT_SECRET: alertSecret,
    });
    worker = await startTestWorker(api);
    temporal = await api.temporal.client();
  });
  afterEach(async () => {
    expect(await terminateLeftRunning(temporal, api.config.temporal.taskQueue)).toEqual([]);
  });
  afterAll(async () => {
    await Promise.all([...receivers, alerts].map((r) => r.close()));
    await worker.stop();
    await api.close();
  });

  async function owner(): Promise<WebhookServiceClient> {
    return (await api.clientWith(['webhooks:write', 'webhooks:read'], `owner-${randomUUID().slice(0, 8)}`)).client;
  }
  async function subscribe(client: WebhookServiceClient, url: string, extra: { max_in_flight?: number } = {}) {
    const res = await client.POST('/api/webhooks/v1/subscribe', { body: { url, events: ['webhook.test'], ...extra } });
    expect(res.response.status).toBe(201);
    return res.data!;
  }
  const read = async (client: WebhookServiceClient, id: string) =>
    (await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } } })).data!;
  async function sendTest(client: WebhookServiceClient, id: string): Promise<string> {
    const res = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path: { subscription_id: id } } });
    expect(res.response.status).toBe(202);
    return res.data!.event_id;
  }

  it('disables a subscription whose every attempt failed for ENDPOINT_DISABLE_AFTER, alerts, sends subscription.disabled; active re-enables it', async () => {
    const failing = await startReceiver((_req, res) => res.writeHead(503).end());
    receivers.push(failing);
    const client = await owner();
    const sub = await subscribe(client, failing.url);
    const eventId = await sendTest(client, sub.id);

    // Attempts at 0 s, 1.5 s (failing 1.5 s < 2 s), 3 s (failing 3 s): disabled, the rest cancelled.
    // A loaded machine may start the second attempt past 2 s: what must hold is that no attempt
    // before the last had failed for 2 s (else it would have disabled it), and none followed.
    const outcome = await eventOutcome(temporal, eventWorkflowId(eventId));
    const made = outcome.subscriptions[sub.id]!.attempts;
    expect(outcome.subscriptions[sub.id]).toMatchObject({ state: 'cancelled', cancelReason: 'subscription disabled' });
    expect(failing.received).toHaveLength(made);

    const disabled = await read(client, sub.id);
    expect(disabled.status).toBe('disabled');
    expect(disabled.disabled_reason).toMatch(/^every delivery failed since \d{4}-\d\d-\d\dT/);
    const attempts = (await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: sub.id } } })).data!.data;
    expect(attempts).toHaveLength(made);
    expect(disabled.failing_since).toBe(attempts.at(-1)!.started_at);
    expect(made).toBeGreaterThanOrEqual(2);
    expect(Date.parse(attempts[1]!.started_at) - Date.parse(disabled.failing_since!)).toBeLessThan(2000);

    const admin = (await api.clientWith(['admin'], 'ops')).client;
    const raised = (await admin.GET('/api/webhooks/v1/alerts', { params: { query: { limit: 100 } } })).data!.data.filter((a) => a.subscription_id === sub.id);
    expect(raised).toEqual([expect.objectContaining({ kind: 'subscription_disabled', event_id: eventId })]);
    // ...and not before it had failed for ENDPOINT_DISABLE_AFTER.
    expect(Date.parse(raised[0]!.created_at) - Date.parse(disabled.failing_since!)).toBeGreaterThanOrEqual(2000);

    // The operator gets the alert and the operational webhook, both signed with ADMIN_ALERT_SECRET.
    await waitFor(() => alerts.received.some((r) => r.body.includes(sub.id) && r.body.includes('subscription.disabled')), 10_000);
    const posted = alerts.received.find((r) => r.body.includes('"type":"subscription.disabled"') && r.body.includes(sub.id))!;
    const notification = verify<SubscriptionDisabledNotification>(posted.body, posted.headers, alertSecret);
    expect(notification).toEqual({
      type: 'subscription.disabled',
      timestamp: expect.any(String) as unknown,
      data: { subscription_id: sub.id, owner_id: expect.stringMatching(/^owner-/) as unknown, url: failing.url, reason: disabled.disabled_reason, failing_since: disabled.failing_since },
    });
    expect(posted.headers['webhook-id']).toBe(`op_subscription.disabled_${sub.id}_${eventId}`);

    // Re-enabled with a fresh streak: the next failure does not disable it again at once.
    const enabled = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: sub.id } }, body: { status: 'active' } });
    expect(enabled.data).toMatchObject({ status: 'active' });
    expect(enabled.data).not.toHaveProperty('failing_since');
    expect(enabled.data).not.toHaveProperty('disabled_reason');
  });

  it('a delivered attempt ends the streak', async () => {
    let healthy = false;
    const flaky = await startReceiver((_req, res) => res.writeHead(healthy ? 200 : 500).end());
    receivers.push(flaky);
    const client = await owner();
    const sub = await subscribe(client, flaky.url);
    const eventId = await sendTest(client, sub.id);
    await waitFor(async () => (await read(client, sub.id)).failing_since !== undefined, 10_000, 50);
    healthy = true;
    expect((await eventOutcome(temporal, eventWorkflowId(eventId))).subscriptions[sub.id]).toMatchObject({ state: 'delivered', attempts: 2 });
    const after = await read(client, sub.id);
    expect(after.status).toBe('active');
    expect(after).not.toHaveProperty('failing_since');
  });

  it('sends at most max_in_flight POSTs to one subscription at once; the ones put off are not attempts', async () => {
    let running = 0;
    let most = 0;
    const slow = await startReceiver((_req, res) => {
      most = Math.max(most, ++running);
      setTimeout(() => {
        running--;
        res.writeHead(200).end();
      }, 800);
    });
    receivers.push(slow);
    const client = await owner();
    const sub = await subscribe(client, slow.url, { max_in_flight: 1 });
    expect(sub.max_in_flight).toBe(1);
    const events = [await sendTest(client, sub.id), await sendTest(client, sub.id), await sendTest(client, sub.id)];

    const outcomes = await Promise.all(events.map((id) => eventOutcome(temporal, eventWorkflowId(id))));
    for (const o of outcomes) expect(o.subscriptions[sub.id]).toMatchObject({ state: 'delivered', attempts: 1 });
    expect(most).toBe(1);
    expect(slow.received).toHaveLength(3);
    // At least one waited its turn, and no put-off attempt was logged.
    expect(outcomes.some((o) => (o.subscriptions[sub.id]!.deferrals ?? 0) > 0)).toBe(true);
    const attempts = (await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: sub.id } } })).data!.data;
    expect(attempts.map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 'delivered'],
      [1, 'delivered'],
      [1, 'delivered'],
    ]);
  });
});
