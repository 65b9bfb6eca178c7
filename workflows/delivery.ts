import {
  condition,
  defineQuery,
  log,
  defineSignal,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { type DeliveryPolicy, nextDelayMs, verdictFor } from './retry-policy';
import { deliveryStateKey } from './search-attributes';

// Activities report HTTP outcomes as values; this retry covers only infrastructure failures
// (database or worker trouble), and keeps trying until they are over: nothing is lost.
const acts = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

// The POST and its log entry run as local activities, inside the workflow task: no task-queue
// round trip through Temporal per attempt, which measured as most of a delivery's cost. Both
// are short (the POST is bounded by DELIVERY_TIMEOUT) and idempotent enough to re-run.
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

  for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
    setState('attempting');
    delete status.nextAttemptAt;
    const result = await local.attemptDelivery({ eventId, subscriptionId, attempt });
    if (result.outcome === 'skipped') {
      // Paused, disabled or deleted: pending retries stop here.
      status.lastOutcome = `skipped: ${result.reason}`;
      setState('cancelled');
      return status;
    }
    status.attempts = attempt;
    status.lastOutcome = result.outcome;
    const statusCode = 'statusCode' in result ? result.statusCode : undefined;
    if (statusCode !== undefined) status.lastStatusCode = statusCode;
    const verdict = verdictFor(result.outcome, statusCode);
    const retryAfterMs = 'retryAfterMs' in result ? result.retryAfterMs : undefined;
    const willRetry = verdict === 'retry' && attempt < policy.maxAttempts;
    const delay = willRetry ? nextDelayMs(policy, attempt, Math.random(), retryAfterMs) : 0;
    const final: DeliveryState =
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
  }
  return status;
}
