import { condition, getExternalWorkflowHandle, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import { type DrainTurn, type EventInput, heldTurnSignal } from './definitions';

/** Patch: a run a drain started waits for its time (notBefore) and its turn (DrainTurn) before attempt 1. */
export const WAIT_DRAIN_TURN = 'wait-drain-turn';

/** Patch: a drained run of an ordered delivery that must wait at the gate (workflows/ordering.ts) passes the turn on at once. */
export const DRAINED_GATE_PASSES = 'drained-gate-passes';

/**
 * Longest a drained run waits past its time for the run before it: a run an earlier drain
 * started (or one ended by an operator) never passes the turn, and holds the next only this
 * long. Long, as a starved worker may put the runs minutes behind their times.
 */
export const DRAIN_TURN_WAIT_MS = 5 * 60_000;

/** What each run before it adds to a run's wait for its turn: a whole attempt at the longest DELIVERY_TIMEOUT (60 s), and its scheduling. */
export const DRAIN_TURN_SLOT_MS = 75_000;

/** Tries to pass a turn to a run the server may not have created yet (its start still in flight). */
const PASS_TURN_TRIES = 5;
const PASS_TURN_RETRY_MS = 1_000;

/** How long the `index`-th run of a page waits past its time for its turn: its runs before it each may take a whole attempt. */
export function turnWaitMs(index: number): number {
  return DRAIN_TURN_WAIT_MS + index * DRAIN_TURN_SLOT_MS;
}

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

  /** Sleeps until its time, then until its turn came (at most its `waitMs` more). */
  async wait(): Promise<void> {
    const left = (this.notBefore ?? 0) - Date.now();
    if (left > 0) await sleep(left);
    if (this.turn.wait && !this.#came) await condition(() => this.#came, this.turn.waitMs ?? DRAIN_TURN_WAIT_MS);
  }

  /** Passes the turn to the next run (or back to the drain), once. */
  pass(): Promise<void> {
    this.#passed ??= passTurn(this.turn.next, workflowInfo().workflowId);
    return this.#passed;
  }
}

/**
 * Passes the turn of run `from` to `to` (the next run, or the drain). One not found yet may still
 * be starting (a page's runs start together): tried a few times a second apart; one that is gone
 * refuses it for good, which changes nothing.
 */
export async function passTurn(to: string, from: string): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      await getExternalWorkflowHandle(to).signal(heldTurnSignal, { from });
      return;
    } catch {
      if (tries >= PASS_TURN_TRIES) return;
      await sleep(PASS_TURN_RETRY_MS);
    }
  }
}

/** The drain place of a run `input` starts, or undefined: not started by a drain that paces (or recorded before the patch). */
export function drainedRun(input: EventInput, patchedNow: () => boolean): DrainedRun | undefined {
  return input.turn && patchedNow() ? new DrainedRun(input.turn, input.notBefore) : undefined;
}
