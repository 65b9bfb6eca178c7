import { condition, log, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { DeliveredRound, RecordedRound, RoundEvent } from '../activities/attempt';
import { localActivityOptions } from './activity-options';
import { type AttemptInput, type AttemptResult, type DeliveryPolicy, type Due, earliestDue, type FollowUp, type RoundStep } from './delivery-model';
import { roundLogEntries } from './log-entries';
import type { EventInput } from './definitions';
import { seriesId } from './ids';

/** Disables subscriptions whose every delivery failed for ENDPOINT_DISABLE_AFTER (new in 1.1: histories before it never report any). */
export const DISABLE_FAILING_ENDPOINTS = 'disable-failing-endpoints';

/** A round's POSTs, settling and log write in one local activity (deliverRound) rather than two (new in 1.3). */
export const ONE_ACTIVITY_PER_ROUND = 'one-activity-per-round';

const { postAttempts, recordAttempts, deliverRound } = proxyLocalActivities<Activities>(localActivityOptions);

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

/** Sleeps until the earliest pending attempt falls due, or a retryNow signal wakes one. */
export async function waitForNextDue(pending: ReadonlyMap<string, Due>, woken: ReadonlySet<string>): Promise<void> {
  await condition(() => [...pending.keys()].some((id) => woken.has(id)), earliestDue(pending) - Date.now());
}

/** The attempts of a round, and the event when the input carries it (a local activity's input stays out of the history). */
function roundRequest(input: EventInput, due: ReadonlyArray<[string, Due]>): { attempts: AttemptInput[]; event?: RoundEvent } {
  const { eventId, event } = input;
  const attempts = due.map(([subscriptionId, d]) => ({ eventId, subscriptionId, attempt: d.attempt }));
  return event ? { attempts, event: { id: eventId, type: input.eventType, subscriptionIds: input.subscriptionIds, ...event } } : { attempts };
}

/** Sends a round: one batch POST local activity with every due attempt. */
export function sendRound(input: EventInput, due: ReadonlyArray<[string, Due]>): Promise<AttemptResult[]> {
  const { attempts, event } = roundRequest(input, due);
  return event ? postAttempts(attempts, event) : postAttempts(attempts);
}

/**
 * Logs a round's made attempts in one write (none: no write); returns the subscriptions the
 * attempt log found failing for longer than allowed (histories before 1.1 have no result here).
 */
export async function logRound(eventId: string, origin: string, steps: readonly RoundStep[], policy?: DeliveryPolicy): Promise<RecordedRound['failing']> {
  const entries = roundLogEntries(eventId, origin, steps, policy);
  if (entries.length === 0) return [];
  const recorded = await recordAttempts(entries);
  return recorded?.failing ?? [];
}

/**
 * A round in one local activity: it POSTs, settles the answers with `randoms` (drawn here, so a
 * replay reads the same steps from the marker) and logs them. The activity's own promise, not
 * wrapped: each promise a workflow makes costs the worker a captured stack trace.
 */
export function deliverAndLogRound(input: EventInput, origin: string, due: ReadonlyArray<[string, Due]>, randoms: number[]): Promise<DeliveredRound> {
  return deliverRound({
    eventId: input.eventId,
    ...roundRequest(input, due),
    policy: input.policy,
    due: [...due],
    randoms,
    origin,
  });
}

/** A round whose log write failed after the POSTs went out: logged by recordAttempts apart, so a retry sends nothing twice. */
export async function logUnloggedRound(eventId: string, origin: string, round: DeliveredRound, policy?: DeliveryPolicy): Promise<DeliveredRound> {
  return { steps: round.steps, failing: await logRound(eventId, origin, round.steps, policy), logged: true };
}

/** Starts a follow-up beside the rounds: disabling a subscription, or alerting the administrator (an alert that cannot be sent stays stored). */
export async function startFollowUp(eventId: string, origin: string, f: FollowUp): Promise<void> {
  if (f.kind === 'disable') {
    await disableSubscription({ subscriptionId: f.subscriptionId, eventId, reason: f.reason, ...(f.failingSince !== undefined ? { failingSince: f.failingSince } : {}) });
    return;
  }
  try {
    await raiseAlert({ kind: 'delivery_failed', subscriptionId: f.subscriptionId, eventId, key: seriesId(origin, f.subscriptionId), message: f.message });
  } catch (err) {
    log.error('admin alert could not be sent; it stays stored', { eventId, subscriptionId: f.subscriptionId, error: String(err) });
  }
}
