import { activityInfo } from '@temporalio/activity';
import type { Activities } from '../../../../activities';
import type { AlertInput } from '../../../../activities/alerts';
import { deliverRoundWith } from '../../../../activities/deliver-round';
import type { AttemptInput, AttemptLogEntry, AttemptResult, MadeAttempt, RecordedRound } from '../../../../activities/attempt';
import type { DeleteExpiredInput } from '../../../../activities/retention';
import type { OrderedDelivery } from '../../../../activities/ordering';
import type { Turn } from '../../../../src/events/ordering-gate';
import type { PurgeResult } from '../../../../src/retention/purge';
import type { HeldPage } from '../../../../activities/held';
import type { HeldCursor } from '../../../../src/deliveries/held';

/**
 * Fake activities for workflow tests: the real workflows run against them, they record every
 * call and answer from a script. Times are the test server's (skipped) workflow clock when a
 * `clock` is given, not wall time.
 */

export const receiverUrl = 'https://receiver.example/hooks';

/** A receiver's HTTP answer as postAttempt reports it. */
export function http(statusCode: number, extra: { retryAfterMs?: number } = {}): MadeAttempt {
  return {
    outcome: statusCode >= 200 && statusCode < 300 ? 'delivered' : 'http_error',
    statusCode,
    responseExcerpt: '',
    ...extra,
    startedAt: 0,
    durationMs: 1,
    url: receiverUrl,
  };
}

/** A POST that got no answer. */
export function failure(outcome: 'timeout' | 'network_error', error = outcome === 'timeout' ? 'no complete answer within 5000 ms' : 'ECONNREFUSED'): MadeAttempt {
  return { outcome, error, startedAt: 0, durationMs: 1, url: receiverUrl };
}

/** An attempt max_in_flight put off (not an attempt). */
export function deferred(): AttemptResult {
  return { outcome: 'deferred', reason: '1 POSTs to this subscription in flight (max_in_flight)' };
}

/** An attempt a paused subscription held for its resume (no POST). */
export function held(): AttemptResult {
  return { outcome: 'held', reason: 'subscription paused: held since 2026-11-27T00:00:00.000Z, sent on resume' };
}

/** An attempt the activity skipped without a POST (subscription paused, disabled or deleted). */
export function skipped(reason: string): AttemptResult {
  return { outcome: 'skipped', reason };
}

export interface AttemptCall {
  input: AttemptInput;
  workflowId: string;
  /** Server time (ms) when the attempt ran. */
  at: number;
}

export interface FakeCalls {
  /** Every attempt, in the order they ran. */
  attempts: AttemptCall[];
  /** How many attempts have been answered. */
  answered: number;
  /** Each postAttempts call: the subscriptions of the attempts sent together. */
  rounds: string[][];
  /** Every attempt log entry written. */
  logged: AttemptLogEntry[];
  /** Each recordAttempts call: the entries written together. */
  logWrites: AttemptLogEntry[][];
  disableSubscription: { subscriptionId: string; eventId: string; reason: string }[];
  raiseAlert: AlertInput[];
  deleteExpired: DeleteExpiredInput[];
  /** Each heldPage call's cursor, and each releaseHeld call's ids (drains). */
  heldPages: Array<HeldCursor | undefined>;
  released: string[][];
  /** Each turn check of an ordered delivery, in order. */
  turns: OrderedDelivery[];
  /** Each end of an ordered delivery reported. */
  ends: OrderedDelivery[];
}

