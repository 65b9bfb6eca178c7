import { createHash } from 'node:crypto';
import { type DatedBatches, datedBatchShapes, datedBatches } from '../db/dated-batches';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import { type Collection, type Db, type Filter, MongoBulkWriteError } from 'mongodb';
import type { DeliveryAttempt, DeliveryAttemptState, DeliveryOutcome } from '../contract/types';
import type { AttemptSample } from './stats';

/** One logged delivery attempt. */
export interface AttemptDoc {
  _id: string;
  event_id: string;
  subscription_id: string;
  /** The delivery workflow (attempt series) this attempt belongs to. */
  series: string;
  attempt: number;
  started_at: Date;
  duration_ms: number;
  outcome: DeliveryAttempt['outcome'];
  status_code?: number;
  error?: string;
  response_excerpt?: string;
  url: string;
  next_attempt_at?: Date;
  /** Where the delivery stood after this attempt. */
  state: DeliveryAttemptState;
}

/** A stable id per series and attempt number, so a retried record activity writes once. */
export function attemptId(series: string, attempt: number): string {
  const digest = createHash('sha256').update(`${series}#${attempt}`).digest('base64url').replace(/[-_]/g, '');
  return `att_${digest.slice(0, 24)}`;
}

/** Where one event's delivery to one subscription stands, from its attempts. */
export interface AttemptSummary {
  attempts: number;
  state: DeliveryAttemptState;
  lastAttemptAt: Date;
}

/** Narrows an attempt listing; every field optional. */
export interface AttemptFilter {
  eventId?: string;
  outcome?: DeliveryOutcome;
  state?: DeliveryAttemptState;
}

export function toDeliveryAttempt(doc: AttemptDoc): DeliveryAttempt {
  return {
    id: doc._id,
    event_id: doc.event_id,
    subscription_id: doc.subscription_id,
    attempt: doc.attempt,
    started_at: doc.started_at.toISOString(),
    duration_ms: doc.duration_ms,
    outcome: doc.outcome,
    ...(doc.status_code !== undefined ? { status_code: doc.status_code } : {}),
    ...(doc.error !== undefined ? { error: doc.error } : {}),
    ...(doc.response_excerpt !== undefined ? { response_excerpt: doc.response_excerpt } : {}),
    ...(doc.next_attempt_at ? { next_attempt_at: doc.next_attempt_at.toISOString() } : {}),
    state: doc.state,
  };
}

