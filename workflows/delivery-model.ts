import type { components } from '../generated/api';

/**
 * The delivery rules in one vocabulary, from one POST's outcome to the event's state, and the
 * pure parts of a round. The event workflow (event.ts) tells the story with these words; the
 * contract, the attempt log and the Temporal UI use the same ones.
 *
 * | word | what it names | values |
 * |---|---|---|
 * | outcome (`DeliveryOutcome`) | how one POST (or broker publish) ended | `delivered`, `http_error`, `timeout`, `network_error`, `blocked`, `rejected` (a broker's lasting no); `hold_expired` is logged by the hold sweep, never by a POST |
 * | verdict (`Verdict`) | what that outcome means for the delivery | `delivered`, `retry`, `stop`, `gone` (a 410) |
 * | attempt state (`AttemptState`, the attempt log's `state`) | where the delivery stands after a made attempt | `delivered`, `retrying`, `failed` (attempts ran out), `stopped` |
 * | subscriber state (`SubscriberState`) | one subscription's delivery of the event, as the workflow's query shows it | the attempt states, `attempting`, `cancelled` (paused, disabled or deleted before an attempt; a paused one that holds hands the delivery to its resume) |
 * | event state (`EventState`, the `WebhookDeliveryState` search attribute) | the event over all its subscriptions | `attempting`, `retrying`, `delivered`, `failed`, `cancelled` |
 * | skipped / deferred | a round's answer that is not an attempt: the subscription is gone for good, or its endpoint has `max_in_flight` POSTs running or its `rate_limit` used up this second | not logged, not counted |
 * | follow-up | what a settled delivery causes beside the rounds | disable on 410, disable after a failing streak, alert on exhaustion |
 *
 * Lifecycle of one subscription's delivery: attempting → (retrying → attempting)* → delivered,
 * failed or stopped; cancelled from attempting or retrying when its subscription stops taking events.
 */

/** How one POST ended; the contract's DeliveryOutcome. */
export type DeliveryOutcome = components['schemas']['DeliveryOutcome'];
/** Where a delivery stands after a made attempt; the contract's DeliveryAttemptState. */
export type AttemptState = components['schemas']['DeliveryAttemptState'];

/** What one POST to a receiver produced; the HTTP activity returns it as a value, never thrown. */
export type PostResult = {
  /** Epoch milliseconds (results cross Temporal as JSON). */
  startedAt: number;
  durationMs: number;
} & (
  | { outcome: Extract<DeliveryOutcome, 'delivered' | 'http_error'>; statusCode: number; responseExcerpt: string; retryAfterMs?: number }
  | { outcome: Exclude<DeliveryOutcome, 'delivered' | 'http_error'>; error: string }
);

/** How deliveries are retried; fixed per workflow at dispatch, so config changes never alter one in flight. */
export interface DeliveryPolicy {
  /** Waits between attempts, in ms: after attempt 1, after attempt 2, ... (the last repeats). */
  scheduleMs: number[];
  /** Attempts in all, including the first. */
  maxAttempts: number;
  /** Each wait is stretched by up to this fraction, at random, so retries do not arrive in lockstep. */
  jitterRatio: number;
}

/**
 * A subscription's own retry schedule (its `retry`), reported by the attempt activity with each
 * attempt it makes, so the workflow settles that attempt by it; absent: the workflow's policy.
 */
export interface RetryOverride {
  /** Waits between attempts, in ms (the last repeats). */
  scheduleMs: number[];
  /** Attempts in all, including the first. */
  maxAttempts: number;
}

/** The policy an attempt is settled by: `policy` with the subscription's schedule and attempts, when it sets them (jitter stays the service's). */
export function effectivePolicy(policy: DeliveryPolicy, override: RetryOverride | undefined): DeliveryPolicy {
  return override ? { scheduleMs: override.scheduleMs, maxAttempts: override.maxAttempts, jitterRatio: policy.jitterRatio } : policy;
}

/** The sum of the scheduled waits of a delivery that uses every attempt (no jitter, no Retry-After): how long its retries last. */
export function scheduleSpanMs(scheduleMs: readonly number[], maxAttempts: number): number {
  let span = 0;
  for (let attempt = 1; attempt < maxAttempts; attempt++) span += scheduleMs[Math.min(attempt - 1, scheduleMs.length - 1)] ?? 0;
  return span;
}

