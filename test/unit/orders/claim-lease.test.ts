import { describe, expect, it } from 'vitest';
import { CLAIM_LEASE_MS, CLAIM_WRITE_WITHIN_MS, heldClaim, pastWriteWindow } from '../../../src/orders/claim-lease';
import { retryAfterSeconds } from '../../../src/errors/retry-later';

const t0 = Date.parse('2026-11-27T12:00:00.000Z');
const created = { id: 'evt_created' };
const pending = { status: 'pending' as const, outbox: [created] };
/** Another change's claim, taken `ageMs` before `t0`. */
const claim = (ageMs: number, event_id = 'evt_other') => ({ event_id, at: new Date(t0 - ageMs) });

describe('pastWriteWindow (this change\'s own claim, just before its write)', () => {
  it('lets the write go while within half the lease, the boundary included', () => {
    expect(pastWriteWindow(t0, t0)).toBeUndefined();
    expect(pastWriteWindow(t0, t0 + CLAIM_WRITE_WITHIN_MS)).toBeUndefined();
  });

  it('past the write window: busy until the claim\'s lease ends, as whole seconds rounded up', () => {
    const late = pastWriteWindow(t0, t0 + CLAIM_WRITE_WITHIN_MS + 800);
    expect(late).toEqual({ kind: 'busy', cause: 'too_slow', retryAfterMs: CLAIM_LEASE_MS - CLAIM_WRITE_WITHIN_MS - 800 });
    expect(retryAfterSeconds(late!.retryAfterMs)).toBe(5);
  });

  it('past the whole lease (a paused process): still busy, retry after at least 1 s', () => {
    const late = pastWriteWindow(t0, t0 + CLAIM_LEASE_MS + 3000);
    expect(late).toMatchObject({ kind: 'busy', cause: 'too_slow' });
    expect(retryAfterSeconds(late!.retryAfterMs)).toBe(1);
  });
});

describe('heldClaim (another change holds the place)', () => {
  it('a fresh claim whose change has not landed: busy, retry at once (its holder may be writing)', () => {
    const busy = heldClaim(claim(50), pending, 'pending', t0);
    expect(busy).toEqual({ kind: 'busy', cause: 'held', retryAfterMs: 0 });
    expect(retryAfterSeconds(0)).toBe(1);
  });

  it('a claim past its write window, not landed: its holder never writes, busy until its lease ends', () => {
    const busy = heldClaim(claim(CLAIM_WRITE_WITHIN_MS + 1500), pending, 'pending', t0);
    expect(busy).toEqual({ kind: 'busy', cause: 'held', retryAfterMs: CLAIM_LEASE_MS - CLAIM_WRITE_WITHIN_MS - 1500 });
    expect(retryAfterSeconds((busy as { retryAfterMs: number }).retryAfterMs)).toBe(4);
  });

  it('a claim whose change landed (its event in the outbox, or the order left the status): changed, within its lease or not', () => {
    const landed = { status: 'pending' as const, outbox: [created, { id: 'evt_other' }] };
    expect(heldClaim(claim(50), landed, 'pending', t0)).toEqual({ kind: 'changed' });
    expect(heldClaim(claim(CLAIM_LEASE_MS + 1), landed, 'pending', t0)).toEqual({ kind: 'changed' });
    expect(heldClaim(claim(50), { status: 'paid', outbox: [created] }, 'pending', t0)).toEqual({ kind: 'changed' });
    expect(heldClaim(claim(50), undefined, 'pending', t0)).toEqual({ kind: 'changed' });
  });

  it('a claim past its lease whose change never landed, or one gone: stale, the next generation may be claimed', () => {
    expect(heldClaim(claim(CLAIM_LEASE_MS), pending, 'pending', t0)).toBe('stale');
    expect(heldClaim(undefined, pending, 'pending', t0)).toBe('stale');
  });
});
