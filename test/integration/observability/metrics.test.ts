import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagedProcess } from '../../../stack/runtime/processes';
import { getFreePort } from '../../../stack/runtime/ports';
import { seedDemoData } from '../../../src/seed/seed';
import { createApiMetrics } from '../../../src/telemetry/metrics';
import { eventWorkflowId } from '../../../workflows/ids';
import { startTestApi, type TestApi } from '../../support/api';
import { eventOutcome } from '../../support/event-workflows';
import { delta, scrape, type Scrape } from '../../support/prometheus';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';
import { startWorkerProcess } from '../../support/worker-process';

const token = `metrics-${randomUUID()}`;

describe('metrics: both /metrics endpoints move by exactly what happened', () => {
  let api: TestApi;
  let worker: ManagedProcess;
  let workerMetricsUrl: string;
  const receivers: TestReceiver[] = [];

  beforeAll(async () => {
    // Up to 5 attempts, 2 s apart: an exhausted delivery takes about 8 s.
    // 100 subscriptions are made at once: no bound on requests in flight (load shedding is tested on its own).
    api = await startTestApi({ DELIVERY_RETRY_SCHEDULE: '2s', DELIVERY_MAX_ATTEMPTS: '5', DELIVERY_JITTER: '0', METRICS_TOKEN: token, API_MAX_IN_FLIGHT: '0' }, { metrics: createApiMetrics() });
    await seedDemoData(api.mongo.db);
    const port = await getFreePort();
    workerMetricsUrl = `http://127.0.0.1:${port}/metrics`;
    worker = startWorkerProcess(api, { WORKER_METRICS_PORT: String(port), METRICS_TOKEN: token });
    await waitFor(() => fetch(workerMetricsUrl, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.ok, () => false), 60_000, 250);
  });
  afterAll(async () => {
    await worker?.stop();
    await Promise.all(receivers.map((r) => r.close()));
    await api?.close();
  });

  const apiScrape = () => scrape(`${api.baseUrl}/metrics`, token);
  const workerScrape = () => scrape(workerMetricsUrl, token);
  async function receiver(status: (n: number) => number): Promise<TestReceiver> {
    const r = await startReceiver((_req, res, n) => res.writeHead(status(n)).end());
    receivers.push(r);
    return r;
  }
  /** Subscribes `url` for `owner` (a new one by default): an order reaches its owner's subscriptions only. */
  async function subscribe(url: string, events: Array<'order.created' | 'webhook.test'>, owner = `owner-${randomUUID().slice(0, 8)}`) {
    const { client } = await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write'], owner);
    const sub = await client.POST('/api/webhooks/v1/subscribe', { body: { url, events } });
    expect(sub.response.status).toBe(201);
    return { client, id: sub.data!.id };
  }

  it('both endpoints refuse a scrape without the token, naming it', async () => {
    const res = await fetch(`${api.baseUrl}/metrics`);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(((await res.json()) as { detail: string }).detail).toContain('METRICS_TOKEN');
    expect((await fetch(workerMetricsUrl, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
  });

  it('a delivered, a retried and an exhausted delivery move the counters and histograms by exactly those amounts', async () => {
    const ok = await receiver(() => 200);
    const flaky = await receiver((n) => (n === 1 ? 503 : 200));
    const down = await receiver(() => 500);
    const owner = `owner-${randomUUID().slice(0, 8)}`;
    const { client } = await subscribe(ok.url, ['order.created'], owner);
    await subscribe(flaky.url, ['order.created'], owner);
    const exhausted = await subscribe(down.url, ['order.created'], owner);
    const [apiBefore, workerBefore] = await Promise.all([apiScrape(), workerScrape()]);

    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    const eventId = (await api.deps.resources.orders.outboxOf(order.data!.id))[0]!.id;

    // While the failing receiver is being retried, the gauge shows its delivery.
    let retrying: Scrape | undefined;
    await waitFor(async () => {
      retrying = await workerScrape();
      return retrying.value('webhook_deliveries_retrying') >= 1;
    }, 15_000, 200);
    const outcome = await eventOutcome(await api.temporal.client(), eventWorkflowId(eventId));
    expect(outcome.subscriptions[exhausted.id]).toMatchObject({ state: 'failed', attempts: 5 });
    expect([ok.received.length, flaky.received.length, down.received.length]).toEqual([1, 2, 5]);

    const [apiAfter, workerAfter] = await Promise.all([apiScrape(), workerScrape()]);
    const d = (name: string, labels: Record<string, string> = {}) => delta(workerBefore, workerAfter, name, labels);
    expect({
      delivered2xx: d('webhook_delivery_attempts_total', { outcome: 'delivered', status_class: '2xx' }),
      failed5xx: d('webhook_delivery_attempts_total', { outcome: 'http_error', status_class: '5xx' }),
      allAttempts: d('webhook_delivery_attempts_total'),
      deliveredDurations: d('webhook_delivery_attempt_duration_seconds', { outcome: 'delivered' }),
      failedDurations: d('webhook_delivery_attempt_duration_seconds', { outcome: 'http_error' }),
      firstAttemptLags: d('webhook_event_first_attempt_lag_seconds'),
      finishedDelivered: d('webhook_deliveries_finished_total', { state: 'delivered' }),
      finishedFailed: d('webhook_deliveries_finished_total', { state: 'failed' }),
      exhausted: d('webhook_deliveries_exhausted_total'),
      alerts: d('webhook_alerts_raised_total', { kind: 'delivery_failed' }),
      retryingAfter: workerAfter.value('webhook_deliveries_retrying'),
    }).toEqual({
      delivered2xx: 2,
      failed5xx: 6,
      allAttempts: 8,
      deliveredDurations: 2,
      failedDurations: 6,
      firstAttemptLags: 3,
      finishedDelivered: 2,
      finishedFailed: 1,
      exhausted: 1,
      alerts: 1,
      retryingAfter: 0,
    });
    expect(retrying!.value('webhook_deliveries_retrying')).toBeLessThanOrEqual(2);

    // The API counted the request under its route template and logged the one event.
    expect(delta(apiBefore, apiAfter, 'http_request_duration_seconds', { method: 'POST', route: '/api/orders/', status_code: '201' })).toBe(1);
    expect(delta(apiBefore, apiAfter, 'webhook_events_emitted_total', { event_type: 'order.created' })).toBe(1);
    expect(delta(workerBefore, workerAfter, 'webhook_events_emitted_total')).toBe(0);
    // Process metrics on both; the Temporal SDK's own on the worker's endpoint.
    expect(apiAfter.value('process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(workerAfter.value('process_cpu_seconds_total')).toBeGreaterThan(0);
    // The event's workflow ends failed (one delivery exhausted): the SDK counted it too.
    expect(delta(workerBefore, workerAfter, 'temporal_workflow_failed_total', { workflow_type: 'eventWorkflow' })).toBe(1);
    expect(workerAfter.value('temporal_workflow_task_execution_latency_seconds')).toBeGreaterThan(0);
    expect(workerAfter.type('webhook_relay_backlog')).toBe('gauge');
  });

  it('label sets stay bounded after 100 events to 100 different subscriptions', async () => {
    const sink = await receiver(() => 204);
    const subs = await Promise.all(Array.from({ length: 100 }, () => subscribe(sink.url, ['webhook.test'])));
    const before = await workerScrape();
    const beforeApi = await apiScrape();
    const events: string[] = [];
    for (const { client, id } of subs) {
      const sent = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path: { subscription_id: id } } });
      expect(sent.response.status).toBe(202);
      events.push(sent.data!.event_id);
    }
    await waitFor(() => sink.received.length >= 100, 90_000, 250);
    await waitFor(async () => delta(before, await workerScrape(), 'webhook_delivery_attempts_total', { outcome: 'delivered' }) === 100, 30_000, 250);

    const after = await workerScrape();
    const afterApi = await apiScrape();
    // The same series as before: the new subscriptions and events added values, not labels.
    const series = (s: Scrape) => new Set(s.labelSets('webhook_').map((l) => JSON.stringify(l)));
    expect([...series(after)].filter((l) => !series(before).has(l))).toEqual([]);
    const routes = new Set(afterApi.samples('http_request_duration_seconds').map((m) => m.labels.route));
    expect([...routes].filter((r) => r && /sub_|evt_|\d{3,}/.test(r))).toEqual([]);
    expect(routes.has('/api/webhooks/v1/subscriptions/{subscription_id}/test')).toBe(true);
    const values = [...after.labelValues(), ...afterApi.labelValues()];
    expect(values.filter((v) => subs.some((s) => v.includes(s.id)) || events.some((e) => v.includes(e)) || v.includes('127.0.0.1'))).toEqual([]);
    expect(delta(beforeApi, afterApi, 'webhook_events_emitted_total', { event_type: 'webhook.test' })).toBe(100);
  });
});
