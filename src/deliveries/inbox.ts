import { createHash } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import { type Expiring, Timeline, timelineShapes } from '../db/timeline';

/** Where a pull message stands: waiting for its outcome, answered by its consumer, or past its deadline unanswered. */
export type InboxState = 'waiting' | 'reported' | 'expired';

/** A consumer's answer to a message, as it reported it. */
export interface ReportedOutcome {
  status_code: number;
  response_excerpt: string;
  duration_ms: number;
  reported_at: Date;
}

/** One attempt's message to a pull subscription (collection `inbox`). */
export interface InboxDoc {
  /** `pmsg_` + a hash of the run, subscription and attempt number: one message per attempt, however often the round runs. */
  _id: string;
  subscription_id: string;
  event_id: string;
  attempt: number;
  /** The run's top workflow: the API wakes it when the outcome is reported (absent: runs that do not pass it; the deadline round reads the outcome). */
  workflow_id?: string;
  /** The workflow running the attempt's rounds (a part of a large fan-out, or `workflow_id`): the one the report wakes. */
  round_workflow_id?: string;
  /** Creation time (ms, zero-padded) then the id: what the read cursor orders by. */
  seq: string;
  /** The signed envelope, as an HTTP receiver gets it. */
  body: string;
  headers: Record<string, string>;
  created_at: Date;
  ack_by: Date;
  state: InboxState;
  outcome?: ReportedOutcome;
}

/** Every message is in one list, by creation time: what retention deletes old messages by. */
const listsOf = (): string[] => ['all'];

/** The id of attempt `attempt` to `subscriptionId` in the run `run`: fixed, so a re-run round finds the message it made. */
export function inboxMessageId(run: string, subscriptionId: string, attempt: number): string {
  return `pmsg_${createHash('sha256').update(`${run}\n${subscriptionId}\n${attempt}`).digest('hex').slice(0, 32)}`;
}

/** The cursor position of a message made at `createdAt` with `id`. */
export function inboxSeq(createdAt: Date, id: string): string {
  return `${String(createdAt.getTime()).padStart(15, '0')}.${id}`;
}

/** The one answer a message gets (collection `inbox_settlements`, `_id` = the message's id): its report or its expiry. */
export type Settlement = { _id: string; state: 'reported'; outcome: ReportedOutcome; settled_at: Date } | { _id: string; state: 'expired'; settled_at: Date };

/** A settlement as a caller states it. */
export type SettlementChange = { state: 'reported'; outcome: ReportedOutcome } | { state: 'expired' };

/** A message as the read lists it, before its body is fetched. */
export type InboxHead = Omit<InboxDoc, 'body'>;

/**
 * The inbox of pull subscriptions: the attempt activity puts messages, the API reads them and
 * records outcomes, the activity settles them. Who settles a message (the report or the
 * deadline) is decided by one insert with the message's id into `inbox_settlements`: FerretDB v1
 * updates read then write the whole document, so a conditional update lets two writers both win.
 * The message's own `state` follows, best effort, for the read.
 */
