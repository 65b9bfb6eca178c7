import type { HeldDeliveryRepository, HeldSummary } from './held';

/** Wakes the delivery of `workflowId` to `subscriptionId`: at epoch ms `at` (its drain slot), or now. */
export type WakeHeld = (workflowId: string, subscriptionId: string, at?: number) => Promise<void>;

/** What letting held deliveries go uses. */
export interface DrainDeps {
  held: HeldDeliveryRepository;
  wake: WakeHeld;
  /** Deliveries per second a subscription without `rate_limit` drains at (DELIVERY_DRAIN_RATE). */
  drainRate: number;
  now?: () => number;
}

/** Signals sent at once while draining: enough to wake thousands in seconds, few enough to leave Temporal room. */
const WAKE_CONCURRENCY = 16;

/** The first drain slot is this far out, so the signals of the first slots are all in before it. */
const DRAIN_LEAD_MS = 500;

/**
 * The gap between two drain slots at `rate` per second. A subscription's own `rate_limit` is
 * drained a tenth below it: a slot that ran late must not meet a full second, be put off at
 * random and overtake the next one.
 */
export function drainGapMs(rate: number, ownLimit: boolean): number {
  return Math.ceil((1000 / rate) * (ownLimit ? 1.1 : 1));
}

/** What a subscription holds, for its read. */
export function heldSummary(deps: Pick<DrainDeps, 'held'>, subscriptionId: string): Promise<HeldSummary | undefined> {
  return deps.held.summary(subscriptionId);
}

/**
 * Lets a subscription's held deliveries go after it left `paused`: resumed, each workflow is
 * given its slot in emission order at its `rate_limit` (or the drain rate); disabled or deleted,
 * each is woken now and cancels. A signal that fails (the workflow ended, Temporal away) leaves
 * that delivery to its next look at the subscription (within HOLD_RECHECK_MS). Returns how many were woken.
 */
export async function releaseHeld(deps: DrainDeps, sub: { _id: string; rate_limit?: number }, to: 'active' | 'gone'): Promise<number> {
  const now = deps.now?.() ?? Date.now();
  const gap = drainGapMs(sub.rate_limit ?? deps.drainRate, sub.rate_limit !== undefined);
  let index = 0;
  let woken = 0;
  const running = new Set<Promise<void>>();
  for await (const h of deps.held.inEmissionOrder(sub._id)) {
    const at = to === 'active' ? now + DRAIN_LEAD_MS + gap * index : undefined;
    index++;
    const p = deps
      .wake(h.workflow_id, sub._id, at)
      .then(() => void woken++)
      .catch(() => undefined)
      .finally(() => running.delete(p));
    running.add(p);
    if (running.size >= WAKE_CONCURRENCY) await Promise.race(running);
  }
  await Promise.all(running);
  return woken;
}
