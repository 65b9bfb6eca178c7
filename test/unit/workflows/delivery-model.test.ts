import { describe, expect, it } from 'vitest';
import {
  type AttemptResult,
  applySteps,
  type DeliveryPolicy,
  deferralDelayMs,
  type Due,
  effectivePolicy,
  dueNow,
  earliestDue,
  failingFollowUps,
  firstRound,
  followUpsOfRound,
  heldIn,
  MAX_RETRY_AFTER_MS,
  type MadeAttempt,
  nextDelayMs,
  scheduleSpanMs,
  throttleDelayMs,
  settleAttempt,
  settleRound,
  type SubscriberStatus,
  verdictFor,
} from '../../../workflows/delivery-model';

const minute = 60_000;
const policy: DeliveryPolicy = { scheduleMs: [1, 5, 15, 30, 60, 120].map((m) => m * minute), maxAttempts: 7, jitterRatio: 0.1 };

describe('nextDelayMs', () => {
  it('follows the schedule with no jitter at random 0', () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => nextDelayMs(policy, a, 0) / minute)).toEqual([1, 5, 15, 30, 60, 120]);
  });

  it('stretches each wait by less than the jitter ratio', () => {
    expect(nextDelayMs(policy, 2, 0.999999)).toBeLessThan(5 * minute * 1.1);
    expect(nextDelayMs(policy, 2, 0.5)).toBe(5 * minute + Math.floor(5 * minute * 0.05));
  });

  it('repeats the last interval when attempts outnumber it', () => {
    expect(nextDelayMs({ ...policy, maxAttempts: 10 }, 9, 0)).toBe(120 * minute);
  });

  it('honours a longer Retry-After, capped at a day, and ignores a shorter one', () => {
    expect(nextDelayMs(policy, 1, 0, 10 * minute)).toBe(10 * minute);
    expect(nextDelayMs(policy, 1, 0, 1000)).toBe(minute);
    expect(nextDelayMs(policy, 1, 0, 7 * 24 * 60 * minute)).toBe(MAX_RETRY_AFTER_MS);
  });
});

describe('verdictFor', () => {
  it.each([
    ['delivered', 200, 'delivered'],
    ['delivered', 204, 'delivered'],
    ['http_error', 400, 'stop'],
    ['http_error', 401, 'stop'],
    ['http_error', 404, 'stop'],
    ['http_error', 410, 'gone'],
    ['http_error', 408, 'retry'],
    ['http_error', 429, 'retry'],
    ['http_error', 301, 'retry'],
    ['http_error', 500, 'retry'],
    ['http_error', 503, 'retry'],
    ['timeout', undefined, 'retry'],
    ['network_error', undefined, 'retry'],
    ['blocked', undefined, 'stop'],
    // A broker's lasting no (unroutable, no such exchange, refused access, wrong credentials) stops like a 4xx.
    ['rejected', undefined, 'stop'],
  ] as const)('%s %s → %s', (outcome, status, verdict) => {
    expect(verdictFor(outcome, status)).toBe(verdict);
  });
});

describe('settleAttempt', () => {
  it('retries with the jittered wait while attempts remain, then fails', () => {
    expect(settleAttempt(policy, 2, { outcome: 'http_error', statusCode: 503 }, 0.5)).toEqual({
      verdict: 'retry',
      state: 'retrying',
      delayMs: nextDelayMs(policy, 2, 0.5),
    });
    expect(settleAttempt(policy, 7, { outcome: 'timeout' }, 0.5)).toEqual({ verdict: 'retry', state: 'failed', delayMs: 0 });
  });

  it("honours a 429's longer Retry-After", () => {
    expect(settleAttempt(policy, 1, { outcome: 'http_error', statusCode: 429, retryAfterMs: 10 * minute }, 0).delayMs).toBe(10 * minute);
  });

  it.each([
    [{ outcome: 'delivered', statusCode: 200 }, 'delivered', 'delivered'],
    [{ outcome: 'http_error', statusCode: 400 }, 'stop', 'stopped'],
    [{ outcome: 'http_error', statusCode: 410 }, 'gone', 'stopped'],
    [{ outcome: 'blocked' }, 'stop', 'stopped'],
  ] as const)('ends the series on %o: %s, %s, no wait', (outcome, verdict, state) => {
    expect(settleAttempt(policy, 1, outcome, 0.9)).toEqual({ verdict, state, delayMs: 0 });
  });
});

const http = (statusCode: number, retryAfterMs?: number): MadeAttempt => ({
  outcome: statusCode < 300 ? 'delivered' : 'http_error',
  statusCode,
  responseExcerpt: '',
  startedAt: 0,
  durationMs: 5,
  url: 'https://example.test/hook',
  ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
});
const fresh = (): SubscriberStatus => ({ state: 'attempting', attempts: 0 });

