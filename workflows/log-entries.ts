import { type AttemptInput, type AttemptState, type DeliveryPolicy, effectivePolicy, type Hold, MAX_RETRY_AFTER_MS, type MadeAttempt, madeAttempts, type RoundStep } from './delivery-model';
import { isOwnDelivery, seriesId } from './ids';

/** One attempt as the workflow settled it, for the attempt log. */
export interface AttemptLogEntry extends AttemptInput {
  /** The attempt series (see ids.ts seriesId): the entry's id derives from it. */
  series: string;
  result: MadeAttempt;
  /** Epoch ms of the next attempt; only while retrying. */
  nextAttemptAt?: number;
  state: AttemptState;
  /** The event's very first attempt to this subscription (attempt 1 of its own delivery, not of a redelivery); absent: any other. */
  firstOfEvent?: true;
  /** Attempts in all the attempt was settled by; absent in entries logged before it was. */
  maxAttempts?: number;
  /** Why the wait until `nextAttemptAt` is as long as it is: the receiver's Retry-After won over the schedule; absent: the schedule. */
  waitReason?: 'retry_after';
  /** The holds (max_in_flight, rate_limit) this attempt waited through before it was made. */
  held?: Hold[];
}

/** The attempt-log entries of a round's made attempts (none: nothing to log); `origin` names their series, `policy` (absent in old callers) the attempts allowed. */
export function roundLogEntries(eventId: string, origin: string, steps: readonly RoundStep[], policy?: DeliveryPolicy): AttemptLogEntry[] {
  return madeAttempts(steps).map(
    (s): AttemptLogEntry => ({
      eventId,
      subscriptionId: s.subscriptionId,
      attempt: s.attempt,
      series: seriesId(origin, s.subscriptionId),
      result: s.result,
      ...(s.next ? { nextAttemptAt: s.next.at } : {}),
      state: s.settlement.state,
      ...(s.attempt === 1 && isOwnDelivery(origin, eventId) ? { firstOfEvent: true as const } : {}),
      ...(policy ? { maxAttempts: effectivePolicy(policy, s.result.retry).maxAttempts } : {}),
      ...(s.next && retryAfterWon(s) ? { waitReason: 'retry_after' as const } : {}),
      ...(s.held?.length ? { held: s.held } : {}),
    }),
  );
}

/** Whether the receiver's Retry-After, not the schedule, set the wait after a settled attempt (nextDelayMs takes it only when longer). */
function retryAfterWon(s: Extract<RoundStep, { kind: 'settled' }>): boolean {
  const retryAfterMs = 'retryAfterMs' in s.result ? s.result.retryAfterMs : undefined;
  return retryAfterMs !== undefined && s.settlement.delayMs === Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
}
