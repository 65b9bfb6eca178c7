import { type Collection, type Db, MongoServerError } from 'mongodb';
import type { StorageDeclarations } from '../db/query-shapes';

/** Where the slots of every subscription's `rate_limit` are kept, shared by every worker. */
export const DELIVERY_RATE_COLLECTION = 'delivery_rate_slots';

/** Fewest and most deliveries per second a subscription may ask for. */
export const MIN_RATE_LIMIT = 1;
export const MAX_RATE_LIMIT = 100;

/** How long a taken slot is kept before its worker deletes it: far beyond any clock skew between workers. */
export const SLOT_KEEP_MS = 10_000;

/** One delivery's slot: subscription, second (epoch s) and index below the limit, in its `_id`. */
interface SlotDoc {
  _id: string;
}

/**
 * What asking for a slot found: one taken (the POST may go now), or none left this second and
 * how long until the second this worker expects one for it (its queue of refusals, spread over
 * the following seconds at the limit's pace).
 */
export type SlotAnswer = { taken: true } | { taken: false; waitMs: number };

export const deliveryRateStorage: StorageDeclarations = {
  indexes: [],
  queryShapes: [
    { collection: DELIVERY_RATE_COLLECTION, method: 'DeliveryRate.take', equality: ['_id'], index: '_id_' },
    { collection: DELIVERY_RATE_COLLECTION, method: 'DeliveryRate.sweep', equality: ['_id'], index: '_id_' },
    { collection: DELIVERY_RATE_COLLECTION, method: 'DeliveryRate.sweepPast (read)', equality: [], index: '_id_' },
    { collection: DELIVERY_RATE_COLLECTION, method: 'DeliveryRate.sweepPast (delete)', equality: ['_id'], index: '_id_' },
  ],
};

const slotId = (subscriptionId: string, second: number, index: number) => `${subscriptionId}:${second}:${index}`;

/**
 * At most `limit` deliveries per second to one subscription, held across every worker: each
 * delivery inserts one of the second's `limit` slot documents (`<subscription>:<second>:<i>`),
 * and only the insert that creates a slot takes it. A unique `_id` is the one write FerretDB v1
 * makes atomic (its `$inc` and conditional updates are read-then-write, so concurrent workers
 * would both win), and an exact `_id` is the one filter it serves from an index. Seconds are
 * aligned to the epoch on every worker's clock.
 *
 * Each worker remembers, per subscription, the next slot index worth trying this second, so
 * once a second is full it asks the database nothing more until the next one; and it deletes
 * the slots it took `SLOT_KEEP_MS` later; what a crashed worker left, `sweepPast` deletes at
 * the next worker start.
 */
export class DeliveryRate {
  readonly #slots: Collection<SlotDoc>;
  readonly #next = new Map<string, { second: number; index: number; denied: number }>();
  readonly #lanes = new Map<string, Promise<unknown>>();
  readonly #taken: Array<{ id: string; at: number }> = [];

  constructor(
    db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.#slots = db.collection<SlotDoc>(DELIVERY_RATE_COLLECTION);
  }

  /**
   * Takes a slot of the current second for one delivery to `subscriptionId`, or tells how long
   * until the next second. One request per subscription at a time in this worker, so its own
   * deliveries do not race each other for one slot.
   */
  take(subscriptionId: string, limit: number): Promise<SlotAnswer> {
    const previous = this.#lanes.get(subscriptionId) ?? Promise.resolve();
    const run = previous.then(() => this.#take(subscriptionId, limit));
    const lane = run.catch(() => undefined);
    this.#lanes.set(subscriptionId, lane);
    void lane.then(() => {
      if (this.#lanes.get(subscriptionId) === lane) this.#lanes.delete(subscriptionId);
    });
    return run;
  }

  async #take(subscriptionId: string, limit: number): Promise<SlotAnswer> {
    const second = Math.floor(this.now() / 1000);
    const hint = this.#next.get(subscriptionId);
    const current = hint?.second === second ? hint : undefined;
    let index = current?.index ?? 0;
    while (index < limit) {
      const id = slotId(subscriptionId, second, index);
      index++;
      try {
        await this.#slots.insertOne({ _id: id });
        this.#next.set(subscriptionId, { second, index, denied: current?.denied ?? 0 });
        this.#taken.push({ id, at: this.now() });
        this.#sweep();
        // A slot of a second already over is not used: the POST starts in the second that counts it.
        if (Math.floor(this.now() / 1000) !== second) return { taken: false, waitMs: 0 };
        return { taken: true };
      } catch (err) {
        if (!(err instanceof MongoServerError && err.code === 11000)) throw err;
      }
    }
    // The k-th refused this second is sent to the second it would get a slot in, were the others ahead of it served first.
    const denied = (current?.denied ?? 0) + 1;
    this.#next.set(subscriptionId, { second, index, denied });
    return { taken: false, waitMs: Math.max(1, (second + 1 + Math.floor((denied - 1) / limit)) * 1000 - this.now()) };
  }

  /**
   * Deletes every slot of a second more than `olderThanMs` past, whoever took it: what crashed
   * workers left. Safe beside live workers, since only the current second's slots are ever read.
   * Reads the whole collection, which holds a few seconds of slots, deleting as it goes (500
   * at a time, so memory stays bounded); returns how many went.
   */
  async sweepPast(olderThanMs = 60_000): Promise<number> {
    const before = Math.floor((this.now() - olderThanMs) / 1000);
    let old: string[] = [];
    let deleted = 0;
    const flush = async () => {
      if (old.length) deleted += (await this.#slots.deleteMany({ _id: { $in: old } })).deletedCount;
      old = [];
    };
    for await (const { _id } of this.#slots.find({}, { projection: { _id: 1 } })) {
      if (Number(_id.split(':').at(-2)) < before) old.push(_id);
      if (old.length >= 500) await flush();
    }
    await flush();
    return deleted;
  }

  /** Deletes, by exact `_id`, the slots this worker took more than SLOT_KEEP_MS ago; in the background. */
  #sweep(): void {
    const cutoff = this.now() - SLOT_KEEP_MS;
    let n = 0;
    while (n < this.#taken.length && this.#taken[n]!.at < cutoff) n++;
    if (n === 0) return;
    const old = this.#taken.splice(0, n);
    // A failed delete leaves a document nothing reads; it is not worth holding a delivery for.
    void Promise.all(old.map((s) => this.#slots.deleteOne({ _id: s.id }))).catch(() => undefined);
    // Seconds already over need no hint any more.
    const second = Math.floor(this.now() / 1000);
    for (const [id, h] of this.#next) if (h.second < second) this.#next.delete(id);
  }
}
