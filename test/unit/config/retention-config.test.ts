import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config';
import { DAY_MS, deliverySpanMs, longestDeliverySpanMs } from '../../../src/retention/delivery-span';
import { retentionSchedule } from '../../../src/retention/install-schedule';

describe('retention configuration', () => {
  it('keeps 30 days, passes hourly in rounds of 5000, deleting half the time, by default', () => {
    expect(loadConfig({}).retention).toEqual({ days: 30, intervalMs: 3_600_000, batchSize: 1000, busyShare: 0.2 });
  });

  it('reads the four variables, and off turns retention off', () => {
    expect(loadConfig({ RETENTION_DAYS: '7', RETENTION_INTERVAL: '15m', RETENTION_BATCH_SIZE: '50', RETENTION_BUSY_SHARE: '1' }).retention).toEqual({
      days: 7,
      intervalMs: 900_000,
      batchSize: 50,
      busyShare: 1,
    });
    expect(loadConfig({ RETENTION_DAYS: 'off' }).retention.days).toBeUndefined();
  });

  it.each([
    [{ RETENTION_DAYS: '0' }, 'RETENTION_DAYS'],
    [{ RETENTION_DAYS: '1.5' }, 'RETENTION_DAYS'],
    [{ RETENTION_DAYS: '-3' }, 'RETENTION_DAYS'],
    [{ RETENTION_DAYS: 'never' }, 'RETENTION_DAYS'],
    [{ RETENTION_INTERVAL: '30s' }, 'RETENTION_INTERVAL'],
    [{ RETENTION_INTERVAL: 'hourly' }, 'RETENTION_INTERVAL'],
    [{ RETENTION_BATCH_SIZE: '5' }, 'RETENTION_BATCH_SIZE'],
    [{ RETENTION_BATCH_SIZE: '20000' }, 'RETENTION_BATCH_SIZE'],
    [{ RETENTION_BUSY_SHARE: '0' }, 'RETENTION_BUSY_SHARE'],
    [{ RETENTION_BUSY_SHARE: '1.5' }, 'RETENTION_BUSY_SHARE'],
    // Ten attempts a day apart retry for 9.9 days: 3 days of retention would delete running deliveries' events.
    [{ RETENTION_DAYS: '3', DELIVERY_RETRY_SCHEDULE: '24h', DELIVERY_MAX_ATTEMPTS: '10' }, 'RETENTION_DAYS'],
  ])('rejects %o naming the variable', (env, name) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`\\n  ${name}: `));
  });

  it('accepts retention longer than the retries, and off with any schedule', () => {
    expect(loadConfig({ RETENTION_DAYS: '21', DELIVERY_RETRY_SCHEDULE: '24h', DELIVERY_MAX_ATTEMPTS: '10', SUBSCRIPTION_HOLD_MAX: '1d' }).retention.days).toBe(21);
    expect(loadConfig({ RETENTION_DAYS: 'off', DELIVERY_RETRY_SCHEDULE: '24h', DELIVERY_MAX_ATTEMPTS: '10' }).retention.days).toBeUndefined();
  });
});