/** The longest a receiver's Retry-After may push the next attempt out. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * The wait before the next attempt after `attempt` failed: the scheduled interval plus
 * jitter in [0, jitterRatio), or the receiver's Retry-After when that is longer.
 * `random` is in [0, 1) (the workflow's deterministic Math.random).
 */
export function nextDelayMs(policy: DeliveryPolicy, attempt: number, random: number, retryAfterMs?: number): number {
  const index = Math.min(attempt - 1, policy.scheduleMs.length - 1);
  const base = policy.scheduleMs[index] ?? 0;
  const jittered = base + Math.floor(base * policy.jitterRatio * random);
  if (retryAfterMs !== undefined && retryAfterMs > jittered) return Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  return jittered;
}

/** Longest wait of an attempt put off by max_in_flight. */
export const MAX_DEFERRAL_MS = 30_000;

/**
 * The wait of an attempt put off by its endpoint's max_in_flight for the `deferrals`-th time:
 * 1 s doubling to 30 s, stretched by up to half at random so deferred attempts spread out.
 */
export function deferralDelayMs(deferrals: number, random: number): number {
  const base = Math.min(MAX_DEFERRAL_MS, 1000 * 2 ** Math.min(deferrals - 1, 5));
  return base + Math.floor(base * 0.5 * random);
}

/**
 * The wait of an attempt put off by its subscription's rate_limit: `untilMs`, until the second
 * the activity's limiter expects a slot for it in, spread at random over that second so the
 * put-off attempts do not all come back at its top.
 */
export function throttleDelayMs(random: number, untilMs: number): number {
  return untilMs + Math.floor(1000 * random);
}

/** What a receiver's answer means for the delivery, per the spec's outcome table. */
export type Verdict = 'delivered' | 'stop' | 'gone' | 'retry';

/**
 * 2xx delivered; 410 gone (disable); other 4xx except 408/429 stop; a URL our address guard
 * refused stops too (retrying would only probe again); 3xx, 5xx, 408, 429, timeouts and
 * network errors retry.
 *
 * A broker destination by the same rules: a publish the broker confirmed is delivered; its
 * lasting no (`rejected`: an unroutable message returned by `mandatory`, an exchange or vhost
 * that does not exist, refused access, wrong credentials; for Kafka an unknown topic, refused
 * authorization, failed authentication, a record refused as invalid or too large) stops, as a
 * 4xx does; a broker that is down or unreachable (`network_error`, for Kafka also a leader
 * election), a nack and a confirm or acknowledgement that does not come in time (`timeout`)
 * retry, as a 5xx does. NATS JetStream alike: its PubAck is the confirm; an authorization or
 * permission violation and a 4xx from the stream are `rejected`; no stream for the subject (no
 * responders: one may be created later), a 503 from JetStream, a server down and no PubAck in
 * time retry. Redis
 * Streams: the entry id answering `XADD` is the confirm; `WRONGPASS`, `NOAUTH`, `NOPERM` and
 * `WRONGTYPE` are `rejected`; anything else (down, loading, read-only, out of memory) retries.
 * SQS: the MessageId answering `SendMessage` is the confirm; a queue that does not exist, refused
 * access, an unknown key or wrong secret and a message SQS refuses as invalid are `rejected`;
 * throttling, a 5xx, a network failure and no answer in time retry.
 */
export function verdictFor(outcome: DeliveryOutcome, statusCode?: number): Verdict {
  if (outcome === 'delivered') return 'delivered';
  if (outcome === 'blocked' || outcome === 'rejected') return 'stop';
  if (outcome === 'http_error' && statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    if (statusCode === 410) return 'gone';
    if (statusCode !== 408 && statusCode !== 429) return 'stop';
  }
  return 'retry';
}

/** What one attempt's outcome means for its series. */
export interface Settlement {
  verdict: Verdict;
  state: AttemptState;
  /** The wait before the next attempt; 0 unless `state` is `retrying`. */
  delayMs: number;
}

/**
 * Settles attempt `attempt` from its outcome: the verdict, the state it leaves the delivery in
 * and, when it retries, the wait (jittered with `random`, the workflow's sample in [0, 1)).
 */
