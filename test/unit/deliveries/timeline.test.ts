import { describe, expect, it } from 'vitest';
import type { AttemptDoc } from '../../../src/deliveries/attempts';
import { heldId } from '../../../src/deliveries/held';
import { buildTimeline, drainedRun, overdueSeries, seriesWorkflowId } from '../../../src/deliveries/timeline';

const t0 = Date.parse('2026-11-26T10:00:00.000Z');
const at = (ms: number) => new Date(t0 + ms);
const series = 'event/evt_1#sub_1';

function attempt(n: number, startMs: number, over: Partial<AttemptDoc> = {}): AttemptDoc {
  return {
    _id: `att_${n}`,
    event_id: 'evt_1',
    subscription_id: 'sub_1',
    series,
    attempt: n,
    started_at: at(startMs),
    duration_ms: 100,
    outcome: 'http_error',
    status_code: 503,
    url: 'https://example.com/hook',
    state: 'retrying',
    max_attempts: 7,
    ...over,
  };
}

const base = { eventId: 'evt_1', subscriptionId: 'sub_1', subscriptionStatus: 'active' as const, now: at(10 * 60_000) };

describe('buildTimeline', () => {
  it('shows two backoff waits ending at the logged next attempts, then delivered as final', () => {
    const attempts = [
      attempt(3, 400_000, { outcome: 'delivered', status_code: 200, state: 'delivered' }),
      attempt(1, 0, { next_attempt_at: at(65_000) }),
      attempt(2, 65_000, { next_attempt_at: at(400_000) }),
    ];
    const tl = buildTimeline({ ...base, attempts });
    expect(tl.attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(tl.waits).toEqual([
      { after_attempt: 1, reason: 'backoff', started_at: at(100).toISOString(), ends_at: at(65_000).toISOString(), backoff: { wait: 1, of: 6 }, detail: 'Retry schedule wait 1 of 6' },
      { after_attempt: 2, reason: 'backoff', started_at: at(65_100).toISOString(), ends_at: at(400_000).toISOString(), backoff: { wait: 2, of: 6 }, detail: 'Retry schedule wait 2 of 6' },
    ]);
    expect(tl).toMatchObject({ state: 'delivered', max_attempts: 7, workflow_id: 'event/evt_1', next: { final: true, state: 'delivered' } });
  });

  it('a paused subscription that holds: the due delivery is held and sent on resume, not cancelled', () => {
    const pausedAt = at(30_000);
    const waiting = buildTimeline({ ...base, subscriptionStatus: 'paused', pausedAt, attempts: [] });
    expect(waiting.next).toMatchObject({ final: false, state: 'pending', attempt: 1 });
    expect(waiting.next.reason).toMatch(/paused since 2026-11-26T10:00:30.000Z.*held.*resumed/);
    const retrying = buildTimeline({ ...base, subscriptionStatus: 'paused', pausedAt, attempts: [attempt(1, 0, { next_attempt_at: at(65_000) })] });
    expect(retrying.next).toMatchObject({ final: false, state: 'retrying', attempt: 2, at: at(65_000).toISOString() });
    expect(retrying.next.reason).toMatch(/held/);
    // Without paused_at (a pause from before holds): cancelled, as before.
    expect(buildTimeline({ ...base, subscriptionStatus: 'paused', attempts: [] }).next).toEqual({ final: true, state: 'cancelled', reason: 'subscription paused' });
  });

  it('a delivery held past the hold limit is final, failed, saying so', () => {
    const expired = attempt(2, 0, { outcome: 'hold_expired', duration_ms: 0, state: 'failed', error: 'not sent' });
    delete expired.status_code;
    const tl = buildTimeline({ ...base, subscriptionStatus: 'paused', attempts: [expired] });
    expect(tl.state).toBe('failed');
    expect(tl.next).toMatchObject({ final: true, state: 'failed' });
    expect(tl.next.reason).toMatch(/hold limit/);
  });

  it('names the receiver’s Retry-After and says when the next attempt is due', () => {
    const tl = buildTimeline({ ...base, attempts: [attempt(1, 0, { status_code: 429, wait_reason: 'retry_after', next_attempt_at: at(20 * 60_000) })] });
    expect(tl.waits[0]).toMatchObject({ reason: 'retry_after', ends_at: at(20 * 60_000).toISOString(), backoff: { wait: 1, of: 6 } });
    expect(tl.state).toBe('retrying');
    expect(tl.next).toEqual({ final: false, state: 'retrying', attempt: 2, at: at(20 * 60_000).toISOString() });
  });

  it('shows the holds an attempt waited through, each ending where the next begins', () => {
    const held = [
      { reason: 'rate_limit' as const, from: at(0), until: at(1_500), times: 2 },
      { reason: 'max_in_flight' as const, from: at(1_600), until: at(2_600), times: 1 },
    ];
    const tl = buildTimeline({ ...base, attempts: [attempt(1, 2_700, { held, outcome: 'delivered', status_code: 200, state: 'delivered' })] });
    expect(tl.waits).toEqual([
      expect.objectContaining({ after_attempt: 0, reason: 'rate_limit', started_at: at(0).toISOString(), ends_at: at(1_600).toISOString(), deferrals: 2 }),
      expect.objectContaining({ after_attempt: 0, reason: 'max_in_flight', started_at: at(1_600).toISOString(), ends_at: at(2_700).toISOString(), deferrals: 1 }),
    ]);
  });

  it('says failed and stopped are final, with why', () => {
    expect(buildTimeline({ ...base, attempts: [attempt(7, 0, { state: 'failed' })] }).next).toEqual({ final: true, state: 'failed', reason: 'attempts ran out (last: http_error 503)' });
    expect(buildTimeline({ ...base, attempts: [attempt(1, 0, { status_code: 400, state: 'stopped' })] }).next).toMatchObject({ final: true, state: 'stopped' });
  });

  it('cancels a waiting retry of a paused subscription when it falls due', () => {
    const waiting = buildTimeline({ ...base, subscriptionStatus: 'paused', attempts: [attempt(1, 0, { next_attempt_at: at(20 * 60_000) })] });
    expect(waiting).toMatchObject({ state: 'retrying', next: { final: false, state: 'cancelled', at: at(20 * 60_000).toISOString() } });
    const due = buildTimeline({ ...base, subscriptionStatus: 'disabled', attempts: [attempt(1, 0, { next_attempt_at: at(60_000) })] });
    expect(due).toMatchObject({ state: 'cancelled', next: { final: true, state: 'cancelled', reason: 'subscription disabled' } });
  });

  it('reads the latest series only, and old entries without max_attempts', () => {
    const old = attempt(1, 0, { state: 'failed', series: 'event/evt_1#sub_1' });
    const legacy = attempt(1, 500_000, { series: 'event/evt_1/redelivery/rdl_1#sub_1', next_attempt_at: at(560_000) });
    delete legacy.max_attempts;
    const tl = buildTimeline({ ...base, attempts: [old, legacy] });
    expect(tl.workflow_id).toBe('event/evt_1/redelivery/rdl_1');
    expect(tl.attempts).toHaveLength(1);
    expect(tl.max_attempts).toBeUndefined();
    expect(tl.waits[0]).toMatchObject({ backoff: { wait: 1, of: 0 }, detail: 'Retry schedule wait 1' });
  });

  it('is pending before the first attempt is logged', () => {
    expect(buildTimeline({ ...base, attempts: [] })).toMatchObject({ state: 'pending', attempts: [], waits: [], next: { final: false, state: 'pending', attempt: 1 } });
    expect(seriesWorkflowId('event/evt_1/part/2#sub_1')).toBe('event/evt_1/part/2');
  });

  it("adds the holds of the attempt the workflow has waiting, and says when it falls due", () => {
    const pending = { attempt: 2, at: t0 + 70_000, held: [{ reason: 'max_in_flight' as const, from: t0 + 60_000, until: t0 + 70_000, times: 3 }] };
    const tl = buildTimeline({ ...base, attempts: [attempt(1, 0, { next_attempt_at: at(60_000) })], pending });
    expect(tl.waits.map((w) => [w.after_attempt, w.reason, w.ends_at])).toEqual([
      [1, 'backoff', at(60_000).toISOString()],
      [1, 'max_in_flight', at(70_000).toISOString()],
    ]);
    expect(tl.next).toEqual({ final: false, state: 'retrying', attempt: 2, at: at(70_000).toISOString() });
    // Before the first attempt: pending, held, due at the workflow's time.
    const first = buildTimeline({ ...base, attempts: [], pending: { ...pending, attempt: 1 } });
    expect(first).toMatchObject({ state: 'pending', waits: [{ after_attempt: 0, reason: 'max_in_flight' }], next: { attempt: 1, at: at(70_000).toISOString() } });
    // A stale answer (another attempt than the one after the last logged) is ignored.
    expect(buildTimeline({ ...base, attempts: [attempt(1, 0, { next_attempt_at: at(60_000) })], pending: { ...pending, attempt: 5 } }).waits).toHaveLength(1);
  });

  it('says when the run a drain started makes the attempt 1 a pause held: at its turn in the drain', () => {
    const tl = buildTimeline({ ...base, attempts: [], pending: { attempt: 1, at: t0 + 3_000 }, drained: true });
    expect(tl).toMatchObject({ state: 'pending', attempts: [], waits: [], next: { final: false, state: 'pending', attempt: 1, at: at(3_000).toISOString() } });
    expect(tl.next.reason).toMatch(/drain_rate/);
    // The run's id comes from the record the event's own run wrote.
    expect(drainedRun('evt_1', 'sub_1')).toBe(`event/evt_1/redelivery/${heldId('sub_1', 'evt_1', 'event/evt_1')}`);
  });

  it('says what an ordered first attempt waits for: the earlier event of its key, by id and state, without a time', () => {
    const turn = (reason: 'not_logged' | 'in_delivery') => ({ attempt: 1 as const, ordering: { key: 'order:7', waitFor: 'evt_0', reason, since: t0 + 5_000 } });
    const tl = buildTimeline({ ...base, attempts: [], pending: turn('in_delivery') });
    expect(tl).toMatchObject({ state: 'pending', attempts: [], waits: [] });
    const { reason, ...next } = tl.next;
    expect(next).toEqual({
      final: false,
      state: 'pending',
      attempt: 1,
      waiting: { reason: 'ordering', started_at: at(5_000).toISOString(), key: 'order:7', event_id: 'evt_0', event_state: 'in_delivery' },
    });
    expect(reason).toMatch(/evt_0.*order:7.*still being delivered/);
    const unlogged = buildTimeline({ ...base, attempts: [], pending: turn('not_logged') }).next;
    expect(unlogged.waiting?.event_state).toBe('not_logged');
    expect(unlogged.reason).toContain('not logged yet');
    // Paused or deleted: that says more than the turn.
    expect(buildTimeline({ ...base, attempts: [], pausedAt: at(0), pending: turn('in_delivery') }).next).not.toHaveProperty('waiting');
    expect(buildTimeline({ ...base, subscriptionStatus: 'disabled', attempts: [], pending: turn('in_delivery') }).next).toEqual({ final: true, state: 'cancelled', reason: 'subscription disabled' });
  });

  it('asks the workflow only when the log cannot tell: before attempt 1, or when the next attempt is overdue', () => {
    expect(overdueSeries({ ...base, attempts: [] })).toBe('event/evt_1');
    expect(overdueSeries({ ...base, attempts: [attempt(1, 0, { next_attempt_at: at(60_000) })] })).toBe('event/evt_1');
    expect(overdueSeries({ ...base, attempts: [attempt(1, 0, { next_attempt_at: at(3600_000) })] })).toBeUndefined();
    expect(overdueSeries({ ...base, attempts: [attempt(1, 0, { state: 'delivered' })] })).toBeUndefined();
    expect(overdueSeries({ ...base, subscriptionStatus: 'paused', attempts: [] })).toBeUndefined();
  });
});
