import { describe, expect, it } from 'vitest';
import { type DeliveryPolicy, MAX_RETRY_AFTER_MS, nextDelayMs, verdictFor } from '../../../workflows/retry-policy';

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
