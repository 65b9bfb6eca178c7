import { describe, expect, it } from 'vitest';
import { formatTime } from '../../../src/portal/ui/format';
import { nextText, waitText } from '../../../src/portal/ui/timeline-text';

const ends = '2026-11-26T10:01:00.000Z';
const wait = { after_attempt: 1, started_at: '2026-11-26T10:00:00.000Z', ends_at: ends, detail: '' };

describe('timeline text', () => {
  it('names each wait by its reason, with its end', () => {
    expect(waitText({ ...wait, reason: 'backoff', backoff: { wait: 1, of: 6 } })).toBe(`Backoff 1 of 6 (retry schedule) until ${formatTime(ends)}`);
    expect(waitText({ ...wait, reason: 'backoff', backoff: { wait: 2, of: 0 } })).toBe(`Backoff 2 (retry schedule) until ${formatTime(ends)}`);
    expect(waitText({ ...wait, reason: 'retry_after', backoff: { wait: 1, of: 6 } })).toContain("Receiver's Retry-After (longer than backoff 1 of 6)");
    expect(waitText({ ...wait, reason: 'rate_limit', deferrals: 3 })).toBe(`Held by rate_limit (put off 3×) until ${formatTime(ends)}`);
    expect(waitText({ ...wait, reason: 'max_in_flight', deferrals: 1 })).toContain('max_in_flight');
  });

  it('says what happens next: the next attempt, a cancel, or the final state', () => {
    expect(nextText({ final: false, state: 'retrying', attempt: 2, at: ends })).toBe(`Next: attempt 2 at ${formatTime(ends)}`);
    expect(nextText({ final: false, state: 'cancelled', at: ends, reason: 'subscription paused' })).toBe(`Cancelled at ${formatTime(ends)} (subscription paused)`);
    const waiting = { reason: 'ordering' as const, started_at: ends, key: 'order:7', event_id: 'evt_0', event_state: 'in_delivery' as const };
    expect(nextText({ final: false, state: 'pending', attempt: 1, waiting })).toBe(`Next: attempt 1 once event evt_0 (before it in key order:7, still being delivered) is delivered; waiting since ${formatTime(ends)}`);
    expect(nextText({ final: false, state: 'pending', attempt: 1, waiting: { ...waiting, event_state: 'not_logged' } })).toContain('not logged yet');
    expect(nextText({ final: true, state: 'delivered' })).toBe('Final: delivered');
    expect(nextText({ final: true, state: 'failed', reason: 'attempts ran out' })).toBe('Final: failed (attempts ran out)');
  });
});
