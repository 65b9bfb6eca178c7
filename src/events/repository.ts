import { type DatedBatches, datedBatchShapes, datedBatches } from '../db/dated-batches';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import type { Collection, Db, Filter } from 'mongodb';
import type { EventType } from '../contract/types';
import type { OutboxSource } from './outbox';

/** The event log: every emitted event, with the subscriptions it goes to (snapshot at emit time). */
export interface EventDoc {
  _id: string;
  type: EventType;
  data: Record<string, unknown>;
  created_at: Date;
  /** Owner of the subscriptions targeted; set for test events, which go to one owner only. */
  owner_id?: string;
  subscription_ids: string[];
  source?: OutboxSource;
  /** The API request that emitted it (X-Request-Id). */
  request_id?: string;
}

/** The event log. */
export class EventRepository {
  static readonly indexes: readonly IndexSpec[] = [
    // Retention finds what has aged past its cutoff by this date.
    { collection: 'events', name: 'created_at', key: { created_at: 1 } },
  ];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'events', method: 'EventRepository.insertOnce', equality: ['_id'], index: '_id_' },
    {
      collection: 'events',
      method: 'EventRepository.listForSubscription',
      equality: ['subscription_ids'],
      range: ['created_at', '_id'],
      sort: { created_at: -1, _id: -1 },
      unindexed: 'no index on subscription_ids: the event log is scanned',
    },
    { collection: 'events', method: 'EventRepository.typesOf', equality: ['_id'], index: '_id_' },
    { collection: 'events', method: 'EventRepository.find', equality: ['_id'], index: '_id_' },
    ...datedBatchShapes('events', 'EventRepository', 'created_at', 'created_at'),
  ];

  readonly #collection: Collection<EventDoc>;

  /** Retention's reads and deletes: events age by when they were emitted. */
  readonly aged: DatedBatches;

  constructor(db: Db) {
    this.#collection = db.collection<EventDoc>('events');
    this.aged = datedBatches(this.#collection, 'created_at');
  }

  /** Inserts unless already logged (a re-flushed outbox entry); idempotent by event id. True when this call logged it. */
  insertOnce(doc: EventDoc): Promise<boolean> {
    return insertIfAbsent(this.#collection, doc);
  }

  /** Events sent to a subscription, newest first, `limit` of them after `after` (a page's last event). */
  listForSubscription(subscriptionId: string, limit: number, after?: EventDoc): Promise<EventDoc[]> {
    const filter: Filter<EventDoc> = { subscription_ids: subscriptionId };
    if (after) {
      filter.$or = [{ created_at: { $lt: after.created_at } }, { created_at: after.created_at, _id: { $lt: after._id } }];
    }
    return this.#collection.find(filter).sort({ created_at: -1, _id: -1 }).limit(limit).toArray();
  }

  /** The id and type of each of `ids` that is logged (in no particular order). */
  typesOf(ids: readonly string[]): Promise<Array<Pick<EventDoc, '_id' | 'type'>>> {
    return this.#collection.find({ _id: { $in: [...ids] } }, { projection: { type: 1 } }).toArray();
  }

  async find(id: string): Promise<EventDoc | undefined> {
    return (await this.#collection.findOne({ _id: id })) ?? undefined;
  }
}
