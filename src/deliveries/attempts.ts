import { createHash } from 'node:crypto';
import { insertAll } from '../db/insert-all';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import { type Expiring, type ListWriting, Timeline, type TimelineEntry, timelineShapes, withoutTimelineFields } from '../db/timeline';
import type { Collection, Db, Filter } from 'mongodb';
import type { DeliveryAttempt, DeliveryAttemptState, DeliveryOutcome } from '../contract/types';
import { eventGroups, groupsBetween, groupsToRead } from './event-groups';
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
  /** Attempts in all it was settled by; absent in attempts logged before it was. */
  max_attempts?: number;
  /** `retry_after`: the receiver's Retry-After set the wait until `next_attempt_at`; absent: the retry schedule. */
  wait_reason?: 'retry_after';
  /** The holds (max_in_flight, rate_limit) the attempt waited through before it was made. */
  held?: AttemptHold[];
}

/** A stretch of deferrals of one attempt for one reason, as logged. */
export interface AttemptHold {
  reason: 'max_in_flight' | 'rate_limit' | 'pull_outcome';
  from: Date;
  until: Date;
  times: number;
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

/** The lists an attempt is in: every attempt (retention), its subscription's, and that one by outcome, state, and both. */
function listsOf(doc: Pick<AttemptDoc, 'subscription_id' | 'outcome' | 'state'>): string[] {
  return ['all', listKey(doc.subscription_id), listKey(doc.subscription_id, doc), listKey(doc.subscription_id, { state: doc.state }), listKey(doc.subscription_id, { outcome: doc.outcome })];
}

/** The list of a subscription's attempts, narrowed by outcome and state when given. */
function listKey(subscriptionId: string, narrow: { outcome?: DeliveryOutcome; state?: DeliveryAttemptState } = {}): string {
  return `s:${subscriptionId}${narrow.outcome ? `|o:${narrow.outcome}` : ''}${narrow.state ? `|st:${narrow.state}` : ''}`;
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

/** An attempt as stored: with the timeline tags of the lists it is in, and its event's groups (src/deliveries/event-groups.ts). */
type StoredAttempt = AttemptDoc & { tl?: string[]; tl_tenth?: number; eg?: string[] };

/** The states after which a delivery makes no further attempt. */
const FINAL_STATES: ReadonlySet<DeliveryAttemptState> = new Set(['delivered', 'failed', 'stopped']);

/** Rows of one event group read per round trip. */
const GROUP_BATCH = 5_000;

/** Marks, in the timeline directory, that every attempt stored carries its event's groups. */
const GROUPS_BACKFILLED = 'attempts/#event-groups-backfilled';

/** The attempt log. */
export class AttemptRepository {
  static readonly indexes: readonly IndexSpec[] = [
    // One event's attempts to one subscription: a handful, whatever the subscription has stored.
    { collection: 'attempts', name: 'event_subscription', key: { event_id: 1, subscription_id: 1, started_at: -1, _id: -1 } },
    // The lists: one bucket of one list, newest first (src/db/timeline.ts).
    { collection: 'attempts', name: 'timeline', key: { tl: 1, started_at: -1, _id: -1 } },
    // A page of events' attempts: one or two groups of its events (src/deliveries/event-groups.ts).
    { collection: 'attempts', name: 'event_groups', key: { eg: 1 } },
  ];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'attempts', method: 'AttemptRepository.tagUnlisted', equality: [], range: ['tl'], index: 'timeline' },
    { collection: 'attempts', method: 'AttemptRepository.record', equality: ['_id'], index: '_id_' },
    { collection: 'attempts', method: 'AttemptRepository.recordMany', equality: ['_id'], index: '_id_' },
    {
      collection: 'attempts',
      method: 'AttemptRepository.listForSubscription (one event)',
      equality: ['event_id', 'subscription_id'],
      optional: ['outcome', 'state'],
      range: ['started_at', '_id'],
      sort: { started_at: -1, _id: -1 },
      index: 'event_subscription',
    },
    { collection: 'attempts', method: 'AttemptRepository.summaries', equality: ['event_id', 'subscription_id'], index: 'event_subscription' },
    { collection: 'attempts', method: 'AttemptRepository.pageSummaries', equality: ['eg'], index: 'event_groups' },
    { collection: 'attempts', method: 'AttemptRepository.recentOutcomes', equality: ['eg'], index: 'event_groups' },
    { collection: 'attempts', method: 'AttemptRepository.tagEventGroups', equality: [], range: ['eg'], index: 'event_groups' },
    { collection: 'attempts', method: 'AttemptRepository.deliveredEventIds', equality: ['event_id', 'subscription_id'], optional: ['state'], index: 'event_subscription' },
    { collection: 'attempts', method: 'AttemptRepository.find', equality: ['_id'], index: '_id_' },
    { collection: 'attempts', method: 'AttemptRepository.endedIn', equality: ['event_id', 'subscription_id'], index: 'event_subscription' },
    // listForSubscription, samplesSince, failedEventIdsSince and retention read the lists.
    ...timelineShapes('attempts', 'started_at', {
      list: ['AttemptRepository.listForSubscription', 'AttemptRepository.samplesSince', 'AttemptRepository.failedEventIdsSince'],
      expire: 'AttemptRepository.aged.expire',
    }),
  ];

