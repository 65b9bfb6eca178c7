import { condition, log, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { MadeAttempt } from '../activities/attempt';
import type { AttemptRounds } from './attempt-rounds';
import type { SubscriberStatus } from './delivery-state';
import { seriesId } from './ids';
import { type DeliveryPolicy, settleAttempt } from './retry-policy';

// Disabling a subscription must happen, however long the database is away.
const { disableSubscription } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

// Alerting retries for a while (an alert endpoint may be down), then gives up: the alert is
// stored before the POST is tried, so administrators still find it through the API.
const { raiseAlert } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 12 },
});

/** One subscription's delivery inside an event workflow. */
export interface SubscriberDelivery {
  eventId: string;
  subscriptionId: string;
  /** Id of the run's top workflow: with the subscription, it names the attempt series. */
  origin: string;
  policy: DeliveryPolicy;
  /** Kept current for the status query and the search attributes. */
  status: SubscriberStatus;
  /** Makes the attempts (in rounds with the event's other deliveries) and logs them. */
  rounds: AttemptRounds;
  /** A retryNow signal asked to end the current wait. */
  wakeRequested: () => boolean;
  clearWake: () => void;
}

/**
 * Attempts the delivery until it is delivered, stopped, out of attempts or cancelled: each
 * attempt one signed POST (in a round of the event's attempts), settled here by the pure retry policy, logged,
 * then a durable wait before the next.
 */
export async function deliverToSubscriber(d: SubscriberDelivery): Promise<void> {
  const { eventId, subscriptionId, policy, status } = d;
  const series = seriesId(d.origin, subscriptionId);
  for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
    status.state = 'attempting';
    delete status.nextAttemptAt;
    // Drawn here, where Math.random is deterministic: the jitter replays as it was.
    const random = Math.random();
    const result = await d.rounds.attempt({ eventId, subscriptionId, attempt });
    if (result.outcome === 'skipped') {
      await d.rounds.settled(undefined);
      // Paused, disabled or deleted: pending retries stop here.
      Object.assign(status, { state: 'cancelled', cancelReason: result.reason });
      return;
    }
    const settled = settleAttempt(policy, attempt, result, random);
    const nextAttemptAt = settled.state === 'retrying' ? Date.now() + settled.delayMs : undefined;
    // The state changes only once the attempt is logged (see AttemptRounds): the search attributes follow it.
    await d.rounds.settled({ eventId, subscriptionId, attempt, series, result, ...(nextAttemptAt !== undefined ? { nextAttemptAt } : {}), state: settled.state });
    noteAttempt(status, attempt, result);
    status.state = settled.state;
    if (nextAttemptAt !== undefined) status.nextAttemptAt = nextAttemptAt;
    if (settled.state !== 'retrying') {
      const last = 'statusCode' in result ? `${result.outcome} ${result.statusCode}` : result.outcome;
      await afterLastAttempt(d, settled.verdict === 'gone', settled.state === 'failed' ? `${attempt} attempts (last: ${last})` : undefined);
      return;
    }
    await condition(d.wakeRequested, settled.delayMs);
    d.clearWake();
  }
}

/** Records a made attempt's own outcome in the status. */
function noteAttempt(status: SubscriberStatus, attempt: number, result: MadeAttempt): void {
  status.attempts = attempt;
  status.lastOutcome = result.outcome;
  if ('statusCode' in result) {
    status.lastStatusCode = result.statusCode;
    delete status.lastError;
  } else {
    status.lastError = result.error;
    delete status.lastStatusCode;
  }
}

/** What follows a delivery's last attempt: the 410's disable, the alert when attempts ran out (`exhausted` says how). */
async function afterLastAttempt(d: SubscriberDelivery, gone: boolean, exhausted: string | undefined): Promise<void> {
  const { eventId, subscriptionId } = d;
  if (gone) await disableSubscription({ subscriptionId, eventId, reason: `receiver answered 410 Gone to event ${eventId}` });
  if (exhausted === undefined) return;
  try {
    await raiseAlert({
      kind: 'delivery_failed',
      subscriptionId,
      eventId,
      key: seriesId(d.origin, subscriptionId),
      message: `Delivery of ${eventId} to ${subscriptionId} failed after ${exhausted}`,
    });
  } catch (err) {
    log.error('admin alert could not be sent; it stays stored', { eventId, subscriptionId, error: String(err) });
  }
}
