import type { AttemptLogEntry } from '../activities/attempt';
import { madeAttempts, type RoundStep } from './delivery-model';
import { seriesId } from './ids';

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
    }),
  );
}
