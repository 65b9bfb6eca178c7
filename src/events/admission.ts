/** How an owner's writes are held back (see {@link OwnerAdmission}). */
export interface AdmissionOptions {
  /** Event workflows per second one held-back owner starts, in this process; 0: nobody is held back. */
  ratePerSecond: number;
  /** Writes held per owner; past it, a write starts at once (as with no admission). */
  maxQueuedPerOwner?: number;
  /** Whether an owner other than `owner` started a workflow on the default lane lately (OwnerLanes.othersActive). */
  contended: (owner: string) => boolean;
  /** Told when a held write's starts failed: its dispatch note stays, for the relay. */
  onError?: (err: unknown, owner: string) => void;
  /** Milliseconds now (tests inject one). */
  now?: () => number;
}

/** How long past a held write's expected start its dispatch note is dated: the relay leaves it alone until then. */
export const HELD_NOTE_SLACK_MS = 10_000;

const DEFAULT_MAX_QUEUED = 10_000;

interface Held {
  /** Workflows the write starts: its share of the rate. */
  weight: number;
  start: () => Promise<void>;
}

interface OwnerQueue {
  items: Held[];
  /** Workflows held, summed. */
  weight: number;
  running: boolean;
  /** When the owner's next write may start (ms): its last one's start plus that one's share of the rate. */
  nextAt: number;
  timer?: NodeJS.Timeout | undefined;
}

/**
 * Keeps a flooding owner's event workflows out of Temporal while other owners are sending: a
 * write of an owner above its fair rate (on the bulk lane) waits here, in order, and its
 * workflows start at `ratePerSecond` per owner, so the flood never fills the server's history
 * shard and task queues that other owners' first attempts go through. Work-conserving: an owner
 * alone starts as fast as it writes. Nothing is lost on a crash: a held write's dispatch note
 * stays (dated past its expected start, see {@link noteTime}), and the relay starts what a
 * stopped process held once that time has passed.
 */
export class OwnerAdmission {
  private readonly queues = new Map<string, OwnerQueue>();
  private readonly now: () => number;
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
   * The date for the dispatch note of a write `owner` announces at `at`: later by its expected
   * wait when writes of the owner are held, so the relay does not start it meanwhile.
   */
  noteTime(owner: string | undefined, at: Date): Date {
    const queue = owner === undefined ? undefined : this.queues.get(owner);
    if (!queue || this.opts.ratePerSecond <= 0) return at;
    const waitMs = Math.max(0, queue.nextAt - this.now()) + (queue.weight / this.opts.ratePerSecond) * 1000;
    return waitMs > 0 ? new Date(at.getTime() + waitMs + HELD_NOTE_SLACK_MS) : at;
  }

  /** Holds a write of `weight` workflows; false when the owner's queue is full (then start it at once). */
  hold(owner: string, weight: number, start: () => Promise<void>): boolean {
    const queue = this.queues.get(owner) ?? { items: [], weight: 0, running: false, nextAt: 0 };
    if (queue.items.length >= (this.opts.maxQueuedPerOwner ?? DEFAULT_MAX_QUEUED)) return false;
    queue.items.push({ weight, start });
    queue.weight += weight;
    this.queues.set(owner, queue);
    // Otherwise a start is running, or the timer of the owner's next turn is set already.
    if (!queue.running && !queue.timer) this.schedule(owner, queue, Math.max(0, queue.nextAt - this.now()));
    return true;
  }

  /** Writes held now, across owners. */
  held(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.items.length;
    return n;
  }

  /** Stops starting held writes (a stopping process); returns how many it leaves to the relay through their notes. */
  stop(): number {
    this.stopped = true;
    for (const q of this.queues.values()) clearTimeout(q.timer);
    return this.held();
  }

  private schedule(owner: string, queue: OwnerQueue, delayMs: number): void {
    queue.timer = setTimeout(() => {
      queue.timer = undefined;
      void this.next(owner, queue);
    }, delayMs);
  }

  /**
   * Starts the owner's oldest held write, then waits its share of the rate before the next; the
   * owner's turn is kept until then even with nothing held, so writes one at a time are paced too.
   */
  private async next(owner: string, queue: OwnerQueue): Promise<void> {
    const item = queue.items[0];
    if (this.stopped) return;
    if (!item) {
      this.queues.delete(owner);
      return;
    }
    queue.running = true;
    queue.nextAt = this.now() + (item.weight / this.opts.ratePerSecond) * 1000;
    try {
      await item.start();
    } catch (err) {
      this.opts.onError?.(err, owner);
    }
    queue.items.shift();
    queue.weight -= item.weight;
    queue.running = false;
    this.schedule(owner, queue, Math.max(0, queue.nextAt - this.now()));
  }
}
