import { type Repeating, repeatEvery } from '../lib/repeat';
import type { Logger } from '../logger';
import { holdExpiredAt } from '../subscriptions/hold';
import type { SubscriptionDoc, SubscriptionRepository } from '../subscriptions/repository';
import { seriesId } from '../../workflows/ids';
import { type AttemptDoc, type AttemptRepository, attemptId } from './attempts';
import type { HeldDeliveryRepository, HeldDoc } from './held';

/** What the sweep reads and writes. */
export interface HoldSweepDeps {
  held: Pick<HeldDeliveryRepository, 'holding' | 'page' | 'release' | 'dropAll' | 'settle' | 'count'>;
  subscriptions: Pick<SubscriptionRepository, 'findForDelivery' | 'endHold'>;
  attempts: Pick<AttemptRepository, 'recordMany'>;
  /** The administrator alert (activities/alerts.ts raiseAlert): stored once per key. */
  raiseAlert: (input: { kind: 'delivery_failed'; subscriptionId: string; eventId?: string; key: string; message: string }) => Promise<unknown>;
  /** Starts a subscription's drain; one already running is left to it. */
  startDrain: (subscriptionId: string) => Promise<void>;
  /** SUBSCRIPTION_HOLD_MAX. */
  holdMaxMs: number;
  now?: () => Date;
  logger: Logger;
}

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

/** Held deliveries one pass fails per subscription at most: the rest go on the next pass. */
const EXPIRE_PER_PASS = 1000;
const EXPIRE_PAGE = 200;

/** The alert key of a pause's expiry: one alert for every delivery it held, however many passes fail them. */
export function holdExpiredKey(pausedAt: Date): string {
  return `hold-expired@${pausedAt.getTime()}`;
}

/**
 * One pass over the subscriptions that hold deliveries (nothing to read when none do): an active
 * one (resumed, its drain's start lost to a crash or an outage, or a delivery held as it resumed)
 * gets its drain started; a disabled or deleted one's are cancelled; a paused one past
 * SUBSCRIPTION_HOLD_MAX has them failed as `hold_expired` (logged as a failed attempt each, one
 * alert for all), and its pause then cancels like one made before holds (its `paused_at` goes).
 */
export async function sweepHoldsOnce(deps: HoldSweepDeps): Promise<HoldSweepPass> {
  const pass: HoldSweepPass = { drains: 0, expired: 0, dropped: 0, failed: 0 };
  const now = deps.now?.() ?? new Date();
  for (const id of await deps.held.holding()) {
    try {
      const sub = await deps.subscriptions.findForDelivery(id);
      if (!sub || sub.status === 'disabled') {
        pass.dropped += await deps.held.dropAll(id);
        await deps.held.settle(id);
      } else if (sub.status === 'active') {
        await deps.startDrain(id);
        pass.drains += 1;
      } else if (sub.paused_at === undefined || holdExpiredAt(sub, now.getTime(), deps.holdMaxMs)) {
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
 * Fails what a paused subscription holds past the limit, a page at a time (each logged before it
 * is released, so a crash between loses none); the alert first, once for the pause; the pause's
 * `paused_at` last, once nothing is left. A pause without one (it ended already) alerts no more.
 */
async function expire(deps: HoldSweepDeps, sub: SubscriptionDoc, now: Date): Promise<number> {
  const since = sub.paused_at;
  if (since) {
    const count = await deps.held.count(sub._id);
    const limitH = Math.round((deps.holdMaxMs / 3_600_000) * 10) / 10;
    // Stored before it is POSTed: a POST that fails (retried by the next pass) must not hold up the expiry.
    await deps.raiseAlert({
      kind: 'delivery_failed',
      subscriptionId: sub._id,
      key: holdExpiredKey(since),
      message: `${count} deliveries held by ${sub._id}, paused since ${since.toISOString()}, failed: held longer than the hold limit (SUBSCRIPTION_HOLD_MAX, ${limitH} h); events from now on are not delivered until it is resumed`,
    }).catch((err: unknown) => deps.logger.warn({ err, subscriptionId: sub._id }, 'hold-expired alert not sent; it stays stored'));
  }
  let failed = 0;
  while (failed < EXPIRE_PER_PASS) {
    const { docs } = await deps.held.page(sub._id, EXPIRE_PAGE);
    if (docs.length === 0) break;
    await deps.attempts.recordMany(docs.map((d) => expiredAttempt(d, sub, since, now)));
    await deps.held.release(docs.map((d) => d._id));
    failed += docs.length;
  }
  if (failed < EXPIRE_PER_PASS && (await deps.held.settle(sub._id)) && since) await deps.subscriptions.endHold(sub._id, since);
  return failed;
}

/** The failed attempt a held delivery's expiry logs: in the series that held it, as the attempt that was due. */
function expiredAttempt(d: HeldDoc, sub: SubscriptionDoc, since: Date | undefined, now: Date): AttemptDoc {
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
    error: `not sent: held since ${d.held_at.toISOString()} while the subscription was paused${since ? ` (since ${since.toISOString()})` : ''}, longer than the hold limit`,
    url: sub.url,
    state: 'failed',
  };
}

/** Runs the sweep every `intervalMs` beside the relay. */
export function startHoldSweep(deps: HoldSweepDeps, intervalMs: number): Repeating {
  return repeatEvery(intervalMs, async () => {
    try {
      const r = await sweepHoldsOnce(deps);
      if (r.expired || r.dropped) deps.logger.info(r, 'hold sweep ended held deliveries');
    } catch (err) {
      deps.logger.warn({ err }, 'hold sweep pass failed; retrying next interval');
    }
  });
}
