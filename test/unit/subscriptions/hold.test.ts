import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/openapi';
import { DEFAULT_DRAIN_RATE, MAX_DRAIN_RATE, drainRate, heldPastLimit, holdExpiredAt, holdsAt, pausedAtAfter, takesEvents } from '../../../src/subscriptions/hold';

const hour = 3_600_000;
const pausedAt = new Date('2026-11-27T00:00:00Z');
const t = (ms: number) => pausedAt.getTime() + ms;

describe('what a pause means for deliveries', () => {
  it('an active subscription and a paused one with paused_at take events; a legacy pause and disabled do not', () => {
    expect(takesEvents({ status: 'active' })).toBe(true);
    expect(takesEvents({ status: 'paused', paused_at: pausedAt })).toBe(true);
    expect(takesEvents({ status: 'paused' })).toBe(false);
    expect(takesEvents({ status: 'disabled' })).toBe(false);
    expect(takesEvents({ status: 'disabled', paused_at: pausedAt })).toBe(false);
  });

  it('holds a due delivery while paused within the limit, never without paused_at, never when not paused', () => {
    expect(holdsAt({ status: 'paused', paused_at: pausedAt }, t(0), hour)).toBe(true);
    expect(holdsAt({ status: 'paused', paused_at: pausedAt }, t(hour - 1), hour)).toBe(true);
    expect(holdsAt({ status: 'paused', paused_at: pausedAt }, t(hour), hour)).toBe(false);
    expect(holdsAt({ status: 'paused' }, t(0), hour)).toBe(false);
    expect(holdsAt({ status: 'active', paused_at: pausedAt }, t(0), hour)).toBe(false);
    expect(holdsAt({ status: 'disabled', paused_at: pausedAt }, t(0), hour)).toBe(false);
  });

  it('a hold expires at the limit, not before, and only for a pause that holds', () => {
    expect(holdExpiredAt({ status: 'paused', paused_at: pausedAt }, t(hour - 1), hour)).toBe(false);
    expect(holdExpiredAt({ status: 'paused', paused_at: pausedAt }, t(hour), hour)).toBe(true);
    expect(holdExpiredAt({ status: 'paused' }, t(10 * hour), hour)).toBe(false);
    expect(holdExpiredAt({ status: 'active', paused_at: pausedAt }, t(10 * hour), hour)).toBe(false);
  });

  it('caps drain_rate at what a drain can start one at a time, in the contract too', () => {
    const schemas = loadContract().components!.schemas as Record<string, { maximum?: number }>;
    expect(MAX_DRAIN_RATE).toBe(50);
    expect(schemas.DrainRate!.maximum).toBe(MAX_DRAIN_RATE);
  });

  it('drains at drain_rate, capped by rate_limit, else rate_limit, else the default', () => {
    expect(drainRate({})).toBe(DEFAULT_DRAIN_RATE);
    expect(drainRate({ rate_limit: 3 })).toBe(3);
    expect(drainRate({ drain_rate: 50 })).toBe(50);
    expect(drainRate({ drain_rate: 50, rate_limit: 5 })).toBe(5);
    expect(drainRate({ drain_rate: 2, rate_limit: 5 })).toBe(2);
  });

  it('a pause sets paused_at once, a repeated pause keeps it, anything else clears it', () => {
    const now = new Date(t(5 * hour));
    expect(pausedAtAfter({ status: 'active' }, 'paused', now)).toEqual({ set: now });
    expect(pausedAtAfter({ status: 'paused', paused_at: pausedAt }, 'paused', now)).toEqual({});
    // A legacy pause stays one: holding starts with the next pause after a resume.
    expect(pausedAtAfter({ status: 'paused' }, 'paused', now)).toEqual({});
    expect(pausedAtAfter({ status: 'paused', paused_at: pausedAt }, 'active', now)).toEqual({ unset: true });
    expect(pausedAtAfter({ status: 'paused' }, 'active', now)).toEqual({});
    expect(pausedAtAfter({ status: 'disabled' }, 'active', now)).toEqual({});
  });

  it('a re-pause while deliveries are still held keeps the clock of the oldest: cycles never restart it', () => {
    const now = new Date(t(5 * hour));
    expect(pausedAtAfter({ status: 'active' }, 'paused', now, pausedAt)).toEqual({ set: pausedAt });
    expect(pausedAtAfter({ status: 'active' }, 'paused', now, undefined)).toEqual({ set: now });
    expect(pausedAtAfter({ status: 'paused', paused_at: now }, 'paused', now, pausedAt)).toEqual({});
  });

  it('a held delivery is past the limit from its own held_at, later by the grace', () => {
    expect(heldPastLimit(pausedAt, t(hour - 1), hour)).toBe(false);
    expect(heldPastLimit(pausedAt, t(hour), hour)).toBe(true);
    expect(heldPastLimit(pausedAt, t(hour), hour, 10)).toBe(false);
    expect(heldPastLimit(pausedAt, t(hour + 10), hour, 10)).toBe(true);
  });
});