export function settleAttempt(
  policy: DeliveryPolicy,
  attempt: number,
  outcome: { outcome: DeliveryOutcome; statusCode?: number; retryAfterMs?: number },
  random: number,
): Settlement {
  const verdict = verdictFor(outcome.outcome, outcome.statusCode);
  const willRetry = verdict === 'retry' && attempt < policy.maxAttempts;
  const delayMs = willRetry ? nextDelayMs(policy, attempt, random, outcome.retryAfterMs) : 0;
  const state: AttemptState = verdict === 'delivered' ? 'delivered' : verdict === 'retry' ? (willRetry ? 'retrying' : 'failed') : 'stopped';
  return { verdict, state, delayMs };
}

/** Where one subscription's delivery of the event stands. */
export type SubscriberState = 'attempting' | 'retrying' | 'delivered' | 'failed' | 'stopped' | 'cancelled';

/** One subscription's delivery, as the `deliveryStatus` query shows it. */
export interface SubscriberStatus {
  state: SubscriberState;
  /** Attempts made so far. */
  attempts: number;
  /** Epoch ms of the next attempt while retrying. */
  nextAttemptAt?: number;
  /** The last attempt's own outcome. */
  lastOutcome?: DeliveryOutcome;
  /** The last attempt's HTTP status; absent when it got no answer. */
  lastStatusCode?: number;
  /** The last attempt's error, when it got no answer. */
  lastError?: string;
  /** Why the delivery was cancelled: the subscription was paused, disabled or deleted before an attempt. */
  cancelReason?: string;
  /** Times an attempt was put off because the endpoint had max_in_flight POSTs running or its rate_limit was used up. */
  deferrals?: number;
}

/**
 * The event's state over all its subscriptions, also the WebhookDeliveryState search attribute:
 * `retrying` while any waits to retry, `attempting` while any attempt runs, then `failed` when
 * any delivery failed or stopped, `delivered` when the others all were, `cancelled` when every
 * subscription was paused, disabled or deleted before it got the event.
 */
export type EventState = 'attempting' | 'retrying' | 'delivered' | 'failed' | 'cancelled';

/** What the `deliveryStatus` query returns, and an event workflow's result. */
export interface EventDeliveryStatus {
  eventId: string;
  state: EventState;
  /** Every subscription this workflow delivers to (for a partitioned event, those its finished parts reported). */
  subscriptions: Record<string, SubscriberStatus>;
  /** Workflow ids of the parts of a partitioned event. */
  parts?: string[];
}

/** The aggregate {@link EventState} of subscriber states. */
export function aggregateState(states: readonly SubscriberState[]): EventState {
  if (states.includes('retrying')) return 'retrying';
  if (states.includes('attempting')) return 'attempting';
  if (states.includes('failed') || states.includes('stopped')) return 'failed';
  if (states.includes('delivered')) return 'delivered';
  return 'cancelled';
}

/** The subscriptions in `state` (or any of `states`), in a stable order. */
export function subscriptionsIn(statuses: Record<string, SubscriberStatus>, ...states: SubscriberState[]): string[] {
  return Object.keys(statuses)
    .filter((id) => states.includes(statuses[id]!.state))
    .sort();
}

/** One attempt a round makes: to which subscription, of which event, its number. */
export interface AttemptInput {
  eventId: string;
  subscriptionId: string;
  attempt: number;
}

/** An attempt waiting for its turn: which one, when it falls due (workflow time), how often max_in_flight or rate_limit put it off. */
export interface Due {
  attempt: number;
  at: number;
  deferrals?: number;
  /** The holds (max_in_flight, rate_limit) this attempt waited through, so its log entry can say why it came later than scheduled. */
  held?: Hold[];
}

/** A stretch of consecutive deferrals of one attempt for one reason (epoch ms). */
export interface Hold {
  reason: 'max_in_flight' | 'rate_limit' | 'pull_outcome';
  /** When the first deferral of the stretch happened. */
  from: number;
  /** When the last deferral of the stretch put the attempt off to. */
  until: number;
  /** Deferrals in the stretch. */
  times: number;
}

