import { ApplicationFailure } from '@temporalio/common';
import type { Db } from 'mongodb';
import { AlertRepository, alertId } from '../src/alerts/repository';
import { AttemptRepository, attemptId } from '../src/deliveries/attempts';
import { EventRepository } from '../src/events/repository';
import { SubscriptionRepository } from '../src/subscriptions/repository';
import { renderEnvelope } from '../src/webhooks/envelopes';
import { signatureHeaders } from '../src/webhooks/signature';
import { type PostResult, postWebhook } from './http-post';

/** Everything the delivery activities touch; tests inject their own. */
export interface DeliveryActivityDeps {
  db: Db;
  /** Allow loopback/private callback targets (local development and tests only). */
  allowPrivate: boolean;
  /** Hard timeout of one POST, in ms. */
  timeoutMs: number;
  userAgent: string;
  /** Where failures are POSTed, signed with `alertSecret`; alerts are always stored too. */
  alertUrl?: string | undefined;
  alertSecret?: string | undefined;
  now?: () => Date;
}

export interface AttemptInput {
  eventId: string;
  subscriptionId: string;
  attempt: number;
}

/** A POST that happened, or why none did (the subscription is gone, paused or disabled). */
export type AttemptResult = (PostResult & { url: string }) | { outcome: 'skipped'; reason: string };

export interface RecordInput extends AttemptInput {
  series: string;
  result: PostResult & { url: string };
  nextAttemptAt?: number;
  state: string;
}

export interface AlertInput {
  kind: 'delivery_failed' | 'subscription_disabled';
  subscriptionId: string;
  eventId?: string;
  /** Distinguishes alerts of the same kind and subscription, e.g. the attempt series. */
  key: string;
  message: string;
}

/** Builds the delivery activities: all I/O of a delivery lives here. */
export function createDeliveryActivities(deps: DeliveryActivityDeps) {
  const events = new EventRepository(deps.db);
  const subscriptions = new SubscriptionRepository(deps.db);
  const attempts = new AttemptRepository(deps.db);
  const alerts = new AlertRepository(deps.db);
  const now = () => deps.now?.() ?? new Date();

  async function raiseAlert(input: AlertInput): Promise<{ id: string; notified: boolean }> {
    const stored = await alerts.raise({
      _id: alertId(input.kind, input.subscriptionId, input.key),
      kind: input.kind,
      subscription_id: input.subscriptionId,
      ...(input.eventId ? { event_id: input.eventId } : {}),
      message: input.message,
      created_at: now(),
    });
    if (!deps.alertUrl || stored.notified_at) return { id: stored._id, notified: Boolean(stored.notified_at) };
    const body = JSON.stringify({ type: 'alert', alert: { id: stored._id, kind: stored.kind, subscription_id: stored.subscription_id, event_id: stored.event_id, message: stored.message, created_at: stored.created_at.toISOString() } });
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': deps.userAgent,
      ...signatureHeaders({ id: stored._id, timestamp: Math.floor(now().getTime() / 1000), body, secrets: [deps.alertSecret ?? ''] }),
    };
    const result = await postWebhook({ url: deps.alertUrl, body, headers, timeoutMs: deps.timeoutMs, allowPrivate: deps.allowPrivate });
    // Throwing lets Temporal retry the notification; the stored alert is not duplicated.
    if (result.outcome !== 'delivered') throw new Error(`admin alert POST failed: ${'error' in result ? result.error : `HTTP ${result.statusCode}`}`);
    await alerts.markNotified(stored._id, now());
    return { id: stored._id, notified: true };
  }

  return {
    /** The event's type and the subscriptions it targets (snapshot taken when it was logged). */
    async loadEventTargets(eventId: string): Promise<{ type: string; subscriptionIds: string[] }> {
      const event = await events.find(eventId);
      // Retrying cannot make a missing event appear: fail the workflow instead of looping.
      if (!event) throw ApplicationFailure.nonRetryable(`event ${eventId} is not in the event log`, 'EventNotFound');
      return { type: event.type, subscriptionIds: event.subscription_ids ?? [] };
    },

    /**
     * One attempt: reads the subscription as it is now (a changed URL or rotated secret applies
     * to the next attempt), renders its envelope version, signs and POSTs. The HTTP outcome is
     * a value; only infrastructure failures (e.g. the database) throw and are retried.
     */
    async attemptDelivery(input: AttemptInput): Promise<AttemptResult> {
      const [event, sub] = await Promise.all([events.find(input.eventId), subscriptions.collection.findOne({ _id: input.subscriptionId })]);
      if (!event) return { outcome: 'skipped', reason: 'event not found' };
      if (!sub) return { outcome: 'skipped', reason: 'subscription deleted' };
      if (sub.status !== 'active') return { outcome: 'skipped', reason: `subscription ${sub.status}` };
      const at = now();
      const secrets = sub.secrets.filter((s) => !s.expires_at || s.expires_at > at).map((s) => s.secret);
      const body = renderEnvelope(sub.version, { id: event._id, type: event.type, data: event.data, created_at: event.created_at });
      const headers = {
        'Content-Type': 'application/json',
        'User-Agent': deps.userAgent,
        ...signatureHeaders({ id: event._id, timestamp: Math.floor(at.getTime() / 1000), body, secrets }),
      };
      const result = await postWebhook({ url: sub.url, body, headers, timeoutMs: deps.timeoutMs, allowPrivate: deps.allowPrivate });
      return { ...result, url: sub.url };
    },

    /** Logs an attempt (idempotent per series and attempt number). */
    async recordAttempt(input: RecordInput): Promise<void> {
      const r = input.result;
      await attempts.record({
        _id: attemptId(input.series, input.attempt),
        event_id: input.eventId,
        subscription_id: input.subscriptionId,
        series: input.series,
        attempt: input.attempt,
        started_at: new Date(r.startedAt),
        duration_ms: r.durationMs,
        outcome: r.outcome,
        ...('statusCode' in r ? { status_code: r.statusCode, response_excerpt: r.responseExcerpt } : { error: r.error }),
        url: r.url,
        ...(input.nextAttemptAt !== undefined ? { next_attempt_at: new Date(input.nextAttemptAt) } : {}),
        state: input.state,
      });
    },

    /** The receiver answered 410 Gone: stop sending to it and tell an administrator. */
    async disableSubscription(input: { subscriptionId: string; eventId: string; reason: string }): Promise<void> {
      await subscriptions.collection.updateOne(
        { _id: input.subscriptionId, status: { $ne: 'disabled' } },
        { $set: { status: 'disabled', disabled_reason: input.reason, updated_at: now() } },
      );
      // Raised even when this retry finds it already disabled: a failed alert POST (or a crash)
      // after the update must not lose the alert. Idempotent per subscription and event.
      await raiseAlert({
        kind: 'subscription_disabled',
        subscriptionId: input.subscriptionId,
        eventId: input.eventId,
        key: input.eventId,
        message: `Subscription ${input.subscriptionId} disabled: ${input.reason}`,
      });
    },

    raiseAlert,
  };
}

export type DeliveryActivities = ReturnType<typeof createDeliveryActivities>;
