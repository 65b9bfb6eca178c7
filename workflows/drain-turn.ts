import { condition, getExternalWorkflowHandle, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import { type DrainTurn, type EventInput, heldTurnSignal } from './definitions';

/** Patch: a run a drain started waits for its time (notBefore) and its turn (DrainTurn) before attempt 1. */
export const WAIT_DRAIN_TURN = 'wait-drain-turn';

/**
 * Longest a drained run waits past its time for the run before it: a run an earlier drain
 * started (or one ended by an operator) never passes the turn, and holds the next only this
 * long. Long, as a starved worker may put the runs minutes behind their times.
 */
export const DRAIN_TURN_WAIT_MS = 5 * 60_000;

/**
 * The place of a run a drain started (workflows/drain.ts) among the held deliveries of its page:
 * attempt 1 goes at its time, once the run before it made its own attempt 1 (its signal), and
 * then passes the turn on, so the receiver gets them in emission order however the worker
 * schedules the runs' tasks.
 */
export class DrainedRun {
  #came = false;
  #passed: Promise<void> | undefined;

  constructor(
    private readonly turn: DrainTurn,
    private readonly notBefore: number | undefined,
  ) {
    setHandler(heldTurnSignal, () => {
      this.#came = true;
    });
  }

  /** Sleeps until its time, then until its turn came (at most DRAIN_TURN_WAIT_MS more). */
  async wait(): Promise<void> {
    const left = (this.notBefore ?? 0) - Date.now();
    if (left > 0) await sleep(left);
    if (this.turn.wait && !this.#came) await condition(() => this.#came, DRAIN_TURN_WAIT_MS);
  }

  /** Passes the turn to the next run (or back to the drain), once. */
  pass(): Promise<void> {
    this.#passed ??= passTurn(this.turn.next, workflowInfo().workflowId);
    return this.#passed;
  }
}

/** Passes the turn of run `from` to `to` (the next run, or the drain); a run that is gone refuses it, which changes nothing. */
export function passTurn(to: string, from: string): Promise<void> {
  return getExternalWorkflowHandle(to)
    .signal(heldTurnSignal, { from })
    .catch(() => undefined);
}

/** The drain place of a run `input` starts, or undefined: not started by a drain that paces (or recorded before the patch). */
export function drainedRun(input: EventInput, patchedNow: () => boolean): DrainedRun | undefined {
  return input.turn && patchedNow() ? new DrainedRun(input.turn, input.notBefore) : undefined;
}
