import { fieldName } from '../../../src/errors/field-issue';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors/domain-error';
import { checkedRetry, effectiveRetry, formatRetryWait, parseRetryWait, retryErrors, retryOverride } from '../../../src/subscriptions/retry-schedule';

const minute = 60_000;

describe('retry waits', () => {
  it('parses whole seconds, minutes and hours, and nothing else', () => {
    expect(['1s', '30s', '5m', '2h'].map(parseRetryWait)).toEqual([1000, 30_000, 5 * minute, 7_200_000]);
    for (const bad of ['0s', '1.5m', '500ms', '1d', ' 5m', '5', 'm', '-1s', '05m', '1234567s']) expect(parseRetryWait(bad), bad).toBeUndefined();
  });

  it('formats in the largest unit that divides the wait', () => {
    expect([1000, 90_000, 5 * minute, 120 * minute, 7_200_000 + minute].map(formatRetryWait)).toEqual(['1s', '90s', '5m', '2h', '121m']);
  });
});

describe('retry bounds', () => {
  it('accepts a schedule within them, stored in ms', () => {
    expect(checkedRetry({ schedule: ['1s', '5m', '6h'], max_attempts: 3 })).toEqual({ schedule_ms: [1000, 5 * minute, 6 * 60 * minute], max_attempts: 3 });
    // 10 steps of an hour with 10 attempts: 9 waits, 9 h.
    expect(retryErrors({ schedule: Array.from({ length: 10 }, () => '1h'), max_attempts: 10 })).toEqual([]);
    // 6h then 6h: exactly the 12 h total.
    expect(retryErrors({ schedule: ['6h'], max_attempts: 3 })).toEqual([]);
  });

  it.each([
    [{ schedule: [], max_attempts: 3 }, 'retry.schedule'],
    [{ schedule: Array.from({ length: 11 }, () => '1m'), max_attempts: 3 }, 'retry.schedule'],
    [{ schedule: ['1m', 'soon'], max_attempts: 3 }, 'retry.schedule[1]'],
    [{ schedule: ['7h'], max_attempts: 2 }, 'retry.schedule[0]'],
    [{ schedule: ['1m', '500ms'], max_attempts: 3 }, 'retry.schedule[1]'],
    [{ schedule: ['1m'], max_attempts: 0 }, 'retry.max_attempts'],
    [{ schedule: ['1m'], max_attempts: 11 }, 'retry.max_attempts'],
    [{ schedule: ['1m'], max_attempts: 2.5 }, 'retry.max_attempts'],
    // 6h three times: 18 h of retries.
    [{ schedule: ['6h'], max_attempts: 4 }, 'retry'],
  ])('refuses %o naming %s, with a 422', (input, path) => {
    expect(retryErrors(input).map((e) => fieldName(e.field))).toEqual([path]);
    let err: unknown;
    try {
      checkedRetry(input);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('unprocessable');
    expect((err as DomainError).errors?.map((e) => fieldName(e.field))).toEqual([path]);
  });
});

describe('the effective schedule', () => {
  const defaults = { scheduleMs: [1, 5, 15, 30, 60, 120].map((m) => m * minute), maxAttempts: 7 };

  it("is the service's, marked so, when the subscription sets none", () => {
    expect(effectiveRetry(undefined, defaults)).toEqual({ schedule: ['1m', '5m', '15m', '30m', '1h', '2h'], max_attempts: 7, source: 'service' });
  });

  it("is the subscription's own when set, and that is what the workflow gets", () => {
    const stored = checkedRetry({ schedule: ['30s', '5m'], max_attempts: 4 });
    expect(effectiveRetry(stored, defaults)).toEqual({ schedule: ['30s', '5m'], max_attempts: 4, source: 'subscription' });
    expect(retryOverride(stored)).toEqual({ scheduleMs: [30_000, 5 * minute], maxAttempts: 4 });
  });
});
