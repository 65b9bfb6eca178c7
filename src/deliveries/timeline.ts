import type { components } from '../../generated/api';
import type { DeliveryAttempt, SubscriptionStatus } from '../contract/types';
import type { TurnWait } from '../../workflows/definitions';
import { eventWorkflowId, heldDeliveryWorkflowId } from '../../workflows/ids';
import { type AttemptDoc, type AttemptHold, toDeliveryAttempt } from './attempts';
import { heldId } from './held';

/** One event's delivery to one subscription, attempt by attempt and wait by wait; the contract's DeliveryTimeline. */
export type DeliveryTimeline = components['schemas']['DeliveryTimeline'];
type Wait = components['schemas']['DeliveryWait'];
type Next = components['schemas']['DeliveryNext'];

/** What a timeline is built from: the event's logged attempts to the subscription (any series, any order) and the subscription as it is now. */
export interface TimelineInput {
  eventId: string;
  subscriptionId: string;
  attempts: readonly AttemptDoc[];
  /** Shown attempts: the log rows as the caller may see them (an echoed response may be withheld). */
  show?: (doc: AttemptDoc) => DeliveryAttempt;
  subscriptionStatus: SubscriptionStatus;
  /** When the subscription was paused, while it is paused and holds (src/subscriptions/hold.ts): a due delivery is held, not cancelled. */
  pausedAt?: Date;
  now: Date;
  /** The attempt the delivery's workflow has waiting (its `pendingAttempts` query), when asked: its time and its holds so far. */
  pending?: PendingAttempt;
  /** `pending` is the run a resume's drain started for a held first attempt (drainedRun), waiting for its turn. */
  drained?: boolean;
}

/** An attempt a delivery workflow has waiting (epoch ms), as its `pendingAttempts` query returns it: timed, or an ordered first attempt waiting for its turn. */
export type PendingAttempt = TimedAttempt | TurnWait;

/** An attempt due at `at`, with the holds it waited through so far. */
export interface TimedAttempt {
  attempt: number;
  at: number;
  held?: Array<{ reason: AttemptHold['reason']; from: number; until: number; times: number }>;
}

/**
 * The workflow to ask for the attempt it has waiting, when the log alone cannot tell why the
 * delivery is not further: before the first attempt is logged, or when the next one is overdue
 * (max_in_flight or rate_limit may hold it). Undefined otherwise, or once the subscription stopped taking events.
 */
export function overdueSeries(input: Pick<TimelineInput, 'eventId' | 'attempts' | 'subscriptionStatus' | 'now'>): string | undefined {
  if (input.subscriptionStatus !== 'active') return undefined;
  const last = latestAttempt(input.attempts);
  if (!last) return eventWorkflowId(input.eventId);
  if (last.state !== 'retrying' || !last.next_attempt_at || last.next_attempt_at > input.now) return undefined;
  return seriesWorkflowId(last.series);
}

/**
 * The run a drain starts for the first attempt of `eventId`'s delivery to `subscriptionId` when
 * the event's own run held it (workflows/ids.ts heldDeliveryWorkflowId, from its record's id).
 */
export function drainedRun(eventId: string, subscriptionId: string): string {
  return heldDeliveryWorkflowId(eventId, heldId(subscriptionId, eventId, eventWorkflowId(eventId)));
}

/** The latest attempt logged (of any series), by start. */
function latestAttempt(attempts: readonly AttemptDoc[]): AttemptDoc | undefined {
  return [...attempts].sort((a, b) => b.started_at.getTime() - a.started_at.getTime())[0];
}

/** The Temporal workflow of an attempt series (`<workflow id>#<subscription>`, see workflows/ids.ts seriesId). */
export function seriesWorkflowId(series: string): string {
  const at = series.lastIndexOf('#');
  return at < 0 ? series : series.slice(0, at);
}

