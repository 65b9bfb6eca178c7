import { condition, getExternalWorkflowHandle, patched, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { localActivityOptions } from './activity-options';
import { type Due, earliestDue, type SubscriberStatus } from './delivery-model';
import { type EventInput, type EventOrdering, orderingTurnSignal, type TurnWait } from './definitions';
import { eventWorkflowId, heldDeliveryWorkflowId } from './ids';

/** Ordered delivery per key (new in 1.4): an ordered subscription's first attempt waits for its turn. */
export const ORDERED_DELIVERY = 'ordered-delivery';

/** How long a waiting delivery first waits before it asks again without a signal (then longer, with ORDERING_BACKOFF). */
export const TURN_RECHECK_MS = 30_000;

/** Re-checks back off, doubling from TURN_RECHECK_MS to TURN_RECHECK_MAX_MS, and start over after a signal: each look adds a few history events. */
export const ORDERING_BACKOFF = 'ordering-backoff';

/** The longest wait between two looks of a delivery waiting for its turn (with ORDERING_BACKOFF). */
export const TURN_RECHECK_MAX_MS = 5 * 60_000;

/** Patch: a delivery held for a paused subscription's resume has not ended: no mark, the later events of its key wait for its drained run. */
export const ORDERING_HELD_KEEPS_TURN = 'ordering-held-keeps-turn';

/** Patch: a drained run of an ordered delivery (workflows/drain-turn.ts) also wakes the later events' drained runs when it ends. */
export const ORDERING_DRAINED_WAKES = 'ordering-drained-wakes';

const { orderingTurn, orderingDone, orderingDoneHeld } = proxyLocalActivities<Activities>(localActivityOptions);

/** The states in which a delivery has ended: the next event of its key may go. */
const ENDED: ReadonlySet<SubscriberStatus['state']> = new Set(['delivered', 'failed', 'stopped', 'cancelled']);

/**
 * Holds the first attempt of each ordered subscription of an event until the gate
 * (src/events/ordering-gate.ts) says the event before it in its key has ended there, then hands
 * it to the rounds; when it ends, marks that and wakes the later events of the key. Waits on a
 * signal from the delivery before it, with a timer re-check as fallback (backing off, ORDERING_BACKOFF).
 */
export class OrderingGate {
  /** Ordered subscriptions whose first attempt still waits for its turn. */
  readonly held = new Set<string>();
  /** Ordered subscriptions whose end is reported (or being reported). */
  readonly #ended = new Set<string>();
  /** Turns signalled since each one last asked. */
  readonly #signalled = new Set<string>();
  /** What each held subscription waits for, as the gate last answered (for the pendingAttempts query). */
  readonly #waits = new Map<string, TurnWait>();
  /** Set when a turn came: the rounds' wait ends to take it. */
  #released = false;
  /** How many of the subscriptions held at the start the gate answered at least once, and how many those are. */
  #looked = 0;
  readonly #toLook: number;
  readonly #ordering: EventOrdering;
  /** Whether re-checks back off (ORDERING_BACKOFF); decided at the start, so a run keeps one way. */
  readonly #backoff: boolean;

  constructor(private readonly input: EventInput & { ordering: EventOrdering }) {
    this.#ordering = input.ordering;
    this.#backoff = patched(ORDERING_BACKOFF);
    for (const id of input.ordering.subscriptionIds) if (input.subscriptionIds.includes(id)) this.held.add(id);
    this.#toLook = this.held.size;
    setHandler(orderingTurnSignal, ({ subscriptionId }) => {
      if (this.held.has(subscriptionId)) this.#signalled.add(subscriptionId);
    });
  }

  /** The subscriptions whose first attempt is due at once: the unordered ones. */
  unheld(): string[] {
    return this.input.subscriptionIds.filter((id) => !this.held.has(id));
  }

  /** The held subscriptions the gate said must wait, and for which earlier event; state only, so a query may read it. */
  waiting(): Record<string, TurnWait> {
    return Object.fromEntries(this.#waits);
  }

  /** Waits for each held subscription's turn beside the rounds; a turn that comes puts its attempt 1 in `pending`. */
  start(pending: Map<string, Due>): Promise<void> {
    return Promise.all([...this.held].map((id) => this.#awaitTurn(id, pending))).then(() => undefined);
  }

  async #awaitTurn(subscriptionId: string, pending: Map<string, Due>): Promise<void> {
    let recheckMs = TURN_RECHECK_MS;
    let looked = false;
    for (;;) {
      this.#signalled.delete(subscriptionId);
      const turn = await orderingTurn(this.#delivery(subscriptionId));
      if (!looked) {
        looked = true;
        this.#looked += 1;
      }
      if (turn.go) break;
      const was = this.#waits.get(subscriptionId)?.ordering;
      const since = was?.waitFor === turn.waitFor ? was.since : Date.now();
      this.#waits.set(subscriptionId, { attempt: 1, ordering: { key: this.#ordering.key, waitFor: turn.waitFor, reason: turn.reason, since } });
      const signalled = await condition(() => this.#signalled.has(subscriptionId), recheckMs);
      if (this.#backoff) recheckMs = signalled ? TURN_RECHECK_MS : Math.min(recheckMs * 2, TURN_RECHECK_MAX_MS);
    }
    this.held.delete(subscriptionId);
    this.#waits.delete(subscriptionId);
    pending.set(subscriptionId, { attempt: 1, at: Date.now() });
    this.#released = true;
  }

  /** Resolves once the gate answered each held subscription once (a turn that came is in `pending` then). */
  async firstLook(): Promise<void> {
    await condition(() => this.#looked >= this.#toLook);
  }

  /** Sleeps until the earliest pending attempt falls due, a retryNow signal wakes one, or a held turn comes. */
  async waitForNextDue(pending: ReadonlyMap<string, Due>, woken: ReadonlySet<string>): Promise<void> {
    const wake = () => this.#released || [...pending.keys()].some((id) => woken.has(id));
    if (pending.size > 0) await condition(wake, earliestDue(pending) - Date.now());
    else await condition(wake);
    this.#released = false;
  }

  /**
   * Reports each ordered delivery that ended since the last call (its mark, then the later events'
   * wake-up), beside the rounds. One `held` for a paused subscription has not ended: its drained
   * run goes on with it (ORDERING_HELD_KEEPS_TURN), so nothing is reported here.
   */
  settle(statuses: Readonly<Record<string, SubscriberStatus>>, followUps: Promise<void>[], held: ReadonlySet<string> = new Set()): void {
    for (const id of this.#ordering.subscriptionIds) {
      const status = statuses[id];
      if (!status || this.held.has(id) || this.#ended.has(id) || !ENDED.has(status.state)) continue;
      this.#ended.add(id);
      if (held.has(id) && patched(ORDERING_HELD_KEEPS_TURN)) continue;
      followUps.push(this.#end(id));
    }
  }

  async #end(subscriptionId: string): Promise<void> {
    // A drained run's later events may be drained runs too, waiting at the gate: they are woken beside the events' own workflows.
    const runs =
      this.input.turn && patched(ORDERING_DRAINED_WAKES)
        ? (await orderingDoneHeld(this.#delivery(subscriptionId))).flatMap((e) => [eventWorkflowId(e.eventId), heldDeliveryWorkflowId(e.eventId, e.heldId)])
        : (await orderingDone(this.#delivery(subscriptionId))).map(eventWorkflowId);
    // A later event not started yet, or already done, refuses the signal: it asks when it starts.
    await Promise.allSettled(runs.map((id) => getExternalWorkflowHandle(id).signal(orderingTurnSignal, { subscriptionId })));
  }

  #delivery(subscriptionId: string) {
    return { eventId: this.input.eventId, subscriptionId, key: this.#ordering.key, seq: this.#ordering.seq };
  }
}

/** The gate of an event with ordered subscriptions, or undefined (no ordering: the rounds run as they did). */
export function orderingGate(input: EventInput, patchedNow: () => boolean): OrderingGate | undefined {
  if (!input.ordering || !input.ordering.subscriptionIds.some((id) => input.subscriptionIds.includes(id))) return undefined;
  return patchedNow() ? new OrderingGate({ ...input, ordering: input.ordering }) : undefined;
}
