import type { Collection, Db } from 'mongodb';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { IndexSpec, QueryShape } from '../db/query-shapes';

/** That an ordered delivery of one event to one subscription has ended (delivered, failed, stopped or cancelled). */
interface OrderingMarkDoc {
  /** `<subscription id>|<event id>`: a point read answers whether it ended. */
  _id: string;
  at: Date;
}

function markId(subscriptionId: string, eventId: string): string {
  return `${subscriptionId}|${eventId}`;
}

/**
 * The ends of ordered deliveries (`ordering_marks`): the next event of a key asks here whether
 * the one before it is done. Written once per ordered delivery only: unordered ones cost nothing.
 */
export class OrderingMarks {
  static readonly indexes: readonly IndexSpec[] = [];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'ordering_marks', method: 'OrderingMarks.mark', equality: ['_id'], index: '_id_' },
    { collection: 'ordering_marks', method: 'OrderingMarks.has', equality: ['_id'], index: '_id_' },
  ];

  readonly #collection: Collection<OrderingMarkDoc>;

  constructor(db: Db) {
    this.#collection = db.collection<OrderingMarkDoc>('ordering_marks');
  }

  /** Notes that the delivery of `eventId` to `subscriptionId` ended; once however often it runs. */
  async mark(subscriptionId: string, eventId: string, at: Date): Promise<void> {
    await insertIfAbsent(this.#collection, { _id: markId(subscriptionId, eventId), at });
  }

  /** Whether the delivery of `eventId` to `subscriptionId` ended. */
  async has(subscriptionId: string, eventId: string): Promise<boolean> {
    return (await this.#collection.findOne({ _id: markId(subscriptionId, eventId) }, { projection: { _id: 1 } })) !== null;
  }
}