/** Runs one round of the rules for one subscription's attempt `attempt` answered with `result`, as event.ts does. */
function oneRound(attempt: number, result: AttemptResult, now = 1_000_000, random = 0) {
  const pending = new Map<string, Due>([['sub_a', { attempt, at: now }]]);
  const statuses: Record<string, SubscriberStatus> = { sub_a: fresh() };
  const due = dueNow(pending, now, new Set());
  const steps = settleRound(policy, due, [result], [random], now);
  applySteps(steps, 'unlogged', statuses, pending);
  applySteps(steps, 'logged', statuses, pending);
  return { steps, status: statuses.sub_a!, next: pending.get('sub_a'), followUps: followUpsOfRound('evt_1', steps) };
}

describe('a round', () => {
  it('starts with attempt 1 to every subscription, due at once', () => {
    expect([...firstRound(['a', 'b'], 5)]).toEqual([
      ['a', { attempt: 1, at: 5 }],
      ['b', { attempt: 1, at: 5 }],
    ]);
  });

  it('takes what is due or woken by retryNow, and knows when the next falls due', () => {
    const pending = new Map<string, Due>([
      ['a', { attempt: 2, at: 100 }],
      ['b', { attempt: 3, at: 300 }],
      ['c', { attempt: 2, at: 200 }],
    ]);
    expect(dueNow(pending, 150, new Set()).map(([id]) => id)).toEqual(['a']);
    expect(dueNow(pending, 150, new Set(['b'])).map(([id]) => id)).toEqual(['a', 'b']);
    expect(earliestDue(pending)).toBe(100);
  });

  it('on the 7th 503 (the last attempt): failed, no retry, the administrator is alerted', () => {
    const r = oneRound(7, http(503));
    expect(r.status).toMatchObject({ state: 'failed', attempts: 7, lastOutcome: 'http_error', lastStatusCode: 503 });
    expect(r.next).toBeUndefined();
    expect(r.followUps).toEqual([{ kind: 'alert', subscriptionId: 'sub_a', message: 'Delivery of evt_1 to sub_a failed after 7 attempts (last: http_error 503)' }]);
  });

  it('on an earlier 503: retrying, the next attempt due after the scheduled wait, no follow-up', () => {
    const r = oneRound(3, http(503), 1_000_000, 0.5);
    expect(r.status).toMatchObject({ state: 'retrying', attempts: 3, nextAttemptAt: 1_000_000 + nextDelayMs(policy, 3, 0.5) });
    expect(r.next).toEqual({ attempt: 4, at: 1_000_000 + nextDelayMs(policy, 3, 0.5) });
    expect(r.followUps).toEqual([]);
  });

  it('on 410: stopped and the subscription disabled, no alert', () => {
    const r = oneRound(2, http(410));
    expect(r.status.state).toBe('stopped');
    expect(r.followUps).toEqual([{ kind: 'disable', subscriptionId: 'sub_a', reason: 'receiver answered 410 Gone to event evt_1' }]);
  });

  it('a delivery held by a pause ends in this run as a cancel does: no retry, nothing logged, no follow-up', () => {
    const r = oneRound(3, { outcome: 'held', reason: 'subscription paused: held since 2026-11-27T00:00:00.000Z, sent on resume' });
    expect(r.steps).toEqual([{ kind: 'cancelled', subscriptionId: 'sub_a', reason: 'subscription paused: held since 2026-11-27T00:00:00.000Z, sent on resume', held: true }]);
    expect(r.status).toMatchObject({ state: 'cancelled' });
    expect(r.status.cancelReason).toMatch(/held/);
    expect(r.next).toBeUndefined();
    expect(r.followUps).toEqual([]);
    // Not ended for its key's order: the drained run goes on with it.
    expect(heldIn(r.steps)).toEqual(new Set(['sub_a']));
    expect(heldIn(oneRound(3, { outcome: 'skipped', reason: 'subscription is paused' }).steps)).toEqual(new Set());
  });

  it('on another 4xx: stopped with no follow-up; on 2xx: delivered', () => {
    expect(oneRound(1, http(422))).toMatchObject({ status: { state: 'stopped' }, followUps: [] });
    expect(oneRound(4, http(204))).toMatchObject({ status: { state: 'delivered', attempts: 4 }, followUps: [], next: undefined });
  });

  it('a timeout keeps its error and drops the last status code', () => {
    const r = oneRound(2, { outcome: 'timeout', error: 'no answer in 10 s', startedAt: 0, durationMs: 10_000, url: 'u' });
    expect(r.status).toMatchObject({ state: 'retrying', lastOutcome: 'timeout', lastError: 'no answer in 10 s' });
    expect(r.status.lastStatusCode).toBeUndefined();
  });

  it('a skipped subscription (paused, disabled, deleted) is cancelled: nothing logged, no retry', () => {
    const r = oneRound(3, { outcome: 'skipped', reason: 'subscription is paused' });
    expect(r.steps).toEqual([{ kind: 'cancelled', subscriptionId: 'sub_a', reason: 'subscription is paused' }]);
    expect(r.status).toMatchObject({ state: 'cancelled', cancelReason: 'subscription is paused' });
    expect(r.next).toBeUndefined();
  });

  it('a deferred attempt (max_in_flight) is the same attempt later, counted as a deferral, not an attempt', () => {
    const r = oneRound(2, { outcome: 'deferred', reason: 'max_in_flight' }, 1000, 0);
    expect(r.next).toEqual({ attempt: 2, at: 1000 + deferralDelayMs(1, 0), deferrals: 1, held: [{ reason: 'max_in_flight', from: 1000, until: 1000 + deferralDelayMs(1, 0), times: 1 }] });
    expect(r.status).toMatchObject({ state: 'retrying', attempts: 0, deferrals: 1 });
  });

  it('changes made attempts only once they are logged', () => {
    const pending = firstRound(['a'], 0);
    const statuses: Record<string, SubscriberStatus> = { a: fresh() };
    const steps = settleRound(policy, dueNow(pending, 0, new Set()), [http(200)], [0], 0);
    applySteps(steps, 'unlogged', statuses, pending);
    expect(statuses.a!.state).toBe('attempting');
    expect(pending.has('a')).toBe(true);
    applySteps(steps, 'logged', statuses, pending);
    expect(statuses.a!.state).toBe('delivered');
    expect(pending.size).toBe(0);
  });

  it('disables after a failing streak once per subscription', () => {
    const failing = [
      { subscriptionId: 'a', since: Date.UTC(2026, 0, 1) },
      { subscriptionId: 'b', since: Date.UTC(2026, 0, 2) },
    ];
    expect(failingFollowUps(failing, new Set(['a']))).toEqual([
      { kind: 'disable', subscriptionId: 'b', reason: 'every delivery failed since 2026-01-02T00:00:00.000Z', failingSince: Date.UTC(2026, 0, 2) },
    ]);
  });
});

