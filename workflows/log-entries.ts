import { type AttemptInput, type AttemptState, type MadeAttempt, madeAttempts, type RoundStep } from './delivery-model';
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
}

/** The attempt-log entries of a round's made attempts (none: nothing to log); `origin` names their series. */
export function roundLogEntries(eventId: string, origin: string, steps: readonly RoundStep[]): AttemptLogEntry[] {
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
    }),
  );
}