export interface FakeScript {
  /** The answer to each attempt; `input.attempt` is the workflow's attempt number. */
  attempt: (input: AttemptInput, call: AttemptCall) => AttemptResult | Promise<AttemptResult>;
  /** What logging a round reports as failing too long (default: none). */
  failing?: (entries: AttemptLogEntry[]) => RecordedRound['failing'];
  /** How many recordAttempts calls fail before they succeed (default: none). */
  failLogWrites?: number;
  /** The answer to each retention call (default: nothing to delete). */
  deleteExpired?: (input: DeleteExpiredInput, call: number) => PurgeResult;
  /** A drain's pages (default: the subscription is gone); `call` counts from 1. */
  heldPage?: (input: { subscriptionId: string; limit: number; after?: HeldCursor }, call: number) => HeldPage;
  /** Whether a drain's end finds nothing held (default: true). */
  settleHeld?: (call: number) => boolean;
  /** The gate's answer to each turn check of an ordered delivery (default: go). */
  turn?: (delivery: OrderedDelivery, check: number) => Turn | Promise<Turn>;
  /** The later events of its key an ended ordered delivery names (default: none). */
  later?: (delivery: OrderedDelivery) => string[];
}

/** Builds fake activities answering from `script`; `calls` fills in as the workflows run. */
export function fakeActivities(script: FakeScript, clock?: () => Promise<number>): { activities: Activities; calls: FakeCalls } {
  const calls: FakeCalls = { attempts: [], answered: 0, rounds: [], logged: [], logWrites: [], disableSubscription: [], raiseAlert: [], deleteExpired: [], heldPages: [], released: [], turns: [], ends: [] };
  let failedLogWrites = 0;
  let settles = 0;
  const activities: Activities = {
    async postAttempts(inputs) {
      const info = activityInfo();
      // Local activities carry the worker's wall clock: the test server's time comes from `clock`.
      const at = clock ? await clock() : Date.now();
      calls.rounds.push(inputs.map((i) => i.subscriptionId));
      return Promise.all(
        inputs.map(async (input) => {
          const call: AttemptCall = { input, workflowId: info.workflowExecution?.workflowId ?? '', at };
          calls.attempts.push(call);
          const result = await script.attempt(input, call);
          calls.answered++;
          return result.outcome === 'skipped' || result.outcome === 'held' ? result : { ...result, startedAt: at };
        }),
      );
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async recordAttempts(entries) {
      if (failedLogWrites < (script.failLogWrites ?? 0)) {
        failedLogWrites++;
        throw new Error('attempt log unavailable');
      }
      calls.logWrites.push(entries);
      calls.logged.push(...entries);
      return { failing: script.failing?.(entries) ?? [] };
    },
    // The real composition over these fakes, settled by the test server's clock.
    async deliverRound(round) {
      const at = clock ? await clock() : Date.now();
      return deliverRoundWith(round, { post: (inputs) => activities.postAttempts(inputs), record: (entries) => activities.recordAttempts(entries), now: () => at });
    },
    // Most fakes answer at once; `async` keeps the real activities' Promise signatures.
    // eslint-disable-next-line @typescript-eslint/require-await
    async disableSubscription(input) {
      calls.disableSubscription.push(input);
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async raiseAlert(input) {
      calls.raiseAlert.push(input);
      return { id: `alert-${calls.raiseAlert.length}`, notified: false };
    },
    async orderingTurn(d) {
      calls.turns.push(d);
      return (await script.turn?.(d, calls.turns.filter((t) => t.eventId === d.eventId && t.subscriptionId === d.subscriptionId).length)) ?? { go: true };
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async orderingDone(d) {
      calls.ends.push(d);
      return script.later?.(d) ?? [];
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async orderingDoneHeld(d) {
      calls.ends.push(d);
      return (script.later?.(d) ?? []).map((eventId) => ({ eventId, heldId: `held_${eventId}` }));
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async checkDatabase() {
      throw new Error('checkDatabase is not part of event workflows');
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async deleteExpired(input) {
      calls.deleteExpired.push(input);
      return script.deleteExpired?.(input, calls.deleteExpired.length) ?? { deleted: 0, batches: 0, more: false };
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async heldPage(input) {
      calls.heldPages.push(input.after);
      return script.heldPage?.(input, calls.heldPages.length) ?? { state: 'deleted', rate: 1, items: [] };
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async releaseHeld(input) {
      calls.released.push(input.ids);
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async settleHeld() {
      settles += 1;
      return { empty: script.settleHeld?.(settles) ?? true };
    },
  };
  return { activities, calls };
}
