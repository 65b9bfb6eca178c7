import { type Repeating, repeatEvery } from '../lib/repeat';
import type { Logger } from '../logger';
import { EXPIRY_GRACE_MS, heldPastLimit, holdExpiredAt } from '../subscriptions/hold';
import type { SubscriptionDoc, SubscriptionRepository } from '../subscriptions/repository';
import { seriesId } from '../../workflows/ids';
import { type AttemptDoc, type AttemptRepository, attemptId } from './attempts';
import type { HeldCursor, HeldDeliveryRepository, HeldDoc } from './held';

/** What the sweep reads and writes. */
export interface HoldSweepDeps {
  held: Pick<HeldDeliveryRepository, 'holding' | 'page' | 'release' | 'dropAll' | 'settle' | 'count' | 'claim'>;
  subscriptions: Pick<SubscriptionRepository, 'findForDelivery'>;
  attempts: Pick<AttemptRepository, 'recordMany'>;
  /** The administrator alert (activities/alerts.ts raiseAlert): stored once per key. */
  raiseAlert: HoldAlert;
  /** Starts a subscription's drain; one already running is left to it. */
  startDrain: (subscriptionId: string) => Promise<void>;
  /** SUBSCRIPTION_HOLD_MAX. */
  holdMaxMs: number;
  now?: () => Date;
  logger: Logger;
  /** Where each subscription's expiry goes on at the next pass (kept by startHoldSweep; absent: each pass from the oldest). */
  expiryCursors?: Map<string, HeldCursor>;
}

/** The alert the sweep and the drain raise when held deliveries fail (activities/alerts.ts raiseAlert). */
export type HoldAlert = (input: { kind: 'delivery_failed'; subscriptionId: string; eventId?: string; key: string; message: string }) => Promise<unknown>;

/** What one pass did. */
export interface HoldSweepPass {
  /** Active subscriptions still holding whose drain was started (or found running). */
  drains: number;
  /** Held deliveries failed as `hold_expired`. */
  expired: number;
  /** Held deliveries of disabled or deleted subscriptions, cancelled. */
  dropped: number;
  /** Subscriptions whose step failed; retried next pass. */
  failed: number;
}

/** Held deliveries one pass reads per subscription at most (pages of EXPIRE_PAGE): the next pass goes on from there. */
const EXPIRE_PAGES_PER_PASS = 5;
const EXPIRE_PAGE = 200;

/** The alert key of a pause's expiry: one alert for every delivery it held, however many passes fail them. */
export function holdExpiredKey(pausedAt: Date): string {
  return `hold-expired@${pausedAt.getTime()}`;
}

/**
 * One pass over the subscriptions that hold deliveries (nothing to read when none do): an active
 * one (resumed, its drain's start lost to a crash or an outage, or a delivery held as it resumed)
 * gets its drain started; a disabled or deleted one's are cancelled; a paused one past
 * SUBSCRIPTION_HOLD_MAX (from its `paused_at`, the oldest it holds) has those held longer than
 * that failed as `hold_expired` (logged as a failed attempt each, one alert for the pause); its
 * pause cancels from then on (src/subscriptions/hold.ts). A draining one's are the drain's. One
 * whose settle a crash interrupted is settled (or repaired) first, whatever branch follows. It
 * reads the markers, not the records: a paused one within the limit costs its subscription read.
 */
export async function sweepHoldsOnce(deps: HoldSweepDeps): Promise<HoldSweepPass> {
  const pass: HoldSweepPass = { drains: 0, expired: 0, dropped: 0, failed: 0 };
  const now = deps.now?.() ?? new Date();
  for (const { subscriptionId: id, settling } of await deps.held.holding()) {
    try {
      // A settle a crash interrupted first: finished, or what is held rebuilt (slots, marker) so every branch below reads it all.
      if (settling && (await deps.held.settle(id))) continue;
      const sub = await deps.subscriptions.findForDelivery(id);
      if (!sub || sub.status === 'disabled') {
        pass.dropped += await deps.held.dropAll(id);
        await deps.held.settle(id);
      } else if (sub.status === 'active') {
        await deps.startDrain(id);
        pass.drains += 1;
      } else if (sub.paused_at === undefined || holdExpiredAt(sub, now.getTime() - EXPIRY_GRACE_MS, deps.holdMaxMs)) {
        pass.expired += await expire(deps, sub, now);
      }
    } catch (err) {
      pass.failed += 1;
      deps.logger.warn({ err, subscriptionId: id }, 'hold sweep step failed; retrying next pass');
    }
  }
  return pass;
}

