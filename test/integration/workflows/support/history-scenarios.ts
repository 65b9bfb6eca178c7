import { eventWorkflowId, partWorkflowId } from '../../../../workflows/ids';
import type { DeliveryPolicy, RetryOverride, SubscriberState } from '../../../../workflows/delivery-model';

const minute = 60_000;
const defaultPolicy: DeliveryPolicy = { scheduleMs: [1, 5, 15, 30, 60, 120].map((m) => m * minute), maxAttempts: 7, jitterRatio: 0.1 };
const shortPolicy: DeliveryPolicy = { scheduleMs: [1 * minute, 5 * minute], maxAttempts: 5, jitterRatio: 0.1 };

/** One recorded event-workflow run (test/fixtures/histories/<name>.json). */
export interface HistoryScenario {
  policy: DeliveryPolicy;
  batchSize: number;
  /** Per subscription (id suffix): what each attempt gets, the last repeating (`deferred`: max_in_flight put it off; `throttled`: rate_limit did; `held`: a pause held it). */
  answers: Record<string, Array<number | 'timeout' | 'network_error' | 'deferred' | 'throttled' | 'held'>>;
  /** Per subscription: its own retry schedule, as the attempt activity reports it with each made attempt. */
  retry?: Record<string, RetryOverride>;
  /** Per subscription: from the log of this attempt on, it is reported failing for longer than ENDPOINT_DISABLE_AFTER. */
  failingAfter?: Record<string, number>;
  /**
   * Subscriptions that get the event in its key's order: the gate refuses their turn `refusals` times, then lets them go; their end names `later` events to wake.
   * `signalled`: once the first turn was refused, the event's workflow gets their orderingTurn signal (as the end of the delivery before sends it).
   */
  ordered?: { subscriptions: string[]; refusals: number; later: string[]; signalled?: boolean };
  /** Started by a pacing drain: attempt 1 goes this long after the start (notBefore), after the run before it when it waits its turn (which never comes here). */
  drained?: { notBeforeMs: number; waitsTurn: boolean };
  /** How each subscription's delivery ends. */
  expected: Record<string, SubscriberState>;
  /** Whose history is kept: the event workflow's (default) or its first part's. */
  keep?: 'part-1';
  /** How the kept workflow closes. */
  closes: 'completed' | 'failed';
}

/** Five subscriptions in parts of two: the parent's history, and its first part's. */
const partitioned: HistoryScenario = {
  policy: defaultPolicy,
  batchSize: 2,
  answers: { a: [200], b: [503, 200], c: [200], d: [200], e: [200] },
  expected: { a: 'delivered', b: 'delivered', c: 'delivered', d: 'delivered', e: 'delivered' },
  closes: 'completed',
};

