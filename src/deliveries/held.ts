import { type Collection, type Db, MongoServerError } from 'mongodb';
import type { IndexSpec, QueryShape } from '../db/query-shapes';

/** Where the deliveries held by paused subscriptions are marked. */
export const HELD_COLLECTION = 'held_deliveries';

/** One delivery a paused subscription holds: which workflow waits with it, so resuming can wake it. */
export interface HeldDoc {
  /** `<workflow id>#<subscription id>`: one per workflow and subscription, so a marker is written once however often its round repeats. */
  _id: string;
  subscription_id: string;
  /** The workflow that holds it (an event's, or a part's of a large fan-out): signalled on resume. */
  workflow_id: string;
  event_id: string;
  /** The event's emission time: the drain's order. */
  emitted_at: Date;
  /** When it was first held. */
  held_at: Date;
}

/** What a paused subscription holds: how many deliveries, and since when the oldest was held. */
export interface HeldSummary {
  count: number;
  since: Date;
}

/** The held-delivery markers: written by the attempt activity, read by resume (to wake them in order) and by a subscription's read. */
export class HeldDeliveryRepository {
  static readonly indexes: readonly IndexSpec[] = [
    { collection: HELD_COLLECTION, name: 'subscription_emitted', key: { subscription_id: 1, emitted_at: 1, _id: 1 } },
    { collection: HELD_COLLECTION, name: 'subscription_held_at', key: { subscription_id: 1, held_at: 1 } },
  ];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: HELD_COLLECTION, method: 'HeldDeliveryRepository.hold', equality: ['_id'], index: '_id_' },
    { collection: HELD_COLLECTION, method: 'HeldDeliveryRepository.release', equality: ['_id'], index: '_id_' },
    { collection: HELD_COLLECTION, method: 'HeldDeliveryRepository.inEmissionOrder', equality: ['subscription_id'], sort: { emitted_at: 1, _id: 1 }, index: 'subscription_emitted' },
    { collection: HELD_COLLECTION, method: 'HeldDeliveryRepository.summary (count)', equality: ['subscription_id'], index: 'subscription_emitted' },
    { collection: HELD_COLLECTION, method: 'HeldDeliveryRepository.summary (oldest)', equality: ['subscription_id'], sort: { held_at: 1 }, index: 'subscription_held_at' },
  ];

  readonly #collection: Collection<HeldDoc>;

  constructor(db: Db) {
    this.#collection = db.collection<HeldDoc>(HELD_COLLECTION);
  }

  /** The marker's id for `workflowId`'s delivery to `subscriptionId`. */
  static id(workflowId: string, subscriptionId: string): string {
    return `${workflowId}#${subscriptionId}`;
  }

  /** Marks a delivery held; one marked already keeps its first `held_at`. */
  async hold(doc: HeldDoc): Promise<void> {
    try {
      // An insert, not an upsert: a unique `_id` is the one write FerretDB v1 makes atomic.
      await this.#collection.insertOne(doc);
    } catch (err) {
      if (!(err instanceof MongoServerError && err.code === 11000)) throw err;
    }
  }

  /** The delivery is held no longer (attempted, cancelled or failed at the hold limit). */
  async release(workflowId: string, subscriptionId: string): Promise<void> {
    await this.#collection.deleteOne({ _id: HeldDeliveryRepository.id(workflowId, subscriptionId) });
  }

  /** The subscription's held deliveries, oldest event first. */
  inEmissionOrder(subscriptionId: string): AsyncIterable<Pick<HeldDoc, '_id' | 'workflow_id' | 'emitted_at'>> {
    return this.#collection.find({ subscription_id: subscriptionId }, { projection: { workflow_id: 1, emitted_at: 1 } }).sort({ emitted_at: 1, _id: 1 });
  }

  /** How many deliveries the subscription holds and since when; undefined when none. */
  async summary(subscriptionId: string): Promise<HeldSummary | undefined> {
    const [count, oldest] = await Promise.all([
      this.#collection.countDocuments({ subscription_id: subscriptionId }),
      this.#collection.find({ subscription_id: subscriptionId }, { projection: { held_at: 1 } }).sort({ held_at: 1 }).limit(1).next(),
    ]);
    return count > 0 && oldest ? { count, since: oldest.held_at } : undefined;
  }
}
