import type { components } from '../generated/api';

/** How one POST ended; the contract's DeliveryOutcome. */
export type DeliveryOutcome = components['schemas']['DeliveryOutcome'];
/** Where a delivery stands after a made attempt; the contract's DeliveryAttemptState. */
export type AttemptState = components['schemas']['DeliveryAttemptState'];

/** How deliveries are retried; fixed per workflow at dispatch, so config changes never alter one in flight. */
export interface DeliveryPolicy {
  /** Waits between attempts, in ms: after attempt 1, after attempt 2, ... (the last repeats). */
  scheduleMs: number[];
  /** Attempts in all, including the first. */
  maxAttempts: number;
  /** Each wait is stretched by up to this fraction, at random, so retries do not arrive in lockstep. */
  jitterRatio: number;
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

/** What a receiver's answer means for the delivery, per the spec's outcome table. */
export type Verdict = 'delivered' | 'stop' | 'gone' | 'retry';

/**
 * 2xx delivered; 410 gone (disable); other 4xx except 408/429 stop; a URL our address guard
 * refused stops too (retrying would only probe again); 3xx, 5xx, 408, 429, timeouts and
 * network errors retry.
 */
export function verdictFor(outcome: DeliveryOutcome, statusCode?: number): Verdict {
  if (outcome === 'delivered') return 'delivered';
  if (outcome === 'blocked') return 'stop';
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