describe('the hold limit against retention', () => {
  it('holds for 72 hours by default, which fits the default retention', () => {
    expect(loadConfig({}).delivery.holdMaxMs).toBe(72 * 3_600_000);
    expect(loadConfig({ SUBSCRIPTION_HOLD_MAX: '30s' }).delivery.holdMaxMs).toBe(30_000);
  });

  it('refuses a hold that, with a delivery\'s retries, would outlive the events it holds, naming the most it may be', () => {
    // 3 days of retention, 13.2 hours of retries at the longest (a subscription's own schedule), twice (a drained delivery retries
    // from attempt 1 again), and the sweep's 10 minutes of grace: at most 45 hours.
    expect(() => loadConfig({ RETENTION_DAYS: '3', SUBSCRIPTION_HOLD_MAX: '58h' })).toThrow(/\n {2}SUBSCRIPTION_HOLD_MAX: must be shorter than RETENTION_DAYS \(3 days\).*at most 45h/);
    expect(loadConfig({ RETENTION_DAYS: '3', SUBSCRIPTION_HOLD_MAX: '45h' }).delivery.holdMaxMs).toBe(45 * 3_600_000);
    expect(() => loadConfig({ RETENTION_DAYS: '1', SUBSCRIPTION_HOLD_MAX: '1h' })).toThrow(/\n {2}SUBSCRIPTION_HOLD_MAX: cannot fit: RETENTION_DAYS \(1 days\)/);
    expect(loadConfig({ RETENTION_DAYS: 'off', SUBSCRIPTION_HOLD_MAX: '365d' }).delivery.holdMaxMs).toBe(365 * 86_400_000);
  });

  it('fits an unset hold to what retention leaves it, in whole hours, and names RETENTION_DAYS when not even an hour fits', () => {
    // 3 days less twice 13.2 hours of retries and 10 minutes: 45.4 hours, so 45.
    expect(loadConfig({ RETENTION_DAYS: '3' }).delivery.holdMaxMs).toBe(45 * 3_600_000);
    expect(loadConfig({ RETENTION_DAYS: '2', SUBSCRIPTION_HOLD_MAX: '' }).delivery.holdMaxMs).toBe(21 * 3_600_000);
    // 4 days leave 69.4 hours, 5 days more than the default.
    expect(loadConfig({ RETENTION_DAYS: '4' }).delivery.holdMaxMs).toBe(69 * 3_600_000);
    expect(loadConfig({ RETENTION_DAYS: '5' }).delivery.holdMaxMs).toBe(72 * 3_600_000);
    expect(loadConfig({ RETENTION_DAYS: 'off' }).delivery.holdMaxMs).toBe(72 * 3_600_000);
    expect(() => loadConfig({ RETENTION_DAYS: '1' })).toThrow(/\n {2}RETENTION_DAYS: must leave room for a held delivery/);
    // An explicit value is never cut: it is refused, naming the most it may be.
    expect(() => loadConfig({ RETENTION_DAYS: '3', SUBSCRIPTION_HOLD_MAX: '72h' })).toThrow(/\n {2}SUBSCRIPTION_HOLD_MAX: .*at most 45h/);
  });

  it.each(['0', '500ms', '366d', 'forever'])('refuses SUBSCRIPTION_HOLD_MAX=%s', (value) => {
    expect(() => loadConfig({ SUBSCRIPTION_HOLD_MAX: value, RETENTION_DAYS: 'off' })).toThrow(/\n {2}SUBSCRIPTION_HOLD_MAX: /);
  });
});

describe('deliverySpanMs', () => {
  it('sums the waits of every retry, each stretched by the full jitter, the last wait repeating', () => {
    const minute = 60_000;
    // The default: 1+5+15+30+60+120 minutes, plus 10 %: 254.1 minutes, under the 4 hours and a quarter.
    expect(deliverySpanMs({ scheduleMs: [1, 5, 15, 30, 60, 120].map((m) => m * minute), maxAttempts: 7, jitterRatio: 0.1 })).toBe(15_246_000);
    expect(deliverySpanMs({ scheduleMs: [minute, 2 * minute], maxAttempts: 5, jitterRatio: 0 })).toBe(7 * minute);
    expect(deliverySpanMs({ scheduleMs: [DAY_MS], maxAttempts: 1, jitterRatio: 0.5 })).toBe(0);
  });
});

describe('longestDeliverySpanMs', () => {
  it("covers a subscription's own retries at their longest (12 h plus jitter) when the service's are shorter", () => {
    const minute = 60_000;
    expect(longestDeliverySpanMs({ scheduleMs: [1, 5, 15, 30, 60, 120].map((m) => m * minute), maxAttempts: 7, jitterRatio: 0.1 })).toBe(13.2 * 60 * minute);
    expect(longestDeliverySpanMs({ scheduleMs: [DAY_MS], maxAttempts: 10, jitterRatio: 0 })).toBe(9 * DAY_MS);
  });
});

describe('retentionSchedule', () => {
  it('is what the worker installs: the interval, the task queue, and the pass input with the delivery span as events grace', () => {
    const config = loadConfig({ TEMPORAL_TASK_QUEUE: 'q1', RETENTION_DAYS: '10', RETENTION_INTERVAL: '2h', RETENTION_BATCH_SIZE: '100' });
    expect(retentionSchedule(config)).toEqual({
      taskQueue: 'q1',
      intervalMs: 7_200_000,
      input: { retentionDays: 10, eventGraceMs: longestDeliverySpanMs(config.delivery.policy), batchSize: 100 },
    });
    expect(retentionSchedule(loadConfig({ RETENTION_DAYS: 'off' }))).toBeUndefined();
  });
});
