import { ApplicationFailure } from '@temporalio/common';
import type { Db } from 'mongodb';
import { AlertRepository, alertId } from '../src/alerts/repository';
import { AttemptRepository, attemptId } from '../src/deliveries/attempts';
import { EventRepository } from '../src/events/repository';
import { SubscriptionRepository } from '../src/subscriptions/repository';
import { renderEnvelope } from '../src/webhooks/envelopes';
import { signatureHeaders } from '../src/webhooks/signature';
import { type AttemptState, type DeliveryPolicy, type Settlement, type Verdict, settleAttempt } from '../workflows/retry-policy';
import { createEventCache } from './event-cache';
import { type PostRequest, type PostResult, postWebhook } from './http-post';

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
  /** Sends one POST; {@link postWebhook} unless a test injects its own. */
  post?: (req: PostRequest) => Promise<PostResult>;
  /** Most events kept in the per-worker event cache (default 4096). */
  eventCacheEntries?: number;
  /** Waits between tries when attemptAndRecord cannot write its log entry (default 250 ms, 1 s, 3 s). */
  recordRetryDelaysMs?: readonly number[];
  /** Longest one of those tries may take (default 5 s). */
  recordWriteTimeoutMs?: number;
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

/** One attempt that also logs itself: the workflow's schedule and jitter sample come along. */
export interface AttemptAndRecordInput extends AttemptInput {
  /** The delivery workflow's id: the attempt series the log entry belongs to. */
  series: string;
  policy: DeliveryPolicy;
  /** The workflow's jitter sample in [0, 1), drawn before the attempt so the wait is the workflow's. */
  random: number;
}

/** What attemptAndRecord did: no POST (skipped), or a POST settled and (normally) logged. */
export type AttemptAndRecordResult =
  | { kind: 'skipped'; reason: string }
  | {
      kind: 'attempted';
      result: PostResult & { url: string };
      verdict: Verdict;
      /** The series' state after this attempt, as logged. */
      state: AttemptState;
      /** The wait before the next attempt (0 unless retrying). */
      delayMs: number;
      /** Epoch ms of the next attempt as logged; only while retrying. */
      nextAttemptAt?: number;
      /** False when the log entry could not be written: the workflow records it with recordAttempt. */
      recorded: boolean;
      /** Why it could not be written. */
      recordError?: string;
    };

export interface AlertInput {
  kind: 'delivery_failed' | 'subscription_disabled';
  subscriptionId: string;
  eventId?: string;
  /** Distinguishes alerts of the same kind and subscription, e.g. the attempt series. */
  key: string;
  message: string;
}

/**
 * Settles a made attempt with the workflow's policy and jitter sample (the pure functions of
 * workflows/retry-policy.ts) into its log entry, the next attempt timed from `nowMs`. Tests may
 * pass their own `settlement`.
 */
export function settleIntoEntry(
  input: AttemptAndRecordInput,
  result: PostResult & { url: string },
  nowMs: number,
  settlement: Pick<Settlement, 'verdict' | 'state' | 'delayMs'> = settleAttempt(input.policy, input.attempt, result, input.random),
) {
  const { verdict, state, delayMs } = settlement;
  const nextAttemptAt = state === 'retrying' ? nowMs + delayMs : undefined;
  const entry: RecordInput = {
    eventId: input.eventId,
    subscriptionId: input.subscriptionId,
    attempt: input.attempt,
    series: input.series,
    result,
    ...(nextAttemptAt !== undefined ? { nextAttemptAt } : {}),
    state,
  };
  const settled = { kind: 'attempted' as const, result, verdict, state, delayMs, ...(nextAttemptAt !== undefined ? { nextAttemptAt } : {}) };
  return { entry, settled };
}

