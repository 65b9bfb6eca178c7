import { describe, expect, it } from 'vitest';
import { type MadeAttempt, settleRound } from '../../../workflows/delivery-model';
import { eventWorkflowId, redeliveryWorkflowId } from '../../../workflows/ids';
import { roundLogEntries } from '../../../workflows/log-entries';

const now = 1_000_000;
const made = (statusCode: number): MadeAttempt => ({ startedAt: now, durationMs: 3, outcome: statusCode < 300 ? 'delivered' : 'http_error', statusCode, responseExcerpt: '', url: 'https://r.example/' });
const policy = { scheduleMs: [60_000], maxAttempts: 3, jitterRatio: 0 };
const steps = settleRound(
  policy,
  [
    ['a', { attempt: 1, at: now }],
    ['b', { attempt: 2, at: now }],
  ],
  [made(200), made(503)],
  [0, 0],
  now,
);

describe('roundLogEntries', () => {
  it("marks attempt 1 of the event's own delivery as its first attempt, and nothing else", () => {
    const entries = roundLogEntries('evt_1', eventWorkflowId('evt_1'), steps);
    expect(entries.map((e) => [e.subscriptionId, e.attempt, e.series, e.firstOfEvent])).toEqual([
      ['a', 1, 'event/evt_1#a', true],
      ['b', 2, 'event/evt_1#b', undefined],
    ]);
    expect('firstOfEvent' in entries[1]!).toBe(false);
  });

  it("does not mark a redelivery's attempt 1: the event waited for an earlier one", () => {
    const entries = roundLogEntries('evt_1', redeliveryWorkflowId('evt_1', 'rdl_1'), steps);
    expect(entries.map((e) => [e.series, e.firstOfEvent])).toEqual([
      ['event/evt_1/redelivery/rdl_1#a', undefined],
      ['event/evt_1/redelivery/rdl_1#b', undefined],
    ]);
  });

  it('logs the attempts allowed, a Retry-After that won, and the holds an attempt waited through', () => {
    const retryAfter = { ...made(429), retryAfterMs: 600_000 };
    const throttled = settleRound(policy, [['c', { attempt: 1, at: now }]], [{ outcome: 'deferred', reason: 'rate_limit', waitMs: 500 }], [0], now)[0]!;
    if (throttled.kind !== 'deferred') throw new Error('expected a deferral');
    expect(throttled.next.held).toEqual([{ reason: 'rate_limit', from: now, until: now + 500, times: 1 }]);
    const round = settleRound(
      policy,
      [
        ['b', { attempt: 1, at: now }],
        ['c', throttled.next],
      ],
      [retryAfter, made(200)],
      [0, 0],
      now + 500,
    );
    const [b, c] = roundLogEntries('evt_1', eventWorkflowId('evt_1'), round, policy);
    expect(b).toMatchObject({ maxAttempts: 3, waitReason: 'retry_after', nextAttemptAt: now + 500 + 600_000 });
    expect(c).toMatchObject({ maxAttempts: 3, held: [{ reason: 'rate_limit', times: 1 }] });
    expect(roundLogEntries('evt_1', eventWorkflowId('evt_1'), steps, policy)[1]).not.toHaveProperty('waitReason');
  });
});
