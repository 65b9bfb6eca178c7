import type { SubscriptionStatus } from '../contract/types';

/**
 * What a pause means for deliveries (docs/delivery.md, "Pause holds, resume drains"):
 *
 * | subscription | new events | a delivery (first attempt or retry) that comes due |
 * |---|---|---|
 * | `active` | fan out to it | is attempted |
 * | `paused` with `paused_at`, within SUBSCRIPTION_HOLD_MAX of it | fan out to it | is held, sent on resume in emission order |
 * | `paused` with `paused_at`, past the limit | fan out to it | cancelled (the held ones fail as `hold_expired`) |
 * | `paused` without `paused_at` (paused before holds) | do not reach it | cancelled |
 *
 * Each held delivery is bounded by its own `held_at`: past SUBSCRIPTION_HOLD_MAX it fails as
 * `hold_expired`, whether its subscription is still paused (the hold sweep) or draining (the drain).
 * | `disabled`, deleted | do not reach it | cancelled (held ones dropped) |
 */

/** The fields the rules read. */
export interface HoldState {
  status: SubscriptionStatus;
  paused_at?: Date | undefined;
  /** Set by a resume that left deliveries held: until when a read counts them (`draining_until`). */
  draining_until?: Date | undefined;
}

/** Slack on a drain's expected length before reads stop counting what a resumed subscription holds. */
export const DRAIN_SHOWN_SLACK_MS = 10 * 60_000;

/**
 * Until when reads of a subscription resumed with `count` deliveries held show them: twice the
 * drain's expected length at `rate` per second, plus DRAIN_SHOWN_SLACK_MS.
 */
export function drainingUntil(count: number, rate: number, now: Date): Date {
  return new Date(now.getTime() + 2 * Math.ceil((count / rate) * 1000) + DRAIN_SHOWN_SLACK_MS);
}

/**
 * Whether a read of the subscription counts what it holds: while paused and holding, or while
 * the drain its resume started is expected to run. Any other read costs no count: an active
 * subscription holds only what a resume left (or, for SUBSCRIPTION_CACHE_TTL, what a round that
 * read the pause held; the hold sweep drains that unseen).
 */
export function readsHeld(sub: HoldState, now: Date): boolean {
  return (sub.status === 'paused' && sub.paused_at !== undefined) || (sub.draining_until !== undefined && now < sub.draining_until);
}

/** SUBSCRIPTION_HOLD_MAX's default: a long weekend. */
export const DEFAULT_HOLD_MAX_MS = 72 * 3_600_000;

/** The highest `drain_rate` a subscription may set (the contract's DrainRate): each drained delivery follows the one before it, a few tens a second. */
export const MAX_DRAIN_RATE = 50;

/** Deliveries per second a drain sends when the subscription sets neither `drain_rate` nor `rate_limit`. */
export const DEFAULT_DRAIN_RATE = 10;

/** Whether events fan out to the subscription: an active one, or a paused one that holds (paused with `paused_at`). */
export function takesEvents(sub: HoldState): boolean {
  return sub.status === 'active' || (sub.status === 'paused' && sub.paused_at !== undefined);
}

/** Whether a delivery to the subscription that comes due at `now` (epoch ms) is held rather than attempted or cancelled. */
export function holdsAt(sub: HoldState, now: number, holdMaxMs: number): boolean {
  return sub.status === 'paused' && sub.paused_at !== undefined && now < sub.paused_at.getTime() + holdMaxMs;
}

/** Whether the subscription's hold ran past the limit at `now`: what it holds fails, and the pause cancels from then on. */
export function holdExpiredAt(sub: HoldState, now: number, holdMaxMs: number): boolean {
  return sub.status === 'paused' && sub.paused_at !== undefined && now >= sub.paused_at.getTime() + holdMaxMs;
}

/**
 * How much later than its drain the sweep expires a held delivery of a paused subscription: a
 * drain that read the record before the limit has this long to start it before the sweep may
 * fail it, so one record is never both started and failed.
 */
export const EXPIRY_GRACE_MS = 10 * 60_000;

/** Whether a delivery held at `heldAt` is past the hold limit at `now` (epoch ms), give or take `graceMs`. */
export function heldPastLimit(heldAt: Date, now: number, holdMaxMs: number, graceMs = 0): boolean {
  return now >= heldAt.getTime() + holdMaxMs + graceMs;
}

/** Deliveries per second a resumed subscription's held ones are started at: its `drain_rate`, never above its `rate_limit`. */
export function drainRate(sub: { drain_rate?: number | undefined; rate_limit?: number | undefined }): number {
  const wanted = sub.drain_rate ?? sub.rate_limit ?? DEFAULT_DRAIN_RATE;
  return sub.rate_limit !== undefined ? Math.min(wanted, sub.rate_limit) : wanted;
}

/**
 * The `paused_at` a status change leaves: set by a pause of a subscription not paused yet (to
 * when the oldest delivery it still holds was held, so pause/resume cycles never restart the
 * clock of what is held), kept by a repeated pause, cleared by anything else (resume, re-enable).
 */
export function pausedAtAfter(before: HoldState, status: SubscriptionStatus, now: Date, oldestHeld?: Date): { set?: Date; unset?: true } {
  if (status !== 'paused') return before.paused_at !== undefined ? { unset: true } : {};
  if (before.status === 'paused') return {};
  return { set: oldestHeld !== undefined && oldestHeld < now ? oldestHeld : now };
}