/** The attempt log. */
export class AttemptRepository {
  static readonly indexes: readonly IndexSpec[] = [
    // A subscription's attempts, newest first (listing, statistics).
    { collection: 'attempts', name: 'subscription_newest', key: { subscription_id: 1, started_at: -1 } },
    // Retention finds what has aged past its cutoff by this date.
    { collection: 'attempts', name: 'started_at', key: { started_at: 1 } },
  ];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'attempts', method: 'AttemptRepository.record', equality: ['_id'], index: '_id_' },
    { collection: 'attempts', method: 'AttemptRepository.recordMany', equality: ['_id'], index: '_id_' },
    {
      collection: 'attempts',
      method: 'AttemptRepository.listForSubscription',
      equality: ['subscription_id'],
      optional: ['event_id', 'outcome', 'state'],
      range: ['started_at', '_id'],
      sort: { started_at: -1, _id: -1 },
      unindexed: 'subscription_newest has no _id after started_at: the tie-break sorts all the subscription\'s attempts in memory',
    },
    {
      collection: 'attempts',
      method: 'AttemptRepository.summaries',
      equality: ['subscription_id', 'event_id'],
      unindexed: 'subscription_newest narrows to the subscription; event_id is filtered over all its attempts',
    },
    {
      collection: 'attempts',
      method: 'AttemptRepository.samplesSince',
      equality: ['subscription_id'],
      range: ['started_at'],
      sort: { started_at: -1 },
      index: 'subscription_newest',
    },
    {
      collection: 'attempts',
      method: 'AttemptRepository.failedEventIdsSince',
      equality: ['subscription_id', 'state'],
      range: ['started_at'],
      unindexed: 'subscription_newest bounds subscription and started_at; state is filtered',
    },
    {
      collection: 'attempts',
      method: 'AttemptRepository.deliveredEventIds',
      equality: ['subscription_id', 'event_id', 'state'],
      unindexed: 'subscription_newest narrows to the subscription; event_id and state are filtered over all its attempts',
    },
    { collection: 'attempts', method: 'AttemptRepository.find', equality: ['_id'], index: '_id_' },
    ...datedBatchShapes('attempts', 'AttemptRepository', 'started_at', 'started_at'),
  ];

  readonly #collection: Collection<AttemptDoc>;

  /** Retention's reads and deletes: attempts age by when they started. */
  readonly aged: DatedBatches;

  constructor(db: Db) {
    this.#collection = db.collection<AttemptDoc>('attempts');
    this.aged = datedBatches(this.#collection, 'started_at');
  }

  /** Records an attempt; a repeat with the same id changes nothing. */
  async record(doc: AttemptDoc): Promise<void> {
    await insertIfAbsent(this.#collection, doc);
  }

  /**
   * Records attempts in one unordered write; returns the indexes of those already recorded (by an
   * earlier try: same id). Any other failure throws.
   */
  async recordMany(docs: AttemptDoc[]): Promise<Set<number>> {
    try {
      await this.#collection.insertMany(docs, { ordered: false });
      return new Set();
    } catch (err) {
      if (!(err instanceof MongoBulkWriteError && [err.writeErrors].flat().every((e) => e.code === 11000))) throw err;
      return new Set([err.writeErrors].flat().map((e) => e.index));
    }
  }

  /** Newest first; paginated by (started_at, _id) via the last id seen. */
  async listForSubscription(subscriptionId: string, limit: number, opts: AttemptFilter & { after?: AttemptDoc }): Promise<AttemptDoc[]> {
    const filter: Filter<AttemptDoc> = {
      subscription_id: subscriptionId,
      ...(opts.eventId ? { event_id: opts.eventId } : {}),
      ...(opts.outcome ? { outcome: opts.outcome } : {}),
      ...(opts.state ? { state: opts.state } : {}),
    };
    if (opts.after) {
      filter.$or = [
        { started_at: { $lt: opts.after.started_at } },
        { started_at: opts.after.started_at, _id: { $lt: opts.after._id } },
      ];
    }
    return this.#collection.find(filter).sort({ started_at: -1, _id: -1 }).limit(limit).toArray();
  }

  /** Per event of `eventIds`: how many attempts went to the subscription, and the latest one's state and start. */
  async summaries(subscriptionId: string, eventIds: string[]): Promise<Map<string, AttemptSummary>> {
    const rows = await this.#collection
      .find({ subscription_id: subscriptionId, event_id: { $in: eventIds } }, { projection: { _id: 0, event_id: 1, state: 1, started_at: 1 } })
      .toArray();
    const byEvent = new Map<string, AttemptSummary>();
    for (const row of rows) {
      const seen = byEvent.get(row.event_id);
      const latest = !seen || row.started_at > seen.lastAttemptAt;
      byEvent.set(row.event_id, {
        attempts: (seen?.attempts ?? 0) + 1,
        state: latest ? row.state : seen.state,
        lastAttemptAt: latest ? row.started_at : seen.lastAttemptAt,
      });
    }
    return byEvent;
  }

  /** Start, duration and outcome of the subscription's attempts started at or after `from`, at most `cap` of them (newest kept). */
  async samplesSince(subscriptionId: string, from: Date, cap: number): Promise<AttemptSample[]> {
    return this.#collection
      .find({ subscription_id: subscriptionId, started_at: { $gte: from } }, { projection: { _id: 0, started_at: 1, duration_ms: 1, outcome: 1 } })
      .sort({ started_at: -1 })
      .limit(cap)
      .toArray();
  }

  /** Events of the subscription's attempts that failed or stopped since `since` (repeats possible), at most `limit` attempts read. */
  async failedEventIdsSince(subscriptionId: string, since: Date, limit: number): Promise<string[]> {
    const rows = await this.#collection
      .find({ subscription_id: subscriptionId, state: { $in: ['failed', 'stopped'] }, started_at: { $gte: since } }, { projection: { event_id: 1 } })
      .limit(limit)
      .toArray();
    return rows.map((a) => a.event_id);
  }

  /** Those of `eventIds` the subscription has a delivered attempt of (repeats possible). */
  async deliveredEventIds(subscriptionId: string, eventIds: readonly string[]): Promise<string[]> {
    const rows = await this.#collection
      .find({ subscription_id: subscriptionId, event_id: { $in: [...eventIds] }, state: 'delivered' }, { projection: { event_id: 1 } })
      .toArray();
    return rows.map((a) => a.event_id);
  }

  async find(id: string): Promise<AttemptDoc | undefined> {
    return (await this.#collection.findOne({ _id: id })) ?? undefined;
  }
}
