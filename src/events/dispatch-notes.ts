import { insertAll } from '../db/insert-all';
import type { Collection, Db } from 'mongodb';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import type { OutboxSource } from './outbox';

/**
 * A note that an event may still need its workflow started: written before the write that
 * creates the event, deleted once the workflow is started. The relay reads only these (a small
 * collection keyed by id) instead of scanning outboxes and the event log, which FerretDB v1
 * can only do by reading every document.
 */
export interface EventNote {
  /** The event id. */
  _id: string;
  kind?: undefined;
  /** Where the event waits until it is logged; absent for events logged directly (test events). */
  source?: OutboxSource;
  created_at: Date;
}

/** A redelivery or recovery accepted by the API, written before its workflow is started. */
export interface RedeliveryNote {
  /** The redelivery's workflow id. */
  _id: string;
  kind: 'redelivery';
  event_id: string;
  subscription_ids: string[];
  created_at: Date;
  /** The API request that asked for it (X-Request-Id). */
  request_id?: string;
}

export type DispatchNote = EventNote | RedeliveryNote;

/** The `dispatch_notes` collection: what may still need a workflow started. */
export class DispatchNotes {
  static readonly indexes: readonly IndexSpec[] = [];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'dispatch_notes', method: 'DispatchNotes.announce', equality: ['_id'], index: '_id_' },
    { collection: 'dispatch_notes', method: 'DispatchNotes.noteRedeliveries', equality: ['_id'], index: '_id_' },
    { collection: 'dispatch_notes', method: 'DispatchNotes.remove', equality: ['_id'], index: '_id_' },
    { collection: 'dispatch_notes', method: 'DispatchNotes.forget', equality: ['_id'], index: '_id_' },
    {
      collection: 'dispatch_notes',
      method: 'DispatchNotes.due',
      equality: [],
      range: ['created_at'],
      unindexed: 'no index on created_at: the notes are scanned (few while the relay keeps up)',
    },
    {
      collection: 'dispatch_notes',
      method: 'DispatchNotes.countOlderThan',
      equality: [],
      range: ['created_at'],
      unindexed: 'no index on created_at: the notes are scanned (few while the relay keeps up)',
    },
    { collection: 'dispatch_notes', method: 'DispatchNotes.count', equality: ['_id'], index: '_id_' },
  ];

  readonly #collection: Collection<DispatchNote>;
  private readonly forgotten = new Set<string>();
  private sweep: NodeJS.Timeout | undefined;

  constructor(
    db: Db,
    /** Told when a batched removal failed (the relay cleans up). */
    private readonly onSweepError: (err: unknown) => void = () => {},
  ) {
    this.#collection = db.collection<DispatchNote>('dispatch_notes');
  }

  /** Notes events about to be written (into `source`'s outbox, when given); idempotent per event. */
  async announce(eventIds: readonly string[], source?: OutboxSource, at = new Date()): Promise<void> {
    // An insert, not an upsert: FerretDB v1 makes an upsert a read and a write. A note already
    // there is this event's own from an earlier try, and serves as well.
    for (const id of eventIds) await insertIfAbsent(this.#collection, { _id: id, ...(source ? { source } : {}), created_at: at });
  }

  /** Notes accepted redeliveries before their workflows are started; a note already there (same workflow id) serves as well. */
  async noteRedeliveries(notes: readonly RedeliveryNote[]): Promise<void> {
    await insertAll(this.#collection, notes, { allowExisting: true });
  }

  async remove(ids: readonly string[]): Promise<void> {
    for (const id of ids) await this.#collection.deleteOne({ _id: id });
  }

  /**
   * Removes the note of a dispatched event soon, together with the others dispatched meanwhile
   * (one write for many). Nobody waits for it: a note left by a failed or lost removal only makes
   * the relay start the workflow again, which is a no-op, and remove it then.
   */
  forget(id: string): void {
    this.forgotten.add(id);
    this.sweep ??= setTimeout(() => {
      const ids = [...this.forgotten];
      this.forgotten.clear();
      this.sweep = undefined;
      this.#collection.deleteMany({ _id: { $in: ids } }).catch((err: unknown) => this.onSweepError(err));
    }, 20);
  }

  /** Up to `limit` notes written before `before` (younger ones belong to requests still in flight). */
  async due(before: Date, limit: number): Promise<DispatchNote[]> {
    return this.#collection.find({ created_at: { $lt: before } }).limit(limit).toArray();
  }

  /** How many notes were written before `before` (the relay's backlog). */
  countOlderThan(before: Date): Promise<number> {
    return this.#collection.countDocuments({ created_at: { $lt: before } });
  }

  async count(id: string): Promise<number> {
    return this.#collection.countDocuments({ _id: id });
  }
}