  readonly #collection: Collection<StoredAttempt>;
  readonly #timeline: Timeline;

  /** Retention: attempts age by when they started. */
  readonly aged: Expiring;

  constructor(db: Db, lists: ListWriting = {}) {
    this.#collection = db.collection<StoredAttempt>('attempts');
    this.#timeline = new Timeline(db, 'attempts', 'timeline', lists);
    this.aged = { expire: (before, maxBuckets, maxDocs) => this.#timeline.expire(this.#collection, 'all', before, maxBuckets, maxDocs) };
  }

  /** Records an attempt; a repeat with the same id changes nothing. */
  async record(doc: AttemptDoc): Promise<void> {
    await insertIfAbsent(this.#collection, await this.#listed([doc]).then((d) => d[0]!));
  }

  /**
   * Records attempts in one unordered write; returns the indexes of those already recorded (by an
   * earlier try: same id, read back). Throws unless every attempt is stored (see insertAll).
   */
  async recordMany(docs: AttemptDoc[]): Promise<Set<number>> {
    return insertAll(this.#collection, await this.#listed(docs), { allowExisting: true });
  }

  /** The documents with their tags, once their lists' buckets are registered (before they are written). */
  async #listed(docs: readonly AttemptDoc[]): Promise<StoredAttempt[]> {
    const listed = await this.#timeline.listed(docs, listsOf, (d) => d.started_at);
    return listed.map((d) => ({ ...d, eg: eventGroups(d.subscription_id, d.event_id) }));
  }

  /** Newest first; paginated by (started_at, _id) via the last id seen. */
  async listForSubscription(subscriptionId: string, limit: number, opts: AttemptFilter & { after?: AttemptDoc }): Promise<AttemptDoc[]> {
    const after = opts.after ? { at: opts.after.started_at, id: opts.after._id } : undefined;
    if (opts.eventId) {
      const filter: Filter<StoredAttempt> = {
        event_id: opts.eventId,
        subscription_id: subscriptionId,
        ...(opts.outcome ? { outcome: opts.outcome } : {}),
        ...(opts.state ? { state: opts.state } : {}),
        ...(after ? { $or: [{ started_at: { $lt: after.at } }, { started_at: after.at, _id: { $lt: after.id } }] } : {}),
      };
      return this.#collection.find(filter, { projection: withoutTimelineFields }).sort({ started_at: -1, _id: -1 }).limit(limit).toArray();
    }
    return this.#timeline.page(this.#collection, listKey(subscriptionId, opts), {
      timeField: 'started_at',
      limit,
      projection: withoutTimelineFields,
      ...(after ? { after } : {}),
    });
  }