/** `held` with one more deferral: the last stretch grows when its reason is the same, else a new one starts. */
export function addHold(held: readonly Hold[] | undefined, reason: Hold['reason'], now: number, until: number): Hold[] {
  const out = [...(held ?? [])];
  const last = out[out.length - 1];
  if (last && last.reason === reason) out[out.length - 1] = { ...last, until, times: last.times + 1 };
  else out.push({ reason, from: now, until, times: 1 });
  return out;
}

/**
 * A POST that was made: its result, the URL it went to and, when the subscription sets its own
 * `retry`, that schedule (read with the subscription for this attempt).
 */
export type MadeAttempt = PostResult & { url: string; retry?: RetryOverride };

/**
 * A round's answer for one subscription: a POST that happened, or why none did: `skipped` for
 * good (the subscription is gone, disabled, or paused without holding), `held` (paused: kept for
 * its resume, src/subscriptions/hold.ts), `deferred` for now (its endpoint has
 * `max_in_flight` POSTs running, or, with `waitMs` until its next second, its `rate_limit` is
 * used up; not an attempt).
 */
export type AttemptResult =
  | MadeAttempt
  | { outcome: 'skipped'; reason: string }
  /** The subscription is paused and holds: the delivery was recorded for its resume, and this run's part in it ends as a cancel does. */
  | { outcome: 'held'; reason: string }
  /** `hold` names the wait when it is neither throttle: a pull message waiting for its consumer's outcome (absent before pull). */
  | { outcome: 'deferred'; reason: string; waitMs?: number; hold?: 'pull_outcome' };

/** The first round: attempt 1 to every subscription, due at once. */
export function firstRound(subscriptionIds: readonly string[], now: number): Map<string, Due> {
  return new Map(subscriptionIds.map((id) => [id, { attempt: 1, at: now }]));
}

/** The attempts due now (or woken by retryNow), in the order they were queued. */
export function dueNow(pending: ReadonlyMap<string, Due>, now: number, woken: ReadonlySet<string>): Array<[string, Due]> {
  return [...pending].filter(([id, d]) => d.at <= now || woken.has(id));
}

/** When the earliest pending attempt falls due. */
export function earliestDue(pending: ReadonlyMap<string, Due>): number {
  return Math.min(...[...pending.values()].map((d) => d.at));
}

/** What one answer of a round means for its subscription. */
export type RoundStep =
  /** Paused, disabled or deleted: pending retries stop here. */
  | { kind: 'cancelled'; subscriptionId: string; reason: string; held?: true }
  /** Its endpoint has max_in_flight POSTs running, or its rate_limit is used up: the same attempt a little later, not logged. */
  | { kind: 'deferred'; subscriptionId: string; next: Due }
  /** A made attempt, settled; `next` when it retries. */
  | { kind: 'settled'; subscriptionId: string; attempt: number; result: MadeAttempt; settlement: Settlement; next?: Due; held?: Hold[] };

/**
 * Settles a round: each due attempt's answer (`results[i]` for `due[i]`) becomes a step, with
 * its retry or deferral timed from `now` and jittered with `randoms[i]` (the workflow's
 * deterministic samples in [0, 1)).
 */
export function settleRound(policy: DeliveryPolicy, due: ReadonlyArray<[string, Due]>, results: readonly AttemptResult[], randoms: readonly number[], now: number): RoundStep[] {
  return due.map(([subscriptionId, d], i): RoundStep => {
    const result = results[i]!;
    const random = randoms[i]!;
    // A held delivery goes on in the run its resume starts: here it ends as a cancel does, with no new command.
    if (result.outcome === 'held') return { kind: 'cancelled', subscriptionId, reason: result.reason, held: true };
    if (result.outcome === 'skipped') return { kind: 'cancelled', subscriptionId, reason: result.reason };
    if (result.outcome === 'deferred') {
      const deferrals = (d.deferrals ?? 0) + 1;
      // Without waitMs (max_in_flight, and every history before rate_limit): the deferral backoff as it was.
      const wait = result.waitMs !== undefined ? throttleDelayMs(random, result.waitMs) : deferralDelayMs(deferrals, random);
      const held = addHold(d.held, result.hold ?? (result.waitMs !== undefined ? 'rate_limit' : 'max_in_flight'), now, now + wait);
      return { kind: 'deferred', subscriptionId, next: { attempt: d.attempt, at: now + wait, deferrals, held } };
    }
    // Absent in histories before per-subscription retry: the workflow's policy, as it was then.
    const settlement = settleAttempt(effectivePolicy(policy, result.retry), d.attempt, result, random);
    const next = settlement.state === 'retrying' ? { next: { attempt: d.attempt + 1, at: now + settlement.delayMs } } : {};
    return { kind: 'settled', subscriptionId, attempt: d.attempt, result, settlement, ...next, ...(d.held ? { held: d.held } : {}) };
  });
}

