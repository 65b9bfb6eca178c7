import { describe, expect, it } from 'vitest';
import { type DeliveryPolicy, MAX_RETRY_AFTER_MS, nextDelayMs, settleAttempt, verdictFor } from '../../../workflows/retry-policy';

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
