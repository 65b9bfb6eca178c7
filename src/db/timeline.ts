import { LRUCache } from 'lru-cache';
import { type Collection, type Db, type Document, type Filter, MongoServerError, type UpdateFilter } from 'mongodb';
import { insertAll } from './insert-all';
import type { IndexSpec, QueryShape } from './query-shapes';

/**
 * Newest-first listing whose cost does not grow with what is stored.
 *
 * A listed document carries `tl`: one tag per list it belongs to, naming the 10-second bucket of
 * its time (`<key>@0:<bucket>`). A small directory records which buckets hold anything, grouped
 * by hour and then by day (`up` is the parent). A page walks days → hours → buckets newest first
 * and reads only the buckets it needs, each an equality lookup on `tl`; so every query reads a
 * bounded set (a bucket's documents, an hour's buckets, a day's hours, the retained days) on any
 * MongoDB-wire database, including one that cannot sort from an index (FerretDB v1).
 *
 * Writers register a document's buckets before inserting it, so a reader never sees a document
 * whose bucket it cannot find; a registered bucket that stays empty only costs a lookup.
 */

/** Bucket widths, finest first: data buckets, then the directory's hours and days. */
export const LEVEL_MS = [10_000, 3_600_000, 86_400_000] as const;
const TOP = LEVEL_MS.length - 1;

/** One directory entry: a bucket at some level that holds documents of `key`. */
export interface TimelineEntry {
  /** `<namespace>/<key>@<level>:<bucket number>` */
  _id: string;
  /** The parent bucket's id, or `<namespace>/<key>` at the top level. */
  up: string;
  /** Start of the bucket. */
  at: Date;
  /** `<namespace>/<level>:<bucket number>`, the same for every key: retention removes a bucket of all keys at once. */
  slot: string;
}

/** What retention needs of a repository whose documents are all in one list (`all`). */
export interface Expiring {
  /** Deletes what is in buckets that ended by `before`, oldest first (see `Timeline.expire`). */
  expire(before: Date, maxBuckets: number, maxDocs: number): Promise<{ deleted: number; buckets: number; more: boolean }>;
}

/**
 * The queries a timeline makes on a repository's collection for the methods that use it: a
 * bucket read (newest first) for each list method, a bucket delete for retention, both by tag.
 * The repository declares the index `timeline` on (tl, time, tie).
 */
export function timelineShapes(
  collection: string,
  timeField: string,
  methods: { list: readonly string[]; expire?: string },
  tieField = '_id',
): QueryShape[] {
  const page = (method: string): QueryShape => ({
    collection,
    method: `${method} (Timeline.page)`,
    equality: ['tl'],
    range: [timeField, tieField],
    sort: { [timeField]: -1, [tieField]: -1 },
    index: 'timeline',
  });
  return [
    ...methods.list.map(page),
    ...(methods.expire ? [{ collection, method: `${methods.expire} (Timeline.expire)`, equality: ['tl'], index: 'timeline' }] : []),
  ];
}

/** A position in a newest-first list: the last document of the previous page. */
export interface TimelineCursor {
  at: Date;
  id: string;
}

export interface TimelinePageOptions<T extends Document> {
  /** The field holding each document's time (the one its tags were made from). */
  timeField: keyof T & string;
  /** Orders documents of the same time (default `_id`; a cursor needs `_id`). */
  tieField?: keyof T & string;
  limit: number;
  /** Only documents strictly older than this (by time, then `_id`). */
  after?: TimelineCursor;
  /** Only documents at or after this time. */
  notBefore?: Date;
  /** Further equality conditions, matched within each bucket. */
  filter?: Filter<T>;
  projection?: Document;
}

/** How many data buckets one page may read before it stops early (a sparse filter on a long list). */
export const MAX_BUCKETS_PER_PAGE = 2_000;

/** Data buckets a page reads at once: at most this many read beyond the last one it needed. */
const BUCKETS_AT_ONCE = 6;

const bucketOf = (at: Date, level: number): number => Math.floor(at.getTime() / LEVEL_MS[level]!);
const tagOf = (key: string, level: number, bucket: number): string => `${key}@${level}:${bucket}`;

/** The `tl` tags of a document at `at` listed under `keys`. */
export function timelineTags(keys: readonly string[], at: Date): string[] {
  return keys.map((key) => tagOf(key, 0, bucketOf(at, 0)));
}

/** The directory entries (in `namespace`) a document at `at` listed under `keys` needs, every level. */
export function timelineEntries(namespace: string, keys: readonly string[], at: Date): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  for (const key of keys) {
    for (let level = 0; level <= TOP; level += 1) {
      const bucket = bucketOf(at, level);
      const up = level === TOP ? `${namespace}/${key}` : `${namespace}/${tagOf(key, level + 1, bucketOf(at, level + 1))}`;
      entries.push({ _id: `${namespace}/${tagOf(key, level, bucket)}`, up, at: new Date(bucket * LEVEL_MS[level]!), slot: `${namespace}/${level}:${bucket}` });
    }
  }
  return entries;
}

/**
 * The lists of one collection (`namespace`): its directory in the shared `timeline` collection,
 * and what this process already wrote there.
 */
