import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { DeliveryPolicy, Due, EventDeliveryStatus } from './delivery-model';

export interface EventInput {
  eventId: string;
  eventType: string;
  /** The subscriptions to deliver to: the event's fan-out snapshot, or a redelivery's choice. */
  subscriptionIds: string[];
  policy: DeliveryPolicy;
  /** Most subscriptions one workflow delivers to itself; more are split into child workflows of at most this many. */
  batchSize: number;
  /** Id of the run's top workflow (a part's parent), naming the attempt series; the workflow's own id when absent. */
  origin?: string;
  /** What delivery needs of the event, so the worker need not read it; absent (then read): runs started before it, redeliveries, large data. */
  event?: CarriedEvent;
  /** The subscriptions that get the event in the order of its key, each after the one before it (workflows/ordering.ts); absent: none. */
  ordering?: EventOrdering;
  /** Epoch ms before which attempt 1 is not made: a drain paces the held deliveries it starts (workflows/drain.ts); absent: at once. */
  notBefore?: number;
  /** A drained run's place among its drain's runs (workflows/drain-turn.ts); absent: not started by a pacing drain. */
  turn?: DrainTurn;
}

/** Where a drained run's turn comes from and goes to: attempt 1 follows the run before it, then passes the turn on. */
export interface DrainTurn {
  /** Whether it waits for the run before it (the first of a page does not). */
  wait: boolean;
  /** The workflow it passes the turn to after its attempt 1: the next run of the page, or the drain after the last. */
  next: string;
  /** Longest it waits past its time for its turn (absent: DRAIN_TURN_WAIT_MS): longer the further down its page, as each run before it may take a whole attempt. */
  waitMs?: number;
}

/** An event's place in its ordering key, and the subscriptions of its snapshot that want the key's events in order. */
export interface EventOrdering {
  /** `order:<id>`, `product:<id>` (src/webhooks/ordering-key.ts). */
  key: string;
  /** Its place among the key's events, fixed when it was written. */
  seq: number;
  subscriptionIds: string[];
}

/** The delivered part of a logged event (fixed once logged), as a workflow input carries it. */
export interface CarriedEvent {
  data: Record<string, unknown>;
  /** ISO 8601: how JSON carries a date. */
  createdAt: string;
  /** The owner of the subscriptions targeted (test events). */
  ownerId?: string;
  /** Whose data it is: most of its subscribers are theirs. */
  dataOwner?: string;
}

/** Which deliveries `retryNow` wakes: one subscription's, or all waiting ones. */
export interface RetryNow {
  subscriptionId?: string;
}

/** Each subscription's delivery state, for the UI and the API. */
export const deliveryStatusQuery = defineQuery<EventDeliveryStatus>('deliveryStatus');
/** Skips the rest of the current wait of one subscription's delivery (or of every waiting one): the next attempt happens now. */
export const retryNowSignal = defineSignal<[RetryNow?]>('retryNow');
/** The drained run before this one (or the last of a drain's page, to the drain) made its attempt 1: the turn passes. */
export const heldTurnSignal = defineSignal<[{ from: string }]>('heldTurn');
/** An ordered delivery before this event's, to `subscriptionId`, has ended: its turn may have come. */
export const orderingTurnSignal = defineSignal<[{ subscriptionId: string }]>('orderingTurn');
/** An ordered delivery's first attempt waiting for its turn (workflows/ordering.ts): it ends when the event it waits for does, so it has no time. */
export interface TurnWait {
  attempt: 1;
  ordering: {
    key: string;
    /** The earlier event of the key it waits for. */
    waitFor: string;
    /** That event is not logged yet, or its delivery to this subscription has not ended. */
    reason: 'not_logged' | 'in_delivery';
    /** Since when (epoch ms) it waits for that event. */
    since: number;
  };
}

/**
 * The attempts this workflow has waiting, by subscription: when each falls due and the holds it waited
 * through, or the earlier event of its key an ordered one waits for (a part's own; none on a parent of parts).
 */
export const pendingAttemptsQuery = defineQuery<Record<string, Due | TurnWait>>('pendingAttempts');

/**
 * An event workflow task holds its round of POSTs (local activities): one that times out runs
 * the round again and POSTs again. Temporal's 10 s default was passed by thousands of tasks on a
 * saturated worker (the chaos run); a dead worker's task is handed out again after this long.
 */
export const EVENT_WORKFLOW_TASK_TIMEOUT = '30s';