  /** Per event of `eventIds`: how many attempts went to the subscription, and the latest one's state and start. One lookup per event. */
  async summaries(subscriptionId: string, eventIds: readonly string[]): Promise<Map<string, AttemptSummary>> {
    return summarise(await this.#ofEvents(subscriptionId, eventIds, { _id: 0, event_id: 1, state: 1, started_at: 1 }), eventIds);
  }

  /**
   * As `summaries`, for a page of the subscription's events (all it has between the page's first
   * and last): one or two lookups of the page's event groups, whatever the page's length.
   */
  async pageSummaries(subscriptionId: string, eventIds: readonly string[]): Promise<Map<string, AttemptSummary>> {
    const projection = { _id: 0, event_id: 1, state: 1, started_at: 1 };
    // One batch per group: a group may hold a few hundred rows, and each further batch is a round trip.
    const read = (eg: string) => this.#collection.find({ eg }, { projection, batchSize: GROUP_BATCH }).toArray();
    const groups = await Promise.all(groupsToRead(subscriptionId, eventIds).map(read));
    return summarise(groups.flat(), eventIds);
  }

  /**
   * Outcome and start of the subscription's attempts to events emitted from `from` to `now` (and
   * others of their event groups: the caller narrows by time), at most `cap` per group: two or
   * three equality lookups, whatever is stored.
   */
  async recentOutcomes(subscriptionId: string, from: Date, now: Date, cap: number): Promise<Array<Pick<AttemptDoc, 'event_id' | 'outcome' | 'started_at'>>> {
    const projection = { _id: 0, event_id: 1, outcome: 1, started_at: 1 };
    const read = (eg: string) => this.#collection.find({ eg }, { projection, limit: cap, batchSize: cap }).toArray();
    const groups = await Promise.all(groupsBetween(subscriptionId, from.getTime(), now.getTime()).map(read));
    return groups.flat();
  }

  /** Start, duration and outcome of the subscription's attempts started at or after `from`, at most `cap` of them (newest kept). */
  async samplesSince(subscriptionId: string, from: Date, cap: number): Promise<AttemptSample[]> {
    return this.#timeline.page(this.#collection, listKey(subscriptionId), {
      timeField: 'started_at',
      limit: cap,
      notBefore: from,
      projection: { _id: 0, started_at: 1, duration_ms: 1, outcome: 1 },
    });
  }

  /** Events of the subscription's attempts that failed or stopped since `since` (repeats possible), at most `limit` attempts read. */
  async failedEventIdsSince(subscriptionId: string, since: Date, limit: number): Promise<string[]> {
    const read = (state: DeliveryAttemptState) =>
      this.#timeline.page(this.#collection, listKey(subscriptionId, { state }), { timeField: 'started_at', limit, notBefore: since, projection: { event_id: 1 } });
    const [failed, stopped] = await Promise.all([read('failed'), read('stopped')]);
    return [...failed, ...stopped].slice(0, limit).map((a) => a.event_id);
  }

  /** Those of `eventIds` the subscription has a delivered attempt of (repeats possible). */
  async deliveredEventIds(subscriptionId: string, eventIds: readonly string[]): Promise<string[]> {
    const rows = await this.#ofEvents(subscriptionId, eventIds, { event_id: 1, state: 1 });
    return rows.filter((a) => a.state === 'delivered').map((a) => a.event_id);
  }

  /** Whether an attempt of `series` left the event's delivery to the subscription final (delivered, failed or stopped); one indexed lookup. */
  async endedIn(series: string, eventId: string, subscriptionId: string): Promise<boolean> {
    const rows = await this.#collection.find({ event_id: eventId, subscription_id: subscriptionId }, { projection: { _id: 0, series: 1, state: 1 } }).toArray();
    return rows.some((a) => a.series === series && FINAL_STATES.has(a.state));
  }

  /** The attempts of each of `eventIds` to the subscription: one indexed lookup per event. */
  async #ofEvents(subscriptionId: string, eventIds: readonly string[], projection: Record<string, 0 | 1>): Promise<StoredAttempt[]> {
    const perEvent = await Promise.all(
      [...new Set(eventIds)].map((eventId) => this.#collection.find({ event_id: eventId, subscription_id: subscriptionId }, { projection }).toArray()),
    );
    return perEvent.flat();
  }

  async find(id: string): Promise<AttemptDoc | undefined> {
    return (await this.#collection.findOne({ _id: id }, { projection: withoutTimelineFields })) ?? undefined;
  }

  /** Tags what was stored before this collection had lists (see Timeline.backfill); once per database. */
  tagUnlisted(): Promise<number> {
    return this.#timeline.backfill(this.#collection, 'started_at', listsOf);
  }

  /**
   * Gives the attempts stored before attempts had event groups theirs, so pageSummaries sees them;
   * resumable, once per database (a marker in the timeline directory says so). Returns how many it tagged.
   */
  async tagEventGroups(): Promise<number> {
    const directory = this.#collection.db.collection<TimelineEntry>('timeline');
    if (await directory.findOne({ _id: GROUPS_BACKFILLED })) return 0;
    let tagged = 0;
    let batch: Array<Pick<AttemptDoc, '_id' | 'event_id' | 'subscription_id'>> = [];
    // A few updates at a time: FerretDB v1 on PostgreSQL wedges on one update command of many statements.
    const flush = async () => {
      for (let i = 0; i < batch.length; i += 8) {
        await Promise.all(batch.slice(i, i + 8).map((d) => this.#collection.updateOne({ _id: d._id }, { $set: { eg: eventGroups(d.subscription_id, d.event_id) } })));
      }
      tagged += batch.length;
      batch = [];
    };
    for await (const doc of this.#collection.find({ eg: { $exists: false } }, { projection: { _id: 1, event_id: 1, subscription_id: 1 } })) {
      batch.push(doc);
      if (batch.length >= 500) await flush();
    }
    await flush();
    await insertIfAbsent(directory, { _id: GROUPS_BACKFILLED, up: '#', at: new Date(), slot: '#' });
    return tagged;
  }
}

/** Per event of `wanted`, from attempts that may include other events': how many, and the latest one's state and start. */
function summarise(rows: ReadonlyArray<Pick<AttemptDoc, 'event_id' | 'state' | 'started_at'>>, wanted: readonly string[]): Map<string, AttemptSummary> {
  const ids = new Set(wanted);
  const byEvent = new Map<string, AttemptSummary>();
  for (const row of rows) {
    if (!ids.has(row.event_id)) continue;
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
