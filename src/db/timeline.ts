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
 *
 * A listed document also carries `tl_tenth`, the tenth (1 s) of its bucket it falls in (0–9), and
 * a writer that has tagged DENSE_AFTER documents of one list's bucket records that the bucket is
 * dense (an entry `…#dense` beside it). A page of up to TENTHS_UP_TO documents reads a dense bucket
 * tenth by tenth, newest first (`tl` and `tl_tenth`, both equalities), so FerretDB reads about a
 * page of documents, not 10 s of them; a larger read takes the whole bucket. The entry only
 * chooses how to read: every document carries both fields.
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
    // A dense bucket is read by tenths.
    optional: [TENTH_FIELD],
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

/**
 * Documents of one list's bucket a writer tags before it records the bucket as dense: about 10 a
 * tenth, where a page of 20 reads two or three tenths (30 documents) rather than the bucket.
 */
export const DENSE_AFTER = 100;

/** Reads of at most this many documents read a dense bucket by its tenths; larger ones whole (a few round trips fewer). */
export const TENTHS_UP_TO = 50;

/** Tenths of a bucket a dense one is read by. */
const TENTHS = 10;
const TENTH_MS = LEVEL_MS[0] / TENTHS;

/** The field holding a listed document's tenth of its bucket. */
const TENTH_FIELD = 'tl_tenth';

/** A projection leaving out what the timeline adds to a listed document. */
export const withoutTimelineFields = { tl: 0, [TENTH_FIELD]: 0 } as const;

/** What follows a bucket entry's id in the entry that says the bucket is dense. */
const DENSE_MARK = '#dense';

const bucketOf = (at: Date, level: number): number => Math.floor(at.getTime() / LEVEL_MS[level]!);
const tagOf = (key: string, level: number, bucket: number): string => `${key}@${level}:${bucket}`;

/** The `tl` tags of a document at `at` listed under `keys`: its buckets, whole. */
export function timelineTags(keys: readonly string[], at: Date): string[] {
  return keys.map((key) => tagOf(key, 0, bucketOf(at, 0)));
}

/** The tenth (0–9) of its 10-second bucket that time `at` falls in. */
export function tenthOf(at: Date): number {
  return Math.floor((at.getTime() - bucketOf(at, 0) * LEVEL_MS[0]) / TENTH_MS);
}

