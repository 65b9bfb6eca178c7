import { type Collection, type Db, MongoServerError } from 'mongodb';
import type { StorageDeclarations } from '../db/query-shapes';

/** Where the per-owner alert slots are kept, shared by every worker. */
export const ALERT_SLOT_COLLECTION = 'alert_slots';

/** The window the per-owner bound counts in: clock hours, aligned to the epoch on every worker. */
export const ALERT_WINDOW_MS = 3_600_000;

/** How many earlier windows a window's first POST looks back over for alerts not sent. */
export const SUPPRESSED_LOOKBACK_WINDOWS = 24;

/** Most inserts one `take` tries before giving up (the activity is then retried). */
const MAX_ROUNDS = 32;

/** Highest slot index probed: far beyond any hour's alerts for one owner. */
const MAX_INDEX = 2 ** 30;

/** One alert's slot: owner, window and index, in its `_id`. */
interface SlotDoc {
  _id: string;
  alert_id: string;
}

/** What one alert got: its place in the owner's window, and what the POST must tell. */
export interface AlertSlot {
  /** Clock hour (epoch hours) the slot belongs to. */
  window: number;
  /** Its place among the owner's alerts this window; below the limit, the alert is POSTed. */
  index: number;
  /** Whether this alert is POSTed (its index is below the limit). */
  send: boolean;
  /** On the last POSTed slot of the window: the owner's further alerts this window are stored only. */
  limitReached: boolean;
  /** On a window's first slot: the owner's alerts not POSTed since its previous POSTed alert. */
  suppressed: number;
}

export const alertBudgetStorage: StorageDeclarations = {
  indexes: [],
  queryShapes: [
    { collection: ALERT_SLOT_COLLECTION, method: 'AlertBudget.take', equality: ['_id'], index: '_id_' },
    { collection: ALERT_SLOT_COLLECTION, method: 'AlertBudget.taken', equality: ['_id'], index: '_id_' },
    { collection: ALERT_SLOT_COLLECTION, method: 'AlertBudget.forget', equality: ['_id'], index: '_id_' },
  ],
};

/** The bucket of an alert's owner; alerts of deleted subscriptions share one. */
export function ownerBucket(ownerId: string | undefined): string {
  return ownerId === undefined ? 'none' : `o=${ownerId}`;
}

const slotId = (bucket: string, window: number, index: number) => `${bucket}:${window}:${index}`;

/**
 * At most `limit` administrator POSTs per owner per clock hour, held across every worker: each
 * alert inserts the first free slot document (`<owner>:<hour>:<i>`) of its owner's hour, and
 * only the insert that creates a slot takes it (a unique `_id` is the one atomic conditional
 * write on FerretDB v1). Slots below `limit` are POSTed; the rest are counted by their slots
 * alone. Since every slot is taken only once all below it are, the taken ones are a prefix, so
 * how many an hour took is found by exact `_id` probes (galloping, then bisection). A window's
 * first slot reports the alerts not POSTed in the owner's earlier windows, back to the one
 * whose first POST already reported, and deletes the owner's slots older than the lookback.
 */
export class AlertBudget {
  readonly #slots: Collection<SlotDoc>;
  /** Per owner bucket, the first slot index this worker has not seen taken in the current window. */
  readonly #next = new Map<string, { window: number; index: number }>();

  constructor(
    db: Db,
    private readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {
    this.#slots = db.collection<SlotDoc>(ALERT_SLOT_COLLECTION);
  }

  /** Takes the next slot of `bucket`'s current window for alert `alertId`. */
  async take(bucket: string, alertId: string): Promise<AlertSlot> {
    const window = Math.floor(this.now() / ALERT_WINDOW_MS);
    const hint = this.#next.get(bucket);
    let index = hint?.window === window ? hint.index : 0;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      index = await this.#firstFree(bucket, window, index);
      try {
        await this.#slots.insertOne({ _id: slotId(bucket, window, index), alert_id: alertId });
      } catch (err) {
        if (!(err instanceof MongoServerError && err.code === 11000)) throw err;
        index++;
        continue;
      }
      this.#next.set(bucket, { window, index: index + 1 });
      // Hints of windows already over are not worth keeping.
      for (const [b, h] of this.#next) if (h.window < window) this.#next.delete(b);
      const suppressed = index === 0 ? await this.#suppressedBefore(bucket, window) : 0;
      return { window, index, send: index < this.limit, limitReached: index === this.limit - 1, suppressed };
    }
    throw new Error(`no alert slot for ${bucket} after ${MAX_ROUNDS} tries`);
  }

  /** How many slots `bucket` took in `window` (the taken ones are a prefix). */
  taken(bucket: string, window: number): Promise<number> {
    return this.#firstFree(bucket, window, 0);
  }

  /** The first index at or above `from` whose slot is not taken: gallops up, then bisects. */
  async #firstFree(bucket: string, window: number, from: number): Promise<number> {
    const has = async (i: number) => (await this.#slots.findOne({ _id: slotId(bucket, window, i) }, { projection: { _id: 1 } })) !== null;
    if (!(await has(from))) return from;
    let low = from; // taken
    let step = 1;
    let high = from + step;
    while (high < MAX_INDEX && (await has(high))) {
      low = high;
      step *= 2;
      high = from + step;
    }
    // low is taken, high is free: the first free lies in (low, high].
    while (high - low > 1) {
      const mid = low + Math.floor((high - low) / 2);
      if (await has(mid)) low = mid;
      else high = mid;
    }
    return high;
  }

  /** Alerts not POSTed in earlier windows, back to the first window with a POST (which reported those before it). */
  async #suppressedBefore(bucket: string, window: number): Promise<number> {
    let suppressed = 0;
    for (let w = window - 1; w >= window - SUPPRESSED_LOOKBACK_WINDOWS; w--) {
      const taken = await this.taken(bucket, w);
      suppressed += Math.max(0, taken - this.limit);
      if (taken > 0) break;
    }
    // Old slots are no longer read: deleted in the background, a failure only leaves them for the owner's next hour.
    void this.#forget(bucket, window - SUPPRESSED_LOOKBACK_WINDOWS - 1).catch(() => undefined);
    return suppressed;
  }

  /** Deletes `bucket`'s slots of `window`, by exact `_id`, 500 at a time. */
  async #forget(bucket: string, window: number): Promise<void> {
    const taken = await this.taken(bucket, window);
    for (let start = 0; start < taken; start += 500) {
      const ids = Array.from({ length: Math.min(500, taken - start) }, (_, i) => slotId(bucket, window, start + i));
      await this.#slots.deleteMany({ _id: { $in: ids } });
    }
  }
}