/** Builds the delivery activities: all I/O of a delivery lives here. */
export function createDeliveryActivities(deps: DeliveryActivityDeps) {
  const eventLog = new EventRepository(deps.db);
  // Logged events never change: the deliveries of one event read it once per worker.
  const events = createEventCache((id) => eventLog.find(id), deps.eventCacheEntries);
  const subscriptions = new SubscriptionRepository(deps.db);
  const attempts = new AttemptRepository(deps.db);
  const alerts = new AlertRepository(deps.db);
  const now = () => deps.now?.() ?? new Date();
  const post = deps.post ?? postWebhook;
  const recordRetryDelaysMs = deps.recordRetryDelaysMs ?? [250, 1000, 3000];
  const recordWriteTimeoutMs = deps.recordWriteTimeoutMs ?? 5000;

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
    const result = await post({ url: deps.alertUrl, body, headers, timeoutMs: deps.timeoutMs, allowPrivate: deps.allowPrivate });
    // Throwing lets Temporal retry the notification; the stored alert is not duplicated.
    if (result.outcome !== 'delivered') throw new Error(`admin alert POST failed: ${'error' in result ? result.error : `HTTP ${result.statusCode}`}`);
    await alerts.markNotified(stored._id, now());
    return { id: stored._id, notified: true };
  }

  /**
   * One attempt: reads the subscription as it is now (a changed URL or rotated secret applies
   * to the next attempt), renders its envelope version, signs and POSTs. The HTTP outcome is
   * a value; only infrastructure failures (e.g. the database) throw.
   */
  async function attempt(input: AttemptInput): Promise<AttemptResult> {
    const [event, sub] = await Promise.all([events.get(input.eventId), subscriptions.collection.findOne({ _id: input.subscriptionId })]);
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
    const result = await post({ url: sub.url, body, headers, timeoutMs: deps.timeoutMs, allowPrivate: deps.allowPrivate });
    return { ...result, url: sub.url };
  }

  /** Logs an attempt (idempotent per series and attempt number). */
  async function record(input: RecordInput): Promise<void> {
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
  }

  /**
   * {@link record}, retried in-process and bounded in time: after a POST, throwing would make
   * Temporal re-run the activity and POST again. Returns the last error instead.
   */
  async function recordWithoutThrowing(input: RecordInput): Promise<{ recorded: true } | { recorded: false; error: string }> {
    let error = '';
    for (let i = 0; i <= recordRetryDelaysMs.length; i++) {
      if (i > 0) await delay(recordRetryDelaysMs[i - 1] ?? 0);
      try {
        // A write still hanging after the timeout may land later: harmless, entries are insert-once.
        await withTimeout(record(input), recordWriteTimeoutMs, 'attempt log write');
        return { recorded: true };
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
    }
    return { recorded: false, error };
  }

  return {
    /** The event's type and the subscriptions it targets (snapshot taken when it was logged). */
    async loadEventTargets(eventId: string): Promise<{ type: string; subscriptionIds: string[] }> {
      const event = await events.get(eventId);
      // Retrying cannot make a missing event appear: fail the workflow instead of looping.
      if (!event) throw ApplicationFailure.nonRetryable(`event ${eventId} is not in the event log`, 'EventNotFound');
      return { type: event.type, subscriptionIds: [...(event.subscription_ids ?? [])] };
    },

    /**
     * One attempt (see {@link attempt}); the workflow logs it with recordAttempt. Used by
     * deliveries that started before the 'attempt-records-itself' patch.
     */
    attemptDelivery: attempt,

    /** Logs an attempt (idempotent per series and attempt number). */
    recordAttempt: record,

    /**
     * One attempt that also logs itself, one local activity instead of two: POSTs as
     * attemptDelivery does, settles the outcome with the workflow's policy and jitter sample
     * (the pure functions of workflows/retry-policy.ts) and writes the log entry. Infrastructure
     * failures before the POST throw (retrying is safe); after it, a log write that keeps failing
     * returns `recorded: false` and the workflow records the entry with recordAttempt.
     */
    async attemptAndRecord(input: AttemptAndRecordInput): Promise<AttemptAndRecordResult> {
      const result = await attempt(input);
      if (result.outcome === 'skipped') return { kind: 'skipped', reason: result.reason };
      const { entry, settled } = settleIntoEntry(input, result, now().getTime());
      const written = await recordWithoutThrowing(entry);
      return { ...settled, ...(written.recorded ? { recorded: true } : { recorded: false, recordError: written.error }) };
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Rejects after `ms` unless `promise` settles first; the promise itself runs on. */
function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
