import { LRUCache } from 'lru-cache';
import { RecentOwners } from '../lib/recent-owners';

/** Where an event workflow starts: the default task queue, or its `-bulk` twin for owners above their fair rate. */
export type Lane = 'default' | 'bulk';

/** The task queue of `lane`: `taskQueue` itself, or `<taskQueue>-bulk`. */
export function laneTaskQueue(taskQueue: string, lane: Lane = 'default'): string {
  return lane === 'bulk' ? `${taskQueue}-bulk` : taskQueue;
}

/** Every task queue a delivery worker polls, one Worker (with slots of its own) each. */
export function laneTaskQueues(taskQueue: string): string[] {
  return [laneTaskQueue(taskQueue, 'default'), laneTaskQueue(taskQueue, 'bulk')];
}

export interface OwnerLaneOptions {
  /** Event workflows per second an owner may start on the default lane, sustained; 0: every event on the default lane. */
  ratePerSecond: number;
  /** How many at once beyond that rate (the bucket's size). */
  burst: number;
  /** Milliseconds now (tests inject one). */
  now?: () => number;
  /** Owners remembered; a forgotten one starts again with a full bucket (default 10,000). */
  maxOwners?: number;
}

interface Bucket {
  tokens: number;
  at: number;
  bulk: boolean;
}

/**
 * How much faster an owner's bucket refills while it is on the bulk lane: an owner that ran dry
 * in a clump but sends at its rate refills (and returns) within burst / (rate × 0.5) seconds,
 * while a flood above 1.5× its rate stays on the bulk lane.
 */
export const BULK_EXIT_REFILL = 1.5;

/**
 * Chooses each event's lane with a token bucket per owner, in this process: an event takes a
 * token and starts on the default lane; an owner whose bucket ran dry goes to the bulk lane, and
 * stays there (its events still spending what refills, at {@link BULK_EXIT_REFILL}× its rate)
 * until its bucket is full again, so a flood moves whole and a steady sender over its rate never
 * creeps back into the default lane, yet an owner at its rate never stays on the bulk lane.
 */
export class OwnerLanes {
  private readonly buckets: LRUCache<string, Bucket>;
  private readonly now: () => number;
  /** Owners of the latest default-lane starts: who else is sending. */
  private readonly recent = new RecentOwners();

  constructor(private readonly opts: OwnerLaneOptions) {
    this.now = opts.now ?? Date.now;
    this.buckets = new LRUCache({ max: opts.maxOwners ?? 10_000 });
  }

  /** The lane of `owner`'s next event workflow (counted as started); an event of no owner shares the key ''. */
  laneOf(owner: string | undefined): Lane {
    if (this.opts.ratePerSecond <= 0) return 'default';
    const key = owner ?? '';
    const now = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.opts.burst, at: now, bulk: false };
    const refill = this.opts.ratePerSecond * (b.bulk ? BULK_EXIT_REFILL : 1);
    b.tokens = Math.min(this.opts.burst, b.tokens + ((now - b.at) / 1000) * refill);
    b.at = now;
    if (b.bulk && b.tokens >= this.opts.burst) b.bulk = false;
    const hasToken = b.tokens >= 1;
    if (hasToken) b.tokens -= 1;
    if (!hasToken) b.bulk = true;
    this.buckets.set(key, b);
    if (!b.bulk) this.noteDefault(key, now);
    return b.bulk ? 'bulk' : 'default';
  }

  /** Whether an owner other than `owner` started a workflow on the default lane within the last `windowMs`. */
  othersActive(owner: string | undefined, windowMs: number): boolean {
    return this.recent.othersSeen(owner ?? '', this.now(), windowMs);
  }

  private noteDefault(owner: string, at: number): void {
    this.recent.note(owner, at);
  }
}
