import { insertAll } from '../db/insert-all';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import { type Expiring, type ListWriting, Timeline, timelineShapes, withoutTimelineFields } from '../db/timeline';
import type { Collection, Db } from 'mongodb';
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
  /** Whose data it carries (see OutboxEvent.owner_id): most of its subscribers are theirs. */
  data_owner?: string;
  subscription_ids: string[];
  source?: OutboxSource;
  /** The API request that emitted it (X-Request-Id). */
  request_id?: string;
  /** Its place among the events of its ordering key (OutboxEvent.seq); absent: not ordered. */
  seq?: number;
  /** The subscriptions of the snapshot that wanted it in order (`ordering: per_key`); absent: none. */
  ordered_ids?: string[];
}

/**
 * Above this many subscribers an event is listed once, in the list of wide events, rather than in
 * each subscriber's: registering thousands of lists would slow the very write that starts its delivery.
 */
export const WIDE_FAN_OUT = 100;

/** The lists an event is in: every event (retention), and each targeted subscription's, or the wide ones'. */
function listsOf(doc: Pick<EventDoc, 'subscription_ids'>): string[] {
  return doc.subscription_ids.length > WIDE_FAN_OUT ? ['all', 'wide'] : ['all', ...doc.subscription_ids.map((id) => `s:${id}`)];
}

/** An event as stored: with the timeline tags of the lists it is in. */
type StoredEvent = EventDoc & { tl?: string[]; tl_tenth?: number };

/** The event log. */
export class EventRepository {
  static readonly indexes: readonly IndexSpec[] = [
    // The lists: one bucket of one list, newest first (src/db/timeline.ts).
    { collection: 'events', name: 'timeline', key: { tl: 1, created_at: -1, _id: -1 } },
  ];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'events', method: 'EventRepository.tagUnlisted', equality: [], range: ['tl'], index: 'timeline' },
    { collection: 'events', method: 'EventRepository.insertOnce', equality: ['_id'], index: '_id_' },
    { collection: 'events', method: 'EventRepository.insertAll', equality: ['_id'], index: '_id_' },
    { collection: 'events', method: 'EventRepository.insertNew', equality: ['_id'], index: '_id_' },
    { collection: 'events', method: 'EventRepository.typesOf', equality: ['_id'], index: '_id_' },
    { collection: 'events', method: 'EventRepository.find', equality: ['_id'], index: '_id_' },
    { collection: 'events', method: 'EventRepository.findMany', equality: ['_id'], index: '_id_' },
    { collection: 'events', method: 'EventRepository.snapshotOf', equality: ['_id'], index: '_id_' },
    { collection: 'events', method: 'EventRepository.orderingOf', equality: ['_id'], index: '_id_' },
    // listForSubscription and retention read the lists.
    ...timelineShapes('events', 'created_at', { list: ['EventRepository.listForSubscription'], expire: 'EventRepository.aged.expire' }),
  ];

  readonly #collection: Collection<StoredEvent>;
  readonly #timeline: Timeline;

  /** Retention: events age by when they were emitted. */
  readonly aged: Expiring;

  constructor(db: Db, lists: ListWriting = {}) {
    this.#collection = db.collection<StoredEvent>('events');
    this.#timeline = new Timeline(db, 'events', 'timeline', lists);
    this.aged = { expire: (before, maxBuckets, maxDocs) => this.#timeline.expire(this.#collection, 'all', before, maxBuckets, maxDocs) };
  }

  /** Inserts unless already logged (a re-flushed outbox entry); idempotent by event id. True when this call logged it. */
  async insertOnce(doc: EventDoc): Promise<boolean> {
    const [stored] = await this.#timeline.listed([doc], listsOf, (d) => d.created_at);
    return insertIfAbsent(this.#collection, stored!);
  }

  /** Logs events not logged yet, in one insert (an outbox re-flushed stores nothing twice); the ids this call logged. */
  async insertNew(docs: readonly EventDoc[]): Promise<Set<string>> {
    if (docs.length === 0) return new Set();
    const existing = await insertAll(this.#collection, await this.#timeline.listed(docs, listsOf, (d) => d.created_at), { allowExisting: true });
    return new Set(docs.filter((_, i) => !existing.has(i)).map((d) => d._id));
  }

  /** Logs events in bulk, as they are (an import, or a load test's prefill); a repeated id fails. */
  async insertAll(docs: readonly EventDoc[]): Promise<void> {
    await insertAll(this.#collection, await this.#timeline.listed(docs, listsOf, (d) => d.created_at), { allowExisting: false });
  }

  /** Events sent to a subscription, newest first, `limit` of them after `after` (a page's last event). */
  async listForSubscription(subscriptionId: string, limit: number, after?: EventDoc): Promise<EventDoc[]> {
    const opts = { timeField: 'created_at' as const, limit, projection: withoutTimelineFields, ...(after ? { after: { at: after.created_at, id: after._id } } : {}) };
    // Its own list, and the wide events that went to it too: merged newest first.
    const [own, wide] = await Promise.all([
      this.#timeline.page(this.#collection, `s:${subscriptionId}`, opts),
      this.#timeline.page(this.#collection, 'wide', { ...opts, filter: { subscription_ids: subscriptionId } }),
    ]);
    const newestFirst = (a: EventDoc, b: EventDoc) => b.created_at.getTime() - a.created_at.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);
    return [...own, ...wide].sort(newestFirst).slice(0, limit);
  }

  /** The id and type of each of `ids` that is logged (in no particular order): one lookup by id each. */
  async typesOf(ids: readonly string[]): Promise<Array<Pick<EventDoc, '_id' | 'type'>>> {
    const found = await Promise.all([...new Set(ids)].map((_id) => this.#collection.findOne({ _id }, { projection: { type: 1 } })));
    return found.filter((e): e is Pick<StoredEvent, '_id' | 'type'> & StoredEvent => e !== null).map((e) => ({ _id: e._id, type: e.type }));
  }

  async find(id: string): Promise<EventDoc | undefined> {
    return (await this.#collection.findOne({ _id: id }, { projection: withoutTimelineFields })) ?? undefined;
  }

  /** The logged events among `ids` (in no particular order): one lookup by id each, all at once (a `$in` would scan the log on FerretDB v1). */
  async findMany(ids: readonly string[]): Promise<EventDoc[]> {
    const found = await Promise.all([...new Set(ids)].map((id) => this.find(id)));
    return found.filter((e): e is EventDoc => e !== undefined);
  }

  /** The fan-out snapshot of a logged event (which subscriptions, which of them ordered); undefined when it is not logged. */
  async snapshotOf(id: string): Promise<Pick<EventDoc, 'subscription_ids' | 'ordered_ids'> | undefined> {
    return (await this.#collection.findOne({ _id: id }, { projection: { _id: 0, subscription_ids: 1, ordered_ids: 1 } })) ?? undefined;
  }

  /** What orders a logged event: its type and data (its key), its place, who gets it in order; undefined when it is not logged. */
  async orderingOf(id: string): Promise<Pick<EventDoc, 'type' | 'data' | 'seq' | 'ordered_ids'> | undefined> {
    return (await this.#collection.findOne({ _id: id }, { projection: { _id: 0, type: 1, data: 1, seq: 1, ordered_ids: 1 } })) ?? undefined;
  }

  /** Tags what was stored before this collection had lists (see Timeline.backfill); once per database. */
  tagUnlisted(): Promise<number> {
    return this.#timeline.backfill(this.#collection, 'created_at', listsOf);
  }
}
