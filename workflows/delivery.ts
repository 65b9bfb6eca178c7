import {
  condition,
  defineQuery,
  log,
  defineSignal,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { RecordInput } from '../activities/delivery';
import { type AttemptState, type DeliveryPolicy, nextDelayMs, type Verdict, verdictFor } from './retry-policy';
import { deliveryStateKey } from './search-attributes';

// Activities report HTTP outcomes as values; this retry covers only infrastructure failures
// (database or worker trouble), and keeps trying until they are over: nothing is lost.
const acts = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

// The POST and its log entry run as local activities, inside the workflow task: no task-queue
// round trip through Temporal per attempt, which measured as most of a delivery's cost. Both
// are short (the POST is bounded by DELIVERY_TIMEOUT) and idempotent enough to re-run. Since
// 'attempt-records-itself' one local activity (attemptAndRecord) does both.
const local = proxyLocalActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

// Alerting retries for a while (an alert endpoint may be down), then gives up: the alert is
// stored before the POST is tried, so administrators still find it through the API.
const alerting = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 12 },
});

/** An attempt that reached (or tried to reach) the receiver: a POST's result. */
type MadeAttempt = RecordInput['result'];

export interface DeliveryInput {
  eventId: string;
  eventType: string;
  subscriptionId: string;
  policy: DeliveryPolicy;
}

/** Where a delivery stands; also the value of the WebhookDeliveryState search attribute. */
export type DeliveryState = 'attempting' | 'retrying' | 'delivered' | 'failed' | 'stopped' | 'cancelled';

export interface DeliveryStatus {
  state: DeliveryState;
  attempts: number;
  /** Epoch ms of the next attempt while retrying. */
  nextAttemptAt?: number;
  lastOutcome?: string;
  lastStatusCode?: number;
}

/** The delivery's current state, for the UI and the API. */
export const deliveryStatusQuery = defineQuery<DeliveryStatus>('deliveryStatus');
/** Skips the rest of the current wait: the next attempt happens now. */
export const retryNowSignal = defineSignal('retryNow');

/**
 * Delivers one event to one subscription: attempt 1 at once, then after each interval of the
 * policy (with jitter, or the receiver's longer Retry-After). 2xx delivered; 4xx stops (410
 * also disables the subscription); 3xx, 5xx, 408, 429, timeouts and network errors retry;
 * when attempts run out the delivery fails and an administrator is alerted once.
 */
export async function deliveryWorkflow(input: DeliveryInput): Promise<DeliveryStatus> {
  const series = workflowInfo().workflowId;
  const status: DeliveryStatus = { state: 'attempting', attempts: 0 };
  let retryNow = false;
  setHandler(deliveryStatusQuery, () => status);
  setHandler(retryNowSignal, () => {
    retryNow = true;
  });
  const setState = (state: DeliveryState) => {
    if (status.state !== state) upsertSearchAttributes([{ key: deliveryStateKey, value: state }]);
    status.state = state;
  };
  const { eventId, subscriptionId, policy } = input;

  /** Ends the series without an attempt: the subscription is paused, disabled or deleted. */
  const cancel = (reason: string): DeliveryStatus => {
    // Pending retries stop here.
    status.lastOutcome = `skipped: ${reason}`;
    setState('cancelled');
    return status;
  };
  const noteAttempt = (attempt: number, result: MadeAttempt) => {
    status.attempts = attempt;
    status.lastOutcome = result.outcome;
    if ('statusCode' in result) status.lastStatusCode = result.statusCode;
  };

  /**
   * What follows a made and logged attempt: the 410's disable, the alert when attempts ran out,
   * the end, or the wait before the next attempt. Returns the status when the series ended.
   */
  const afterAttempt = async (attempt: number, result: MadeAttempt, verdict: Verdict, final: AttemptState, delay: number) => {
    const statusCode = 'statusCode' in result ? result.statusCode : undefined;
    if (verdict === 'gone') {
      await acts.disableSubscription({ subscriptionId, eventId, reason: `receiver answered 410 Gone to event ${eventId}` });
    }
    if (final === 'failed') {
      setState('failed');
      try {
        await alerting.raiseAlert({
          kind: 'delivery_failed',
          subscriptionId,
          eventId,
          key: series,
          message: `Delivery of ${eventId} to ${subscriptionId} failed after ${attempt} attempts (last: ${result.outcome}${statusCode ? ` ${statusCode}` : ''})`,
        });
      } catch (err) {
        log.error('admin alert could not be sent; it stays stored', { eventId, subscriptionId, error: String(err) });
      }
      return status;
    }
    if (final !== 'retrying') {
      setState(final);
      return status;
    }
    setState('retrying');
    status.nextAttemptAt = Date.now() + delay;
    // A retryNow that arrived during the attempt counts: it is cleared only after the wait.
    await condition(() => retryNow, delay);
    retryNow = false;
    return undefined;
  };

  /** Before 'attempt-records-itself': two local activities, the workflow settling the outcome in between. */
  const attemptThenRecord = async (attempt: number) => {
    const result = await local.attemptDelivery({ eventId, subscriptionId, attempt });
    if (result.outcome === 'skipped') return cancel(result.reason);
    noteAttempt(attempt, result);
    const statusCode = 'statusCode' in result ? result.statusCode : undefined;
    const verdict = verdictFor(result.outcome, statusCode);
    const retryAfterMs = 'retryAfterMs' in result ? result.retryAfterMs : undefined;
    const willRetry = verdict === 'retry' && attempt < policy.maxAttempts;
    const delay = willRetry ? nextDelayMs(policy, attempt, Math.random(), retryAfterMs) : 0;
    const final: AttemptState =
      verdict === 'delivered' ? 'delivered' : verdict === 'retry' ? (willRetry ? 'retrying' : 'failed') : 'stopped';
    await local.recordAttempt({
      eventId,
      subscriptionId,
      attempt,
      series,
      result,
      ...(willRetry ? { nextAttemptAt: Date.now() + delay } : {}),
      state: final,
    });
    return afterAttempt(attempt, result, verdict, final, delay);
  };

  /**
   * Since 'attempt-records-itself': one local activity POSTs, settles the outcome with this
   * workflow's policy and jitter sample, and logs the attempt; its verdict, state and wait are used as they are.
   */
  const attemptRecordingItself = async (attempt: number) => {
    // Drawn here, where Math.random is deterministic: the jitter stays the workflow's on replay.
    const random = Math.random();
    const done = await local.attemptAndRecord({ eventId, subscriptionId, attempt, series, policy, random });
    if (done.kind === 'skipped') return cancel(done.reason);
    noteAttempt(attempt, done.result);
    if (!done.recorded) {
      // The activity could not write the entry and did not throw (that would POST again): write it here.
      log.warn('attempt not logged by its activity; logging it separately', { eventId, subscriptionId, attempt, error: done.recordError });
      await local.recordAttempt({
        eventId,
        subscriptionId,
        attempt,
        series,
        result: done.result,
        ...(done.nextAttemptAt !== undefined ? { nextAttemptAt: done.nextAttemptAt } : {}),
        state: done.state,
      });
    }
    return afterAttempt(attempt, done.result, done.verdict, done.state, done.delayMs);
  };

  for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
    setState('attempting');
    delete status.nextAttemptAt;
    // Asked per attempt: a series that started before the patch takes it from its next live attempt on.
    const ended = patched('attempt-records-itself') ? await attemptRecordingItself(attempt) : await attemptThenRecord(attempt);
    if (ended) return ended;
  }
  return status;
}