/** The subscriptions whose delivery a round held for a paused subscription's resume: not ended, it goes on in a drained run. */
export function heldIn(steps: readonly RoundStep[]): Set<string> {
  return new Set(steps.filter((s) => s.kind === 'cancelled' && s.held).map((s) => s.subscriptionId));
}

/** The made attempts of a round, for the attempt log. */
export function madeAttempts(steps: readonly RoundStep[]): Array<Extract<RoundStep, { kind: 'settled' }>> {
  return steps.filter((s): s is Extract<RoundStep, { kind: 'settled' }> => s.kind === 'settled');
}

/** Puts a round's steps into the statuses and the pending attempts; `which` picks the unlogged steps (cancelled, deferred) or the logged ones. */
export function applySteps(steps: readonly RoundStep[], which: 'unlogged' | 'logged', statuses: Record<string, SubscriberStatus>, pending: Map<string, Due>): void {
  for (const step of steps) {
    const status = statuses[step.subscriptionId]!;
    if (step.kind === 'cancelled' && which === 'unlogged') {
      Object.assign(status, { state: 'cancelled', cancelReason: step.reason });
      pending.delete(step.subscriptionId);
    } else if (step.kind === 'deferred' && which === 'unlogged') {
      Object.assign(status, { state: 'retrying', nextAttemptAt: step.next.at, deferrals: (status.deferrals ?? 0) + 1 });
      pending.set(step.subscriptionId, step.next);
    } else if (step.kind === 'settled' && which === 'logged') {
      noteAttempt(status, step.attempt, step.result);
      status.state = step.settlement.state;
      if (step.next) {
        status.nextAttemptAt = step.next.at;
        pending.set(step.subscriptionId, step.next);
      } else {
        pending.delete(step.subscriptionId);
      }
    }
  }
}

/** Records a made attempt's own outcome in the status. */
function noteAttempt(status: SubscriberStatus, attempt: number, result: MadeAttempt): void {
  status.attempts = attempt;
  status.lastOutcome = result.outcome;
  if ('statusCode' in result) {
    status.lastStatusCode = result.statusCode;
    delete status.lastError;
  } else {
    status.lastError = result.error;
    delete status.lastStatusCode;
  }
}

/** What a settled delivery causes beside the rounds. */
export type FollowUp =
  | { kind: 'disable'; subscriptionId: string; reason: string; failingSince?: number }
  | { kind: 'alert'; subscriptionId: string; message: string };

/** A 410 disables its subscription; attempts that ran out alert the administrator. Other last attempts cause nothing. */
export function followUpsOfRound(eventId: string, steps: readonly RoundStep[]): FollowUp[] {
  const out: FollowUp[] = [];
  for (const s of madeAttempts(steps)) {
    if (s.next) continue;
    if (s.settlement.verdict === 'gone') out.push({ kind: 'disable', subscriptionId: s.subscriptionId, reason: `receiver answered 410 Gone to event ${eventId}` });
    if (s.settlement.state === 'failed') {
      const last = 'statusCode' in s.result ? `${s.result.outcome} ${s.result.statusCode}` : s.result.outcome;
      out.push({ kind: 'alert', subscriptionId: s.subscriptionId, message: `Delivery of ${eventId} to ${s.subscriptionId} failed after ${s.attempt} attempts (last: ${last})` });
    }
  }
  return out;
}

/** Subscriptions failing longer than allowed (reported by the attempt log) that are not being disabled already. */
export function failingFollowUps(failing: ReadonlyArray<{ subscriptionId: string; since: number }>, disabling: ReadonlySet<string>): FollowUp[] {
  return failing
    .filter((f) => !disabling.has(f.subscriptionId))
    .map((f) => ({ kind: 'disable', subscriptionId: f.subscriptionId, reason: `every delivery failed since ${new Date(f.since).toISOString()}`, failingSince: f.since }));
}