export class Timeline {
  /** Indexes the directory's lookups use: children of a bucket, and one bucket of every key (retention). */
  static readonly indexes: readonly IndexSpec[] = [
    { collection: 'timeline', name: 'up', key: { up: 1 } },
    { collection: 'timeline', name: 'slot', key: { slot: 1 } },
  ];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'timeline', method: 'Timeline.register', equality: ['_id'], index: '_id_' },
    { collection: 'timeline', method: 'Timeline.page / expire (children of a bucket)', equality: ['up'], index: 'up' },
    { collection: 'timeline', method: 'Timeline.expire (a bucket of every key)', equality: ['slot'], index: 'slot' },
  ];

  private readonly entries: Collection<TimelineEntry>;
  // Entries known to exist: most documents land in a bucket this process registered already.
  private readonly known = new LRUCache<string, true>({ max: 50_000 });
  // Entries being written now: concurrent writers of a new bucket share one insert, not one each.
  private readonly registering = new Map<string, Promise<void>>();

  constructor(
    db: Db,
    private readonly namespace: string,
    collectionName = 'timeline',
  ) {
    this.entries = db.collection<TimelineEntry>(collectionName);
  }

  /** Creates the directory's indexes (in whatever collection this directory uses). */
  async ensureIndexes(): Promise<void> {
    await Promise.all(Timeline.indexes.map((i) => this.entries.createIndex({ ...i.key }, { name: i.name })));
  }

  /** Records the buckets of documents about to be written; idempotent, cheap when already known. */
  async register(items: ReadonlyArray<{ keys: readonly string[]; at: Date }>): Promise<void> {
    const missing = new Map<string, TimelineEntry>();
    const pending = new Set<Promise<void>>();
    for (const { keys, at } of items) {
      // A bucket is registered with its hour and day: a known bucket needs nothing more.
      const unknown = keys.filter((key) => !this.known.has(`${this.namespace}/${tagOf(key, 0, bucketOf(at, 0))}`));
      if (unknown.length === 0) continue;
      for (const entry of timelineEntries(this.namespace, unknown, at)) {
        if (this.known.has(entry._id)) continue;
        const underWay = this.registering.get(entry._id);
        if (underWay) pending.add(underWay);
        else missing.set(entry._id, entry);
      }
    }
    if (missing.size > 0) {
      // Another process may have registered some first: an entry that exists is all that is wanted.
      const write = insertAll(this.entries, [...missing.values()], { allowExisting: true })
        .then(() => {
          for (const id of missing.keys()) this.known.set(id, true);
        })
        .finally(() => {
          for (const id of missing.keys()) if (this.registering.get(id) === write) this.registering.delete(id);
        });
      for (const id of missing.keys()) this.registering.set(id, write);
      pending.add(write);
    }
    await Promise.all(pending);
  }

  /**
   * The documents with the tags of their lists (`listsOf`) at their time (`timeOf`), once those
   * lists' buckets are registered: what a repository writes, so no list ever misses it.
   */
  async listed<T extends Document>(docs: readonly T[], listsOf: (doc: T) => string[], timeOf: (doc: T) => Date): Promise<Array<T & { tl: string[] }>> {
    const items = docs.map((d) => ({ keys: listsOf(d), at: timeOf(d) }));
    await this.register(items);
    return docs.map((d, i) => ({ ...d, tl: timelineTags(items[i]!.keys, items[i]!.at) }));
  }

  /**
   * The newest documents of `data` listed under `key`, newest first (time, then `_id`), at most
   * `limit`; reads buckets newest first and stops as soon as the page is full.
   */
  async page<T extends Document>(data: Collection<T>, key: string, opts: TimelinePageOptions<T>): Promise<T[]> {
    const out: T[] = [];
    let budget = MAX_BUCKETS_PER_PAGE;
    const upper = opts.after?.at;
    const lower = opts.notBefore;
    // Children of `up` that may hold documents in [lower, upper], newest first.
    const children = async (up: string, level: number): Promise<TimelineEntry[]> => {
      const rows = await this.entries.find({ up }).toArray();
      return rows
        .filter((e) => (!upper || e.at <= upper) && (!lower || e.at.getTime() + LEVEL_MS[level]! > lower.getTime()))
        .sort((a, b) => b.at.getTime() - a.at.getTime());
    };
    const walk = async (up: string, level: number): Promise<void> => {
      const entries = await children(up, level);
      if (level > 0) {
        for (const entry of entries) {
          if (out.length >= opts.limit || budget <= 0) return;
          await walk(entry._id, level - 1);
        }
        return;
      }
      // Buckets a few at a time: a sparse list (a document every few buckets) costs round trips, not reads.
      for (let i = 0; i < entries.length && out.length < opts.limit && budget > 0; i += BUCKETS_AT_ONCE) {
        const batch = entries.slice(i, i + Math.min(BUCKETS_AT_ONCE, budget));
        budget -= batch.length;
        const want = opts.limit - out.length;
        const read = await Promise.all(batch.map((e) => this.readBucket(data, e._id.slice(this.namespace.length + 1), opts, want)));
        for (const docs of read) out.push(...docs.slice(0, opts.limit - out.length));
      }
    };
    await walk(`${this.namespace}/${key}`, TOP);
    return out;
  }

  private async readBucket<T extends Document>(data: Collection<T>, tag: string, opts: TimelinePageOptions<T>, limit: number): Promise<T[]> {
    const t = opts.timeField;
    const range: Document[] = [];
    if (opts.after) range.push({ $or: [{ [t]: { $lt: opts.after.at } }, { [t]: opts.after.at, _id: { $lt: opts.after.id } }] });
    if (opts.notBefore) range.push({ [t]: { $gte: opts.notBefore } });
    const filter = { ...(opts.filter ?? {}), tl: tag, ...(range.length ? { $and: range } : {}) } as Filter<T>;
    return data
      .find(filter, opts.projection ? { projection: opts.projection } : {})
      .sort({ [t]: -1, [opts.tieField ?? '_id']: -1 })
      .limit(limit)
      .toArray() as Promise<T[]>;
  }

  /**
   * Deletes the documents of `data` in buckets that ended by `before`, oldest first, with their
   * directory entries (of every key): each an equality delete on a bucket. `key` must list every
   * document (e.g. `all`). Stops before a bucket once `maxBuckets` were read or `maxDocs` deleted;
   * `more` when some are left.
   */
  async expire<T extends Document>(
    data: Collection<T>,
    key: string,
    before: Date,
    maxBuckets: number,
    maxDocs = Number.POSITIVE_INFINITY,
  ): Promise<{ deleted: number; buckets: number; more: boolean }> {
    let deleted = 0;
    let buckets = 0;
    const ended = (e: TimelineEntry, level: number) => e.at.getTime() + LEVEL_MS[level]! <= before.getTime();
    const oldestFirst = async (up: string) => (await this.entries.find({ up }).toArray()).sort((a, b) => a.at.getTime() - b.at.getTime());
    const walk = async (up: string, level: number): Promise<boolean> => {
      for (const entry of await oldestFirst(up)) {
        if (entry.at >= before) return true;
        if (buckets >= maxBuckets || deleted >= maxDocs) return false;
        if (level === 0) {
          if (!ended(entry, 0)) return true;
          deleted += (await data.deleteMany({ tl: entry._id.slice(this.namespace.length + 1) } as unknown as Filter<T>)).deletedCount;
          buckets += 1;
        } else if (!(await walk(entry._id, level - 1))) {
          return false;
        }
        // Parents last, so a crash part-way leaves a path down to what is left.
        if (ended(entry, level)) await this.entries.deleteMany({ slot: entry.slot });
      }
      return true;
    };
    const done = await walk(`${this.namespace}/${key}`, TOP);
    return { deleted, buckets, more: !done };
  }

  /**
   * Lists the documents of `data` written before it had lists (no `tl`): one pass in batches,
   * registering their buckets and then setting their tags; resumable (it picks up whatever is
   * still untagged) and done once per namespace (a marker entry says so). Returns how many it tagged.
   */
  async backfill<T extends { _id: unknown }>(data: Collection<T>, timeField: keyof T & string, listsOf: (doc: T) => string[], batchSize = 500): Promise<number> {
    const marker = `${this.namespace}/#backfilled`;
    if (await this.entries.findOne({ _id: marker })) return 0;
    // The directory must exist before the cursor opens: FerretDB v1 on PostgreSQL deadlocks when a
    // collection is created while a cursor of the same database is open (metadata lock vs. the cursor).
    await this.ensureIndexes();
    let tagged = 0;
    let batch: T[] = [];
    const flush = async () => {
      const dated = batch.filter((d) => d[timeField] instanceof Date);
      await this.register(dated.map((d) => ({ keys: listsOf(d), at: d[timeField] as Date })));
      // One update each, a few at a time: FerretDB v1 on PostgreSQL wedges on an update command of
      // ~50+ statements (each holds a pooled connection while the next waits for one).
      for (let i = 0; i < dated.length; i += 8) {
        await Promise.all(
          dated.slice(i, i + 8).map((d) =>
            data.updateOne({ _id: d._id } as Filter<T>, { $set: { tl: timelineTags(listsOf(d), d[timeField] as Date) } } as unknown as UpdateFilter<T>),
          ),
        );
      }
      tagged += dated.length;
      batch = [];
    };
    for await (const doc of data.find({ tl: { $exists: false } } as unknown as Filter<T>)) {
      batch.push(doc as T);
      if (batch.length >= batchSize) await flush();
    }
    await flush();
    await this.entries.insertOne({ _id: marker, up: '#', at: new Date(), slot: '#' }).catch((err: unknown) => {
      if (!isOnlyDuplicates(err)) throw err;
    });
    return tagged;
  }
}

function isOnlyDuplicates(err: unknown): boolean {
  if (!(err instanceof MongoServerError)) return false;
  const writeErrors = (err as MongoServerError & { writeErrors?: Array<{ code?: number }> }).writeErrors;
  if (Array.isArray(writeErrors) && writeErrors.length) return writeErrors.every((e) => e.code === 11000);
  return err.code === 11000;
}
