import type { Collection, Db } from 'mongodb';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import { type Expiring, Timeline, timelineShapes } from '../db/timeline';

/** That an ordered delivery of one event to one subscription has ended (delivered, failed, stopped or cancelled). */
interface OrderingMarkDoc {
  /** `<subscription id>|<event id>`: a point read answers whether it ended. */
  _id: string;
  /** When it ended: retention deletes marks by its 10-second bucket (src/db/timeline.ts). */
  at: Date;
  /** Timeline tag and tenth of `at`, added on insert. */
  tl?: string[];
  tl_tenth?: number;
}

const listsOf = (): string[] => ['all'];

function markId(subscriptionId: string, eventId: string): string {
  return `${subscriptionId}|${eventId}`;
}

/**
 * The ends of ordered deliveries (`ordering_marks`): the next event of a key asks here whether
 * the one before it is done. Written once per ordered delivery only: unordered ones cost nothing.
 */
export class OrderingMarks {
  static readonly indexes: readonly IndexSpec[] = [
    // Retention deletes one end-time bucket at a time by its tag (src/db/timeline.ts).
    { collection: 'ordering_marks', name: 'timeline', key: { tl: 1 } },
  ];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'ordering_marks', method: 'OrderingMarks.mark', equality: ['_id'], index: '_id_' },
    { collection: 'ordering_marks', method: 'OrderingMarks.has', equality: ['_id'], index: '_id_' },
    ...timelineShapes('ordering_marks', 'at', { list: [], expire: 'OrderingMarks.aged.expire' }),
  ];

  readonly #collection: Collection<OrderingMarkDoc>;
  readonly #timeline: Timeline;
  /**
   * Marks that ended before a date, for retention. A mark is dated after its event was logged, so
   * deleted with the events of its age (src/retention/purge.ts), it outlives its event: the gate
   * never finds an event logged without the mark of its ended delivery.
   */
  readonly aged: Expiring;

  constructor(db: Db) {
    this.#collection = db.collection<OrderingMarkDoc>('ordering_marks');
    this.#timeline = new Timeline(db, 'ordering_marks');
    this.aged = { expire: (before, maxBuckets, maxDocs) => this.#timeline.expire(this.#collection, 'all', before, maxBuckets, maxDocs) };
  }

  /** Notes that the delivery of `eventId` to `subscriptionId` ended; once however often it runs. */
  async mark(subscriptionId: string, eventId: string, at: Date): Promise<void> {
    const [listed] = await this.#timeline.listed([{ _id: markId(subscriptionId, eventId), at }], listsOf, (d) => d.at);
    await insertIfAbsent(this.#collection, listed!);
  }

  /** Whether the delivery of `eventId` to `subscriptionId` ended. */
  async has(subscriptionId: string, eventId: string): Promise<boolean> {
    return (await this.#collection.findOne({ _id: markId(subscriptionId, eventId) }, { projection: { _id: 1 } })) !== null;
  }
}