/**
 * The timeline of the latest attempt series: its attempts, the waits between them (the schedule's
 * backoff or the receiver's Retry-After after a retrying attempt; the max_in_flight and rate_limit
 * holds the next attempt logged it waited through), and what happens next, from the last attempt
 * and the subscription's status (a paused, disabled or deleted one cancels the retry when it falls due);
 * an ordered delivery's first attempt may wait, without a time, for the earlier event of its key (`next.waiting`).
 */
export function buildTimeline(input: TimelineInput): DeliveryTimeline {
  const { eventId, subscriptionId, now } = input;
  const show = input.show ?? toDeliveryAttempt;
  const latest = latestAttempt(input.attempts);
  const held = input.pausedAt ? `the subscription is paused since ${input.pausedAt.toISOString()}: the delivery is held when it falls due, and sent in emission order when the subscription is resumed` : undefined;
  const stopped = input.subscriptionStatus !== 'active' && !held ? `subscription ${input.subscriptionStatus}` : undefined;
  const asked = input.pending && input.pending.attempt === (latest ? latest.attempt : 0) + 1 ? input.pending : undefined;
  const pending = asked && 'at' in asked ? asked : undefined;
  if (!latest) {
    const turn = asked && 'ordering' in asked && !held ? turnWait(asked) : undefined;
    const next: Next = stopped
      ? { final: true, state: 'cancelled', reason: stopped }
      : { final: false, state: 'pending', attempt: 1, ...(pending ? { at: new Date(pending.at).toISOString() } : {}), ...(held ? { reason: held } : turn ?? (pending && input.drained ? { reason: drainTurn } : {})) };
    const waits = pending ? holds(0, 1, storedHolds(pending), new Date(pending.at)) : [];
    return { event_id: eventId, subscription_id: subscriptionId, state: next.state, attempts: [], waits, next };
  }
  const series = input.attempts.filter((a) => a.series === latest.series).sort((a, b) => a.attempt - b.attempt);
  const last = series[series.length - 1]!;
  const maxAttempts = last.max_attempts;
  const waits: Wait[] = [];
  for (const a of series) {
    waits.push(...holds(a.attempt - 1, a.attempt, a.held ?? [], a.started_at));
    const after = waitAfter(a, maxAttempts);
    if (after) waits.push(after);
  }
  const waiting = pending && last.state === 'retrying' && last.series === latest.series ? pending : undefined;
  if (waiting) waits.push(...holds(last.attempt, waiting.attempt, storedHolds(waiting), new Date(waiting.at)));
  const next = waiting && !stopped ? { final: false, state: 'retrying' as const, attempt: waiting.attempt, at: new Date(waiting.at).toISOString() } : nextOf(last, stopped, now, held);
  return {
    event_id: eventId,
    subscription_id: subscriptionId,
    workflow_id: seriesWorkflowId(latest.series),
    state: next.final ? next.state : 'retrying',
    ...(maxAttempts !== undefined ? { max_attempts: maxAttempts } : {}),
    attempts: series.map(show),
    waits,
    next,
  };
}

/** Why a drained run's attempt 1 waits until its time. */
const drainTurn = 'held while the subscription was paused; the resume’s drain started it, and attempt 1 goes at its turn (emission order, at the subscription’s drain_rate)';

/** An ordered first attempt's wait for the earlier event of its key: no time of its own, it follows when that one's delivery ends. */
function turnWait({ ordering: o }: TurnWait): Pick<Next, 'reason' | 'waiting'> {
  const state = o.reason === 'not_logged' ? 'is not logged yet (the relay logs it soon)' : 'is still being delivered to this subscription';
  return {
    reason: `waits for event ${o.waitFor}, the one before it of ordering key ${o.key}, which ${state}; attempt 1 follows when that delivery ends`,
    waiting: { reason: 'ordering', started_at: new Date(o.since).toISOString(), key: o.key, event_id: o.waitFor, event_state: o.reason },
  };
}