/** The entry (in `namespace`) saying that `key`'s bucket at `at` is dense: beside the bucket, removed with it. */
export function denseEntry(namespace: string, key: string, at: Date): TimelineEntry {
  const bucket = timelineEntries(namespace, [key], at)[0]!;
  return { ...bucket, _id: `${bucket._id}${DENSE_MARK}` };
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

/** How a repository's writes are listed. */
export interface ListWriting {
  /** Buckets begun before this (ms) are never recorded dense (default: when the lists were made); 0 for a writer that knows every stored document carries `tl_tenth`. */
  denseSince?: number;
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
  // Directory entries pages have read: where the next page of a list may read ahead (a hint, never needed to be right).
  private readonly present = new LRUCache<string, true>({ max: 10_000 });
  // Documents this process tagged per bucket entry: at DENSE_AFTER it records the bucket as dense.
  private readonly tagged = new LRUCache<string, number>({ max: 50_000 });
  private readonly whole: ReadonlySet<string>;
  /** Buckets begun before this (ms) are never recorded dense: they may hold documents without `tl_tenth`. */
  private readonly denseSince: number;

  /** `whole`: lists never recorded as dense, always read bucket by bucket (those only retention reads). */
  constructor(
    db: Db,
    private readonly namespace: string,
    collectionName = 'timeline',
    { whole = ['all'], denseSince = Date.now() }: { whole?: readonly string[] } & ListWriting = {},
  ) {
    this.entries = db.collection<TimelineEntry>(collectionName);
    this.whole = new Set(whole);
    this.denseSince = denseSince;
  }

  /** Creates the directory's indexes (in whatever collection this directory uses). */
  async ensureIndexes(): Promise<void> {
    await Promise.all(Timeline.indexes.map((i) => this.entries.createIndex({ ...i.key }, { name: i.name })));
  }

  /** Records the buckets of documents about to be written; idempotent, cheap when already known. */
  async register(items: ReadonlyArray<{ keys: readonly string[]; at: Date }>): Promise<void> {
    await this.ensure(this.unknownEntries(items));
  }

  /** The directory entries of `items`' buckets this process does not know to exist. */
  private unknownEntries(items: ReadonlyArray<{ keys: readonly string[]; at: Date }>): TimelineEntry[] {
    const out: TimelineEntry[] = [];
    for (const { keys, at } of items) {
      // A bucket is registered with its hour and day: a known bucket needs nothing more.
      const unknown = keys.filter((key) => !this.known.has(`${this.namespace}/${tagOf(key, 0, bucketOf(at, 0))}`));
      if (unknown.length > 0) out.push(...timelineEntries(this.namespace, unknown, at));
    }
    return out;
  }

  /** Makes sure `wanted` entries exist: one insert of those neither known nor being written already. */
  private async ensure(wanted: readonly TimelineEntry[]): Promise<void> {
    const missing = new Map<string, TimelineEntry>();
    const pending = new Set<Promise<void>>();
    for (const entry of wanted) {
      if (this.known.has(entry._id)) continue;
      const underWay = this.registering.get(entry._id);
      if (underWay) pending.add(underWay);
      else missing.set(entry._id, entry);
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
   * The tag of a document at `at` in list `key`, its bucket's. The DENSE_AFTER-th document of a
   * bucket this process tags (unless of a `whole` list) adds the bucket's dense entry to `dense`.
   */
  private bucketTag(key: string, at: Date, dense: TimelineEntry[]): string {
    const tag = tagOf(key, 0, bucketOf(at, 0));
    if (this.whole.has(key)) return tag;
    const id = `${this.namespace}/${tag}`;
    const n = (this.tagged.get(id) ?? 0) + 1;
    this.tagged.set(id, n);
    // Only a bucket begun since this process tags tenths: an older one may hold untagged documents an earlier version wrote.
    if (n >= DENSE_AFTER && bucketOf(at, 0) * LEVEL_MS[0] >= this.denseSince && !this.known.has(`${id}${DENSE_MARK}`)) dense.push(denseEntry(this.namespace, key, at));
    return tag;
  }

  /**
   * The documents with the tags of their lists (`listsOf`) at their time (`timeOf`), once those
   * lists' buckets are registered: what a repository writes, so no list ever misses it.
   */
  async listed<T extends Document>(docs: readonly T[], listsOf: (doc: T) => string[], timeOf: (doc: T) => Date): Promise<Array<T & { tl: string[]; tl_tenth: number }>> {
    const items = docs.map((d) => ({ keys: listsOf(d), at: timeOf(d) }));
    const dense: TimelineEntry[] = [];
    const tags = items.map(({ keys, at }) => keys.map((key) => this.bucketTag(key, at, dense)));
    await this.ensure([...this.unknownEntries(items), ...dense]);
    return docs.map((d, i) => ({ ...d, tl: tags[i]!, [TENTH_FIELD]: tenthOf(items[i]!.at) }));
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
    // What the page's reads returned so far: how many the next batch reads.
    const seen = { reads: 0, docs: 0 };
    // One read first (of tenths: those that should fill the page, and one); then as many as should
    // fill the page at what a read returns (a sparse list costs round trips, a dense one few reads
    // beyond its page); doubling while reads return nothing.
    const batchSize = (want: number, tenth: boolean): number => {
      if (seen.reads === 0) return tenth ? Math.min(BUCKETS_AT_ONCE, Math.ceil(want / (DENSE_AFTER / TENTHS)) + 1) : 1;
      // A dense bucket holds DENSE_AFTER or more: a tenth, DENSE_AFTER / TENTHS on average.
      const perRead = Math.max(tenth ? DENSE_AFTER / TENTHS : 0, seen.docs / seen.reads);
      if (perRead === 0) return Math.min(BUCKETS_AT_ONCE, 2 ** seen.reads);
      return Math.min(BUCKETS_AT_ONCE, Math.ceil(want / perRead));
    };
    const ahead = this.readAhead(key, upper ?? new Date());
    // Children of `up` that may hold documents in [lower, upper], newest first.
    const children = async (up: string, level: number): Promise<TimelineEntry[]> => {
      const rows = await (ahead.get(up) ?? this.entries.find({ up }).toArray());
      if (level > 0) for (const row of rows) this.present.set(row._id, true);
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
      // A bucket being written has no documents in its tenths to come: a first page skips them (a writer's clock a tenth ahead allowed).
      const reads = this.bucketReads(entries, opts.limit <= TENTHS_UP_TO, upper ?? new Date(Date.now() + TENTH_MS), lower);
      for (let i = 0; i < reads.length && out.length < opts.limit && budget > 0; ) {
        const want = opts.limit - out.length;
        const batch = reads.slice(i, i + Math.min(batchSize(want, reads[i]!.tenth !== undefined), budget));
        i += batch.length;
        budget -= batch.length;
        const read = await Promise.all(batch.map(({ tag, tenth }) => this.readBucket(data, tag, tenth, opts, want)));
        seen.reads += batch.length;
        for (const docs of read) {
          seen.docs += docs.length;
          out.push(...docs.slice(0, opts.limit - out.length));
        }
      }
    };
    await walk(`${this.namespace}/${key}`, TOP);
    return out;
  }

  /**
   * The directory reads of a page at once, not level after level: the list's days, and the
   * children of the day and the hour `from` falls in when this process knows they exist (it wrote
   * or read them). The walk takes what it needs from here; a read it does not need costs a lookup.
   */
  private readAhead(key: string, from: Date): Map<string, Promise<TimelineEntry[]>> {
    const top = `${this.namespace}/${key}`;
    const path = timelineEntries(this.namespace, [key], from).filter((e, level) => level > 0 && (this.known.has(e._id) || this.present.has(e._id)));
    const reads = new Map<string, Promise<TimelineEntry[]>>();
    for (const up of [top, ...path.map((e) => e._id)]) {
      const read = this.entries.find({ up }).toArray();
      // A read the walk never reaches must not fail unhandled; one it reaches throws there.
      read.catch(() => undefined);
      reads.set(up, read);
    }
    return reads;
  }

  /**
   * What to read, newest first, of an hour's children (bucket entries and dense entries, newest
   * first): each bucket whole, or with `tenths`, those tenths of a dense one that may hold
   * documents in [lower, upper].
   */
  private bucketReads(entries: readonly TimelineEntry[], tenths: boolean, upper: Date | undefined, lower: Date | undefined): Array<{ tag: string; tenth?: number }> {
    const dense = new Set(entries.filter((e) => e._id.endsWith(DENSE_MARK)).map((e) => e._id.slice(0, -DENSE_MARK.length)));
    const reads: Array<{ tag: string; tenth?: number }> = [];
    for (const e of entries) {
      if (e._id.endsWith(DENSE_MARK)) continue;
      const tag = e._id.slice(this.namespace.length + 1);
      if (!tenths || !dense.has(e._id)) {
        reads.push({ tag });
        continue;
      }
      for (let tenth = TENTHS - 1; tenth >= 0; tenth -= 1) {
        const from = e.at.getTime() + tenth * TENTH_MS;
        if ((upper && from > upper.getTime()) || (lower && from + TENTH_MS <= lower.getTime())) continue;
        reads.push({ tag, tenth });
      }
    }
    return reads;
  }

  private async readBucket<T extends Document>(data: Collection<T>, tag: string, tenth: number | undefined, opts: TimelinePageOptions<T>, limit: number): Promise<T[]> {
    const t = opts.timeField;
    const range: Document[] = [];
    if (opts.after) range.push({ $or: [{ [t]: { $lt: opts.after.at } }, { [t]: opts.after.at, _id: { $lt: opts.after.id } }] });
    if (opts.notBefore) range.push({ [t]: { $gte: opts.notBefore } });
    const filter = { ...(opts.filter ?? {}), tl: tag, ...(tenth === undefined ? {} : { [TENTH_FIELD]: tenth }), ...(range.length ? { $and: range } : {}) } as Filter<T>;
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