describe("a subscription's own retry schedule", () => {
  const own = { scheduleMs: [2000, 30_000], maxAttempts: 3 };

  it('replaces the schedule and the attempts, keeping the service jitter; none keeps the policy itself', () => {
    expect(effectivePolicy(policy, own)).toEqual({ scheduleMs: [2000, 30_000], maxAttempts: 3, jitterRatio: 0.1 });
    expect(effectivePolicy(policy, undefined)).toBe(policy);
  });

  it('spans the waits its attempts use, the last one repeating', () => {
    expect(scheduleSpanMs(policy.scheduleMs, policy.maxAttempts)).toBe(231 * minute);
    expect(scheduleSpanMs([1000, 5000], 5)).toBe(16_000);
    expect(scheduleSpanMs([1000], 1)).toBe(0);
  });

  it('settles an attempt that reports it by its intervals and max_attempts, not the policy', () => {
    const first = oneRound(1, { ...http(503), retry: own });
    expect(first.status.state).toBe('retrying');
    expect(first.next).toEqual({ attempt: 2, at: 1_000_000 + 2000 });
    const second = oneRound(2, { ...http(503), retry: own }, 1_000_000, 0.5);
    expect(second.next).toEqual({ attempt: 3, at: 1_000_000 + 30_000 + 1500 });
    // The third is its last: failed and alerted, where the policy would allow 7.
    const third = oneRound(3, { ...http(503), retry: own });
    expect(third.status).toMatchObject({ state: 'failed', attempts: 3 });
    expect(third.next).toBeUndefined();
    expect(third.followUps).toEqual([expect.objectContaining({ kind: 'alert', subscriptionId: 'sub_a' })]);
    // Without it the same attempt 3 retries on the policy's 15 minutes.
    expect(oneRound(3, http(503)).next).toEqual({ attempt: 4, at: 1_000_000 + 15 * minute });
  });

  it('still honours a longer Retry-After', () => {
    expect(oneRound(1, { ...http(429, 10 * minute), retry: own }).next).toEqual({ attempt: 2, at: 1_000_000 + 10 * minute });
  });
});

describe('an attempt put off by rate_limit', () => {
  it("waits until the second the limiter expects a slot in, spread at random over that second", () => {
    expect(throttleDelayMs(0, 250)).toBe(250);
    expect(throttleDelayMs(0.5, 250)).toBe(750);
    expect(throttleDelayMs(0.999, 2250)).toBeLessThan(3250);
  });

  it('is deferred, not an attempt: nothing logged, the same attempt number, its wait from waitMs', () => {
    const r = oneRound(2, { outcome: 'deferred', reason: '5 deliveries per second to this subscription (rate_limit)', waitMs: 300 }, 1_000_000, 0.5);
    expect(r.steps).toEqual([{ kind: 'deferred', subscriptionId: 'sub_a', next: { attempt: 2, at: 1_000_000 + 300 + 500, deferrals: 1, held: [{ reason: 'rate_limit', from: 1_000_000, until: 1_000_000 + 300 + 500, times: 1 }] } }]);
    expect(r.status).toMatchObject({ state: 'retrying', attempts: 0, deferrals: 1 });
    expect(r.followUps).toEqual([]);
    // Without waitMs (max_in_flight, and histories before rate_limit) the deferral backoff is unchanged.
    expect(oneRound(2, { outcome: 'deferred', reason: 'max_in_flight' }, 1_000_000, 0.5).next).toMatchObject({ attempt: 2, at: 1_000_000 + deferralDelayMs(1, 0.5), deferrals: 1, held: [{ reason: 'max_in_flight' }] });
  });
});