/** A waiting attempt's holds as the log stores them. */
function storedHolds(p: TimedAttempt): AttemptHold[] {
  return (p.held ?? []).map((h) => ({ reason: h.reason, from: new Date(h.from), until: new Date(h.until), times: h.times }));
}

/** Why an attempt was put off, in words. */
const holdWhat: Record<AttemptHold['reason'], string> = {
  rate_limit: 'the subscription’s rate_limit was used up',
  max_in_flight: 'max_in_flight POSTs to the endpoint were running',
  pull_outcome: 'its message waited in the inbox for the pull consumer’s outcome',
};

/** The holds attempt `attempt` waited through (after attempt `after`); each ends where the next begins, the last at `end` (the attempt's start, or when it falls due). */
function holds(after: number, attempt: number, held: readonly AttemptHold[], end: Date): Wait[] {
  return held.map((h, i): Wait => {
    const ends = held[i + 1]?.from ?? end;
    const what = holdWhat[h.reason];
    return {
      after_attempt: after,
      reason: h.reason,
      started_at: h.from.toISOString(),
      ends_at: ends.toISOString(),
      deferrals: h.times,
      detail: `Attempt ${attempt} put off ${h.times} ${h.times === 1 ? 'time' : 'times'}: ${what}`,
    };
  });
}

/** The wait after a retrying attempt: the schedule's backoff n of m, or the receiver's longer Retry-After. */
function waitAfter(a: AttemptDoc, maxAttempts: number | undefined): Wait | undefined {
  if (a.state !== 'retrying' || !a.next_attempt_at) return undefined;
  const of = maxAttempts !== undefined ? maxAttempts - 1 : 0;
  const retryAfter = a.wait_reason === 'retry_after';
  const n = `${a.attempt}${of ? ` of ${of}` : ''}`;
  return {
    after_attempt: a.attempt,
    reason: retryAfter ? 'retry_after' : 'backoff',
    started_at: new Date(a.started_at.getTime() + a.duration_ms).toISOString(),
    ends_at: a.next_attempt_at.toISOString(),
    backoff: { wait: a.attempt, of },
    detail: retryAfter ? `The receiver asked to wait (Retry-After), longer than retry schedule wait ${n}` : `Retry schedule wait ${n}`,
  };
}

/** What follows the last attempt: nothing (final), the next attempt (`held` says why it waits for a resume), or a cancel when the subscription stopped taking events. */
function nextOf(last: AttemptDoc, stopped: string | undefined, now: Date, held?: string): Next {
  if (last.state !== 'retrying') return { final: true, state: last.state, ...finalReason(last) };
  const at = last.next_attempt_at;
  if (held) return { final: false, state: 'retrying', attempt: last.attempt + 1, ...(at ? { at: at.toISOString() } : {}), reason: held };
  if (stopped) {
    // The workflow reads the subscription when the retry falls due, and cancels it then.
    if (!at || at <= now) return { final: true, state: 'cancelled', reason: stopped };
    return { final: false, state: 'cancelled', at: at.toISOString(), reason: `${stopped}: the delivery is cancelled when its next attempt falls due, unless the subscription is active again` };
  }
  return { final: false, state: 'retrying', attempt: last.attempt + 1, ...(at ? { at: at.toISOString() } : {}) };
}

/** The reason of a final state, in words. */
function finalReason(last: AttemptDoc): { reason?: string } {
  const answer = last.status_code !== undefined ? `${last.outcome} ${last.status_code}` : last.outcome;
  if (last.outcome === 'hold_expired') return { reason: 'held while the subscription was paused, longer than the hold limit (SUBSCRIPTION_HOLD_MAX)' };
  if (last.state === 'failed') return { reason: `attempts ran out (last: ${answer})` };
  if (last.state === 'stopped') return { reason: last.status_code === 410 ? 'the receiver answered 410 Gone; the subscription was disabled' : `not retried (${answer})` };
  return {};
}