/**
 * Fails what a paused subscription holds past the limit (all it holds when it has no `paused_at`),
 * at most EXPIRE_PAGES_PER_PASS pages a pass from where the last pass stopped, each logged before
 * it is released so a crash between loses none; a record the drain claimed first is the drain's.
 * The subscription is read again before each page: once resumed, what is left is the drain's.
 */
async function expire(deps: HoldSweepDeps, sub: SubscriptionDoc, now: Date): Promise<number> {
  const since = sub.paused_at;
  const due = (d: HeldDoc) => since === undefined || heldPastLimit(d.held_at, now.getTime(), deps.holdMaxMs, EXPIRY_GRACE_MS);
  let failed = 0;
  let alerted = false;
  let after = deps.expiryCursors?.get(sub._id);
  for (let pages = 0; pages < EXPIRE_PAGES_PER_PASS; pages++) {
    const current = await deps.subscriptions.findForDelivery(sub._id);
    if (current?.status !== 'paused') return failed;
    const page = await deps.held.page(sub._id, EXPIRE_PAGE, after);
    const dueDocs = page.docs.filter(due);
    const mine = await deps.held.claim(dueDocs, 'expiry');
    const docs = dueDocs.filter((d) => mine.has(d._id));
    if (docs.length > 0) {
      if (!alerted && since) await alertHoldExpired({ ...deps, onError: (err) => deps.logger.warn({ err, subscriptionId: sub._id }, 'hold-expired alert not sent; it stays stored') }, sub._id, holdExpiredKey(since), `since ${since.toISOString()}`);
      alerted = true;
      await deps.attempts.recordMany(docs.map((d) => expiredAttempt(d, sub.url, now)));
      await deps.held.release(docs.map((d) => d._id));
      failed += docs.length;
    }
    if (!page.next) {
      // The end: the next pass starts from the oldest again, and nothing held ends the hold.
      deps.expiryCursors?.delete(sub._id);
      await deps.held.settle(sub._id, { repair: false });
      return failed;
    }
    after = page.next;
    deps.expiryCursors?.set(sub._id, after);
  }
  return failed;
}

/** The alert of held deliveries that expire, once per `key` however many passes fail them; stored before it is POSTed. */
export async function alertHoldExpired(deps: Pick<HoldSweepDeps, 'raiseAlert' | 'holdMaxMs'> & { onError: (err: unknown) => void }, subscriptionId: string, key: string, when: string): Promise<void> {
  const limitH = Math.round((deps.holdMaxMs / 3_600_000) * 10) / 10;
  await deps.raiseAlert({
    kind: 'delivery_failed',
    subscriptionId,
    key,
    message: `deliveries held by ${subscriptionId} (${when}) failed: held longer than the hold limit (SUBSCRIPTION_HOLD_MAX, ${limitH} h)`,
  }).catch(deps.onError);
}

/** The failed attempt a held delivery's expiry logs: in the series that held it, as the attempt that was due. */
export function expiredAttempt(d: HeldDoc, url: string, now: Date): AttemptDoc {
  const series = seriesId(d.origin, d.subscription_id);
  return {
    _id: attemptId(series, d.attempt),
    event_id: d.event_id,
    subscription_id: d.subscription_id,
    series,
    attempt: d.attempt,
    started_at: now,
    duration_ms: 0,
    outcome: 'hold_expired',
    error: `not sent: held since ${d.held_at.toISOString()} while the subscription was paused, longer than the hold limit`,
    url,
    state: 'failed',
  };
}

/** Runs the sweep every `intervalMs` beside the relay. */
export function startHoldSweep(deps: HoldSweepDeps, intervalMs: number): Repeating {
  const expiryCursors = new Map<string, HeldCursor>();
  return repeatEvery(intervalMs, async () => {
    try {
      const r = await sweepHoldsOnce({ expiryCursors, ...deps });
      if (r.expired || r.dropped) deps.logger.info(r, 'hold sweep ended held deliveries');
    } catch (err) {
      deps.logger.warn({ err }, 'hold sweep pass failed; retrying next interval');
    }
  });
}
