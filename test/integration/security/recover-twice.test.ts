import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { type AttemptDoc, AttemptRepository, attemptId } from '../../../src/deliveries/attempts';
import { startTestApi, type TestApi } from '../../support/api';

const v1 = '/api/webhooks/v1';

describe('security: recover does not send an event again while its recovery is pending or delivered', () => {
  let api: TestApi;
  let client: WebhookServiceClient;
  let attempts: AttemptRepository;
  let subscriptionId: string;
  let eventId: string;
  let clock = Date.now() - 60_000;

  beforeAll(async () => {
    // No worker: workflows are started, never run, so the attempt log says exactly what the test writes.
    api = await startTestApi();
    attempts = new AttemptRepository(api.mongo.db);
    ({ client } = await api.clientWith(['webhooks:read', 'webhooks:write'], 'owner-recover'));
    subscriptionId = (await client.POST(`${v1}/subscribe`, { body: { url: 'http://127.0.0.1:9/hooks', events: ['webhook.test'] } })).data!.id;
    eventId = (await client.POST(`${v1}/subscriptions/{subscription_id}/test`, { params: { path: { subscription_id: subscriptionId } } })).data!.event_id;
  });
  afterAll(async () => {
    await api.close();
  });

  /** Logs the next attempt of a series to the subscription, one second after the previous one. */
  async function attempt(series: string, n: number, state: AttemptDoc['state']): Promise<void> {
    clock += 1000;
    await attempts.record({
      _id: attemptId(series, n),
      event_id: eventId,
      subscription_id: subscriptionId,
      series,
      attempt: n,
      started_at: new Date(clock),
      duration_ms: 5,
      outcome: state === 'delivered' ? 'delivered' : 'http_error',
      ...(state === 'delivered' ? { status_code: 200 } : { status_code: state === 'stopped' ? 400 : 503 }),
      url: 'http://127.0.0.1:9/hooks',
      state,
    });
  }

  async function recover(): Promise<string[]> {
    const res = await client.POST(`${v1}/subscriptions/{subscription_id}/recover`, {
      params: { path: { subscription_id: subscriptionId } },
      body: { since: new Date(0).toISOString() },
    });
    expect(res.response.status).toBe(202);
    return res.data!.event_ids;
  }

  it('starts one recovery per failure, however often it is asked, and a new one only after a new failure', async () => {
    await attempt(`event/${eventId}#${subscriptionId}`, 1, 'stopped');
    expect(await recover()).toEqual([eventId]);
    // Asked again before the recovery made its first attempt: nothing new.
    expect(await recover()).toEqual([]);
    expect(await recover()).toEqual([]);

    // The recovery is retrying: still pending.
    const recovery = `recovery-1#${subscriptionId}`;
    await attempt(recovery, 1, 'retrying');
    expect(await recover()).toEqual([]);

    // The recovery failed in turn: that new failure may be recovered, once.
    await attempt(recovery, 2, 'failed');
    expect(await recover()).toEqual([eventId]);
    expect(await recover()).toEqual([]);

    // Delivered by then: nothing to recover.
    await attempt(`recovery-2#${subscriptionId}`, 1, 'delivered');
    expect(await recover()).toEqual([]);
    expect(await api.mongo.db.collection('dispatch_notes').countDocuments({ kind: 'redelivery' })).toBe(0);
  });
});