/** The committed histories of the 1.0 shape; every one must replay from now on. */
export const historyScenarios: Record<string, HistoryScenario> = {
  'event-delivered': {
    policy: defaultPolicy,
    batchSize: 50,
    answers: { a: [200], b: [204], c: [200] },
    expected: { a: 'delivered', b: 'delivered', c: 'delivered' },
    closes: 'completed',
  },
  'event-retry-then-success': { policy: defaultPolicy, batchSize: 50, answers: { a: [503, 503, 200] }, expected: { a: 'delivered' }, closes: 'completed' },
  'event-exhausted': { policy: shortPolicy, batchSize: 50, answers: { a: [500] }, expected: { a: 'failed' }, closes: 'failed' },
  'event-4xx': { policy: defaultPolicy, batchSize: 50, answers: { a: [400] }, expected: { a: 'stopped' }, closes: 'failed' },
  'event-410': { policy: defaultPolicy, batchSize: 50, answers: { a: [410] }, expected: { a: 'stopped' }, closes: 'failed' },
  'event-mixed': {
    policy: shortPolicy,
    batchSize: 50,
    answers: { a: [200], b: [503, 200], c: [400], d: ['timeout', 200], e: [410], f: ['network_error'] },
    expected: { a: 'delivered', b: 'delivered', c: 'stopped', d: 'delivered', e: 'stopped', f: 'failed' },
    closes: 'failed',
  },
  'event-partitioned': partitioned,
  'event-partitioned-part': { ...partitioned, keep: 'part-1' },
  // 1.1: an endpoint failing too long is disabled (behind the disable-failing-endpoints patch); an attempt put off by max_in_flight.
  'event-disable-failing': {
    policy: shortPolicy,
    batchSize: 50,
    answers: { a: [503], b: ['deferred', 'deferred', 200] },
    failingAfter: { a: 2 },
    expected: { a: 'cancelled', b: 'delivered' },
    closes: 'completed',
  },
  // 1.2: a subscription's own retry schedule, reported with each attempt: a fails after its 3, b keeps the policy's 5 and is delivered.
  'event-own-retry': {
    policy: shortPolicy,
    batchSize: 50,
    answers: { a: [503], b: [503, 503, 503, 200] },
    retry: { a: { scheduleMs: [10_000, 2 * minute], maxAttempts: 3 } },
    expected: { a: 'failed', b: 'delivered' },
    closes: 'failed',
  },
  // 1.2: attempts put off by rate_limit (deferred with the limiter's wait), beside one put off by max_in_flight.
  'event-rate-limited': {
    policy: shortPolicy,
    batchSize: 50,
    answers: { a: ['throttled', 'throttled', 200], b: ['deferred', 503, 200] },
    expected: { a: 'delivered', b: 'delivered' },
    closes: 'completed',
  },
  // 1.3: a round's POSTs, settling and log write in one local activity (behind the one-activity-per-round patch).
  'event-round-activity-mixed': {
    policy: shortPolicy,
    batchSize: 50,
    answers: { a: [200], b: [503, 200], c: [400], d: ['timeout', 200], e: [410], f: ['network_error'], g: ['deferred', 200] },
    expected: { a: 'delivered', b: 'delivered', c: 'stopped', d: 'delivered', e: 'stopped', f: 'failed', g: 'delivered' },
    closes: 'failed',
  },
  // 1.4: holds (rate_limit, max_in_flight) carried on the waiting attempt into its log entry, for the delivery timeline.
  'event-held-attempts': {
    policy: shortPolicy,
    batchSize: 50,
    answers: { a: ['throttled', 'throttled', 200], b: ['deferred', 'deferred', 503, 200] },
    expected: { a: 'delivered', b: 'delivered' },
    closes: 'completed',
  },
  // 1.5: a paused subscription's delivery held for its resume (first attempt, and a retry that came due): its part ends as a cancel's does, no new command.
  'event-paused-held': {
    policy: shortPolicy,
    batchSize: 50,
    answers: { a: [200], b: ['held'], c: [503, 'held'] },
    expected: { a: 'delivered', b: 'cancelled', c: 'cancelled' },
    closes: 'completed',
  },
  // 1.4: an ordered subscription waits for its turn (refused twice: the re-check timer asks again), retries, then wakes
  // the next event of its key (a workflow that does not exist: the signal is refused and passed over); b goes at once.
  'event-ordered-waited': {
    policy: shortPolicy,
    batchSize: 50,
    answers: { a: [503, 200], b: [200] },
    ordered: { subscriptions: ['a'], refusals: 2, later: ['evt_history_next_of_key'] },
    expected: { a: 'delivered', b: 'delivered' },
    closes: 'completed',
  },
  // A held delivery a pacing drain started (behind the wait-drain-turn patch): the first of its page waits for its time, then passes the turn on
  // (to a run that does not exist: refused five times a second apart, then passed over); a later one also waits for its turn, which never comes: it goes DRAIN_TURN_WAIT_MS past its time.
  'event-drained-first': { policy: shortPolicy, batchSize: 50, answers: { a: [503, 200] }, drained: { notBeforeMs: 30_000, waitsTurn: false }, expected: { a: 'delivered' }, closes: 'completed' },
  'event-drained-turn-timeout': { policy: shortPolicy, batchSize: 50, answers: { a: [200] }, drained: { notBeforeMs: 30_000, waitsTurn: true }, expected: { a: 'delivered' }, closes: 'completed' },
  // 1.5: a delivery waiting for its turn re-checks after 30 s, then 60, 120, 240 (behind the ordering-backoff patch).
  'event-ordered-backoff': {
    policy: shortPolicy,
    batchSize: 50,
    answers: { a: [200], b: [200] },
    ordered: { subscriptions: ['a'], refusals: 4, later: ['evt_history_next_of_key'] },
    expected: { a: 'delivered', b: 'delivered' },
    closes: 'completed',
  },
  // 1.5: a parent of parts passes the orderingTurn signal on to the part waiting for its turn (behind the parts-forward-ordering-turns patch).
  'event-ordered-parts': {
    policy: shortPolicy,
    batchSize: 1,
    answers: { a: [200], b: [200] },
    ordered: { subscriptions: ['a'], refusals: 1, later: [], signalled: true },
    expected: { a: 'delivered', b: 'delivered' },
    closes: 'completed',
  },
  // 1.6: an ordered delivery held for its subscription's resume has not ended: no mark, no wake-up (behind ordering-held-keeps-turn).
  'event-ordered-held': {
    policy: shortPolicy,
    batchSize: 50,
    answers: { a: [503, 'held'], b: [200] },
    ordered: { subscriptions: ['a'], refusals: 0, later: ['evt_history_next_of_key'] },
    expected: { a: 'cancelled', b: 'delivered' },
    closes: 'completed',
  },
  // 1.6: a drained run of an ordered delivery refused by the gate passes the drain's turn on at once (drained-gate-passes), goes at its
  // turn, and at its end wakes the later event's own workflow and its drained run (ordering-drained-wakes).
  'event-drained-ordered-gated': {
    policy: shortPolicy,
    batchSize: 50,
    answers: { a: [200] },
    ordered: { subscriptions: ['a'], refusals: 1, later: ['evt_history_next_of_key'] },
    drained: { notBeforeMs: 30_000, waitsTurn: false },
    expected: { a: 'delivered' },
    closes: 'completed',
  },
  'event-round-activity-disable-failing': {
    policy: shortPolicy,
    batchSize: 50,
    answers: { a: [503], b: ['throttled', 200] },
    failingAfter: { a: 2 },
    expected: { a: 'cancelled', b: 'delivered' },
    closes: 'completed',
  },
};

/** The event id a scenario is recorded with (fixed: a re-recording differs only in run ids and timestamps). */
export const recordedEventId = (name: string): string => `evt_history_${name}`;

/** The id of the workflow whose history a scenario keeps. */
export function recordedWorkflowId(name: string): string {
  const id = eventWorkflowId(recordedEventId(name));
  return historyScenarios[name]?.keep === 'part-1' ? partWorkflowId(id, 1) : id;
}
