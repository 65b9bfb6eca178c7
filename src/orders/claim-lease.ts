import type { OrderStatus } from '../contract/types';
import type { OutboxEvent } from '../events/outbox';
import type { TransitionClaim } from './transition-claims';

/** How long a status change's claim holds its place: past it, one whose change is not written died with its process. */
export const CLAIM_LEASE_MS = 10_000;
/** Longest from a claim to its write's start: the rest of the lease covers the write itself and clocks that differ. */
export const CLAIM_WRITE_WITHIN_MS = CLAIM_LEASE_MS / 2;

/**
 * A status change that wrote nothing though the order is as it read it: its place is held by a
 * change that has not landed. `too_slow`: this change claimed it but got past its write window;
 * `held`: another change claimed it. The same request can win the place after `retryAfterMs`
 * (0: any moment, the holder may still be writing).
 */
export interface TransitionBusy {
  kind: 'busy';
  cause: 'too_slow' | 'held';
  retryAfterMs: number;
}

/** How a status change ended: written; refused because the order is not as read (another change landed, or it is gone); or busy. */
export type TransitionOutcome = { kind: 'written' } | { kind: 'changed' } | TransitionBusy;

/**
 * This change's own claim taken at `claimedAt`, about to write at `now`: undefined while it may,
 * else busy until the claim's lease ends, when the next claimant may take the place it gives up.
 */
export function pastWriteWindow(claimedAt: number, now: number): TransitionBusy | undefined {
  if (now - claimedAt <= CLAIM_WRITE_WITHIN_MS) return undefined;
  return { kind: 'busy', cause: 'too_slow', retryAfterMs: claimedAt + CLAIM_LEASE_MS - now };
}

/**
 * What a claim held by another change means to one claiming at `at` from status `from`, given the
 * order as read after the claim: `stale` (its lease passed and its change never landed, or it is
 * gone: the next generation of the place may be claimed), `changed` (its change landed, or the
 * order left `from`), or busy: not landed within its lease. A holder still in its write window
 * may land any moment; one past it never writes, so the place frees when its lease ends.
 */
export function heldClaim(
  held: TransitionClaim | undefined,
  order: { status: OrderStatus; outbox: readonly Pick<OutboxEvent, 'id'>[] } | undefined,
  from: OrderStatus,
  at: number,
): 'stale' | { kind: 'changed' } | TransitionBusy {
  if (!order || order.status !== from || (held && order.outbox.some((e) => e.id === held.event_id))) return { kind: 'changed' };
  if (!held) return 'stale';
  const age = at - held.at.getTime();
  if (age >= CLAIM_LEASE_MS) return 'stale';
  return { kind: 'busy', cause: 'held', retryAfterMs: age > CLAIM_WRITE_WITHIN_MS ? CLAIM_LEASE_MS - age : 0 };
}