export class InboxRepository {
  static readonly indexes: readonly IndexSpec[] = [
    { collection: 'inbox', name: 'subscription_state', key: { subscription_id: 1, state: 1 } },
    // Retention deletes one creation-time bucket at a time by its tag (src/db/timeline.ts).
    { collection: 'inbox', name: 'timeline', key: { tl: 1 } },
    { collection: 'inbox_settlements', name: 'timeline', key: { tl: 1 } },
  ];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'inbox', method: 'InboxRepository.put', equality: ['_id'], index: '_id_' },
    { collection: 'inbox', method: 'InboxRepository.find', equality: ['_id'], index: '_id_' },
    { collection: 'inbox', method: 'InboxRepository.settle', equality: ['_id'], index: '_id_' },
    { collection: 'inbox_settlements', method: 'InboxRepository.settle', equality: ['_id'], index: '_id_' },
    { collection: 'inbox_settlements', method: 'InboxRepository.settlement', equality: ['_id'], index: '_id_' },
    { collection: 'inbox', method: 'InboxRepository.waiting', equality: ['subscription_id', 'state'], range: ['ack_by'], index: 'subscription_state' },
    { collection: 'inbox', method: 'InboxRepository.bodies', equality: ['_id'], index: '_id_' },
    { collection: 'inbox', method: 'InboxRepository.tagUnlisted', equality: [], range: ['tl'], index: 'timeline' },
    ...timelineShapes('inbox', 'created_at', { list: [], expire: 'InboxRepository.aged.expire' }),
    ...timelineShapes('inbox_settlements', 'settled_at', { list: [], expire: 'InboxRepository.agedSettlements.expire' }),
  ];

  readonly #collection: Collection<InboxDoc>;
  readonly #settlements: Collection<Settlement>;
  readonly #timeline: Timeline;
  readonly #settlementTimeline: Timeline;
  /** Old messages, by creation time, for retention (src/retention/purge.ts). */
  readonly aged: Expiring;
  /** Old settlements, by settlement time, for retention with the messages. */
  readonly agedSettlements: Expiring;

  constructor(db: Db) {
    this.#collection = db.collection<InboxDoc>('inbox');
    this.#settlements = db.collection<Settlement>('inbox_settlements');
    this.#timeline = new Timeline(db, 'inbox');
    this.aged = { expire: (before, maxBuckets, maxDocs) => this.#timeline.expire(this.#collection, 'all', before, maxBuckets, maxDocs) };
    this.#settlementTimeline = new Timeline(db, 'inbox_settlements');
    this.agedSettlements = { expire: (before, maxBuckets, maxDocs) => this.#settlementTimeline.expire(this.#settlements, 'all', before, maxBuckets, maxDocs) };
  }

  /** Stores `doc` (in its creation-time bucket) unless its attempt has a message already; true when this call stored it. */
  async put(doc: InboxDoc): Promise<boolean> {
    const [listed] = await this.#timeline.listed([doc], listsOf, (d) => d.created_at);
    return insertIfAbsent(this.#collection, listed!);
  }

  /** Tags messages stored before the inbox had a timeline (see Timeline.backfill); once per database. */
  tagUnlisted(): Promise<number> {
    return this.#timeline.backfill(this.#collection, 'created_at', listsOf);
  }

  find(id: string): Promise<InboxDoc | null> {
    return this.#collection.findOne({ _id: id });
  }

  /** The message's settlement, if it has one. */
  settlement(id: string): Promise<Settlement | null> {
    return this.#settlements.findOne({ _id: id });
  }

  /**
   * Settles message `id` as reported (with its outcome) or expired, unless it has a settlement
   * already; true when this call settled it. Then marks the message, best effort: a message
   * left `waiting` drops out of the read at its deadline anyway.
   */
  async settle(id: string, change: SettlementChange, at: Date): Promise<boolean> {
    const settlement: Settlement = { _id: id, ...change, settled_at: at };
    const [listed] = await this.#settlementTimeline.listed([settlement], listsOf, (d) => d.settled_at);
    if (!(await insertIfAbsent(this.#settlements, listed!))) return false;
    await this.#collection.updateOne({ _id: id }, { $set: change }).catch(() => undefined);
    return true;
  }

  /**
   * The waiting messages of a subscription due after `now`, oldest first, at most `limit`,
   * without their bodies: the filter, order and bound are applied here (FerretDB v1 pushes down
   * only top-level equality), over one message per delivery in flight.
   */
  async waiting(subscriptionId: string, now: Date, limit: number): Promise<InboxHead[]> {
    const docs = await this.#collection.find({ subscription_id: subscriptionId, state: 'waiting' }, { projection: { body: 0 } }).toArray();
    return docs
      .filter((d) => d.ack_by > now)
      .sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0))
      .slice(0, limit);
  }

  /** The bodies of `ids`, each read by `_id` (an `$in` would scan the collection on FerretDB v1); a message gone since is absent. */
  async bodies(ids: readonly string[]): Promise<Map<string, string>> {
    const found = await Promise.all(ids.map((id) => this.#collection.findOne({ _id: id }, { projection: { body: 1 } })));
    return new Map(found.flatMap((d) => (d ? [[d._id, d.body] as const] : [])));
  }
}
