/** How owners' writes are held back (see {@link OwnerAdmission}). */
export interface AdmissionOptions {
  /** Event workflows per second one held-back owner starts, in this process; 0: nobody is held back. */
  ratePerSecond: number;
  /** Writes held in this process, all owners together; past it, a write starts at once (as with no admission). */
  maxHeld?: number;
  /** Whether an owner other than `owner` started a workflow on the default lane lately (OwnerLanes.othersActive). */
  contended: (owner: string) => boolean;
  /** Told when a held write's starts failed: its dispatch note stays, for the relay. */
  onError?: (err: unknown, owner: string) => void;
  /** Milliseconds now (tests inject one). */
  now?: () => number;
}

/** Added to a held write's expected wait for its note's due time: the relay leaves it alone until then. */
export const HELD_NOTE_SLACK_MS = 10_000;

/** The expected wait is doubled for the note: a process late on its turns still starts what it holds before the relay does. */
const HELD_NOTE_FACTOR = 2;

const DEFAULT_MAX_HELD = 10_000;

/** Starts of one owner in flight at once: turns are kept even while Temporal answers slowly. */
const MAX_IN_FLIGHT_PER_OWNER = 8;

interface Held {
  /** Workflows the write starts: its share of the rate. */
  weight: number;
  start: () => Promise<void>;
}

interface OwnerQueue {
  items: Held[];
  /** Workflows held, summed. */
  weight: number;
  /** Starts taken from the queue and not yet ended. */
  inFlight: number;
  /** When the owner's next write may start (ms): its last one's start plus that one's share of the rate. */
  nextAt: number;
  timer?: NodeJS.Timeout | undefined;
}

/**
 * Keeps a flooding owner's event workflows out of Temporal while other owners are sending: a
 * write of an owner above its fair rate (on the bulk lane) waits here, in order, and its
 * workflows start at `ratePerSecond` per owner, so the flood never fills the server's history
 * shard and task queues that other owners' first attempts go through. Work-conserving: an owner
 * alone is not held, and one whose neighbours stopped drains what it holds at once. Nothing is
 * lost on a crash: a held write's dispatch note stays until its workflows started, due (see
 * {@link dueTime}) after its expected turn, and the relay starts what a stopped process held
 * once that time has passed.
 */
export class OwnerAdmission {
  private readonly queues = new Map<string, OwnerQueue>();
  private readonly now: () => number;
  private heldCount = 0;
  private stopped = false;

  constructor(private readonly opts: AdmissionOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Whether `owner`'s next write waits: writes of it are held already (order is kept), or it is on the bulk lane while others send. */
  holds(owner: string, onBulkLane: boolean): boolean {
    if (this.opts.ratePerSecond <= 0 || this.stopped) return false;
    if ((this.queues.get(owner)?.items.length ?? 0) > 0) return true;
    return onBulkLane && this.opts.contended(owner);
  }

  /**
   * When the relay may take the dispatch note of a write `owner` announces now, if this process
   * is likely to hold it: twice its expected wait behind what the owner has held, plus
   * {@link HELD_NOTE_SLACK_MS}; undefined when nothing of the owner waits (the relay's usual grace).
   */
  dueTime(owner: string | undefined): Date | undefined {
    const queue = owner === undefined ? undefined : this.queues.get(owner);
    if (!queue || this.opts.ratePerSecond <= 0) return undefined;
    const now = this.now();
    const waitMs = Math.max(0, queue.nextAt - now) + (queue.weight / this.opts.ratePerSecond) * 1000;
    return waitMs > 0 ? new Date(now + HELD_NOTE_FACTOR * waitMs + HELD_NOTE_SLACK_MS) : undefined;
  }

  /** Holds a write of `weight` workflows; false when the process holds its maximum (then start it at once). */
  hold(owner: string, weight: number, start: () => Promise<void>): boolean {
    if (this.heldCount >= (this.opts.maxHeld ?? DEFAULT_MAX_HELD)) return false;
    const queue = this.queues.get(owner) ?? { items: [], weight: 0, inFlight: 0, nextAt: 0 };
    queue.items.push({ weight, start });
    queue.weight += weight;
    this.heldCount++;
    this.queues.set(owner, queue);
    // Otherwise the timer of the owner's next turn is set already.
    if (!queue.timer) this.schedule(owner, queue);
    return true;
  }

  /** Writes held now, across owners. */
  held(): number {
    return this.heldCount;
  }

  /** Stops starting held writes (a stopping process); returns how many it leaves to the relay through their notes. */
  stop(): number {
    this.stopped = true;
    for (const q of this.queues.values()) clearTimeout(q.timer);
    return this.heldCount;
  }

  /** Sets the timer of the owner's next turn: now when no other owner sends, else at its paced time. */
  private schedule(owner: string, queue: OwnerQueue): void {
    if (this.stopped) return;
    const delayMs = this.opts.contended(owner) ? Math.max(0, queue.nextAt - this.now()) : 0;
    queue.timer = setTimeout(() => {
      queue.timer = undefined;
      this.next(owner, queue);
    }, delayMs);
    queue.timer.unref();
  }

  /**
   * Starts the owner's oldest held write without waiting for it to end (at most
   * MAX_IN_FLIGHT_PER_OWNER at once), then sets the next turn. The owner's turn is kept until
   * it comes even with nothing held, so writes one at a time are paced too.
   */
  private next(owner: string, queue: OwnerQueue): void {
    if (this.stopped) return;
    const item = queue.items[0];
    if (!item) {
      if (queue.inFlight === 0) this.queues.delete(owner);
      return;
    }
    // Full: the start that ends first sets the turn again.
    if (queue.inFlight >= MAX_IN_FLIGHT_PER_OWNER) return;
    queue.items.shift();
    queue.weight -= item.weight;
    this.heldCount--;
    queue.inFlight++;
    queue.nextAt = this.now() + (item.weight / this.opts.ratePerSecond) * 1000;
    void item
      .start()
      .catch((err: unknown) => this.opts.onError?.(err, owner))
      .finally(() => {
        queue.inFlight--;
        if (!queue.timer) this.schedule(owner, queue);
      });
    this.schedule(owner, queue);
  }
}
