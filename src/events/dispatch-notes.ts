import { insertAll } from '../db/insert-all';
import type { Collection, Db, Filter } from 'mongodb';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import type { HeldReservation, OutboxSource } from './outbox';

/**
 * A note that a write's events may still need their workflows started: written before the write
 * that creates them, deleted once they are dispatched. The relay reads only these (a small
 * collection keyed by id) instead of scanning outboxes and the event log, which FerretDB v1
 * can only do by reading every document. One note per write: keyed by its first event's id, it
 * lists all of them; notes stored before that name one event each (their `_id`).
 */
export interface EventNote {
  /** The (first) event id. */
  _id: string;
  kind?: undefined;
  /** Where the events wait until they are logged; absent for events logged directly (test events). */
  source?: OutboxSource;
  /** Every event id the write may store, `_id` first; absent on a note of one event. */
  event_ids?: string[];
  /** Units the write holds: the relay gives them back when it finds the write never happened. */
  reservation?: HeldReservation;
  created_at: Date;
  /** Not before this may the relay take it: the API holds the write's workflows until about then (OwnerAdmission). */
  due_at?: Date;
  /** Whether it has a `due_at`; absent on notes stored before the field (see {@link DispatchNotes.due}). */
  held?: boolean;
}

/** The event ids a note announces. */
export function announcedIds(note: EventNote): readonly string[] {
  return note.event_ids ?? [note._id];
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
  /** Never held: see {@link EventNote.held}. */
  held?: false;
}

export type DispatchNote = EventNote | RedeliveryNote;

/** Notes deleted per command of a batched removal: a few statements each, FerretDB v1 wedges on ~50+. */
const maxDeletesPerCommand = 16;

/** How long a forgotten note waits for others to share its removal (the relay's grace is seconds). */
const sweepDelayMs = 50;

/** The `dispatch_notes` collection: what may still need a workflow started. */
export class DispatchNotes {
  static readonly indexes: readonly IndexSpec[] = [];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'dispatch_notes', method: 'DispatchNotes.announce', equality: ['_id'], index: '_id_' },
    { collection: 'dispatch_notes', method: 'DispatchNotes.readdress', equality: ['_id'], index: '_id_' },
    { collection: 'dispatch_notes', method: 'DispatchNotes.noteRedeliveries', equality: ['_id'], index: '_id_' },
    { collection: 'dispatch_notes', method: 'DispatchNotes.remove', equality: ['_id'], index: '_id_' },
    { collection: 'dispatch_notes', method: 'DispatchNotes.forget', equality: ['_id'], index: '_id_' },
    {
      collection: 'dispatch_notes',
      method: 'DispatchNotes.due',
      equality: [],
      optional: ['held'],
      range: ['created_at', 'due_at'],
      unindexed: 'no index: the notes not held are few while the relay keeps up; held ones are read by a sweep now and then',
    },
    {
      collection: 'dispatch_notes',
      method: 'DispatchNotes.countWaiting',
      equality: ['held'],
      range: ['created_at'],
      unindexed: 'no index: the notes not held are few while the relay keeps up',
    },
    {
      collection: 'dispatch_notes',
      method: 'DispatchNotes.countHeldDue',
      equality: [],
      range: ['held', 'due_at'],
      unindexed: 'no index: read by a gauge at most once a minute',
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

  /**
   * Notes a write about to happen: one note keyed by its first event id, listing them all; a
   * note already there is this write's own from an earlier try, and serves as well.
   */
  async announce(write: { eventIds: readonly string[]; source?: OutboxSource; reservation?: HeldReservation; at?: Date; dueAt?: Date | undefined }): Promise<void> {
    const [id, ...more] = write.eventIds;
    if (id === undefined) return;
    // An insert, not an upsert: FerretDB v1 makes an upsert a read and a write.
    await insertIfAbsent(this.#collection, {
      _id: id,
      ...(write.source ? { source: write.source } : {}),
      ...(more.length ? { event_ids: [id, ...more] } : {}),
      ...(write.reservation ? { reservation: write.reservation } : {}),
      created_at: write.at ?? new Date(),
      ...(write.dueAt ? { due_at: write.dueAt } : {}),
      held: write.dueAt !== undefined,
    });
  }

  /** Points a note at the source (and reservation) its write moved to; only its writer touches it before the relay's grace. */
  async readdress(id: string, source: OutboxSource, reservation?: HeldReservation): Promise<void> {
    await this.#collection.updateOne({ _id: id }, { $set: { source, ...(reservation ? { reservation } : {}) } });
  }

  /** Notes accepted redeliveries before their workflows are started; a note already there (same workflow id) serves as well. */
  async noteRedeliveries(notes: readonly RedeliveryNote[]): Promise<void> {
    await insertAll(
      this.#collection,
      notes.map((n) => ({ ...n, held: false as const })),
      { allowExisting: true },
    );
  }

  async remove(ids: readonly string[]): Promise<void> {
    await this.#removeEach(ids);
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
      this.#removeEach(ids).catch((err: unknown) => this.onSweepError(err));
    }, sweepDelayMs);
  }

  /**
   * Deletes the notes by id, `maxDeletesPerCommand` a command: each statement finds its note by
   * `_id`, which FerretDB v1 pushes down, where one `$in` would scan every note (thousands while
   * a flood's writes are held).
   */
  async #removeEach(ids: readonly string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += maxDeletesPerCommand) {
      const ops = ids.slice(i, i + maxDeletesPerCommand).map((_id) => ({ deleteOne: { filter: { _id } } }));
      // eslint-disable-next-line no-restricted-properties
      await this.#collection.bulkWrite(ops, { ordered: false });
    }
  }

  /**
   * Up to `limit` notes written before `before` (younger ones belong to requests still in flight)
   * and not held past now. `unheld` reads only notes written without a due time, by an equality
   * FerretDB v1 pushes down: a flood's held notes (thousands) are not read each pass, which on
   * FerretDB decodes every one. `all` also reads held notes and notes stored without the field.
   */
  async due(before: Date, limit: number, scope: 'unheld' | 'all' = 'all'): Promise<DispatchNote[]> {
    const filter = scope === 'unheld' ? { held: false, created_at: { $lt: before } } : dueBy(before);
    return this.#collection.find(filter).limit(limit).toArray();
  }

  /** How many notes not held were written before `before` (what the relay's next pass takes). */
  countWaiting(before: Date): Promise<number> {
    return this.#collection.countDocuments({ held: false, created_at: { $lt: before } });
  }

  /** How many held notes (or notes stored without the field) are past their due time: what the relay's next sweep takes. */
  countHeldDue(): Promise<number> {
    return this.#collection.countDocuments({ held: { $ne: false }, due_at: { $not: { $gte: new Date() } } });
  }

  async count(id: string): Promise<number> {
    return this.#collection.countDocuments({ _id: id });
  }
}

/** Notes written before `before` whose due time (if any) has come: `$not $gte` matches a note without one too. */
function dueBy(before: Date): Filter<DispatchNote> {
  return { created_at: { $lt: before }, due_at: { $not: { $gte: new Date() } } };
}
