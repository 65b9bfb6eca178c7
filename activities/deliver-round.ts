import { type AttemptInput, type AttemptResult, type DeliveryPolicy, type Due, type RoundStep, settleRound } from '../workflows/delivery-model';
import { type AttemptLogEntry, roundLogEntries } from '../workflows/log-entries';
import type { RecordedRound, RoundEvent } from './attempt';

/** A round for deliverRound: what postAttempts takes, and what the workflow settles and logs it with. */
export interface RoundInput {
  eventId: string;
  attempts: AttemptInput[];
  event?: RoundEvent;
  policy: DeliveryPolicy;
  /** The due attempts, in the order of `attempts`. */
  due: Array<[string, Due]>;
  /** One per due attempt, drawn in the workflow. */
  randoms: number[];
  /** The run's top workflow id: it names the attempt series. */
  origin: string;
}

/** A round done: its settled steps, what the log write reported failing too long, and whether it was logged. */
export interface DeliveredRound extends RecordedRound {
  steps: RoundStep[];
  /** False when the log write failed after the POSTs: the workflow logs the steps apart. */
  logged: boolean;
}

/** What a round is made of: the POSTs, the log write, the clock it is settled by. */
export interface RoundParts {
  /** `origin` names the attempt series (pull messages are keyed by it). */
  post(inputs: AttemptInput[], event?: RoundEvent, origin?: string): Promise<AttemptResult[]>;
  record(entries: AttemptLogEntry[]): Promise<RecordedRound>;
  now(): number;
  /** Told of a log write that failed after the POSTs. */
  logFailed?(err: unknown): void;
}

/**
 * POSTs a round, settles it by the delivery rules and logs it. Nothing after the POSTs throws:
 * a failed log write comes back as `logged: false`, so no retry of the round POSTs twice.
 */
export async function deliverRoundWith(round: RoundInput, parts: RoundParts): Promise<DeliveredRound> {
  const results = await parts.post(round.attempts, round.event, round.origin);
  const steps = settleRound(round.policy, round.due, results, round.randoms, parts.now());
  const entries = roundLogEntries(round.eventId, round.origin, steps, round.policy);
  if (entries.length === 0) return { steps, failing: [], logged: true };
  try {
    const { failing } = await parts.record(entries);
    return { steps, failing, logged: true };
  } catch (err) {
    parts.logFailed?.(err);
    return { steps, failing: [], logged: false };
  }
}
