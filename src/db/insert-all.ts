import { type Collection, type Document, type Filter, MongoBulkWriteError, MongoServerError, ObjectId, type OptionalUnlessRequiredId } from 'mongodb';

/** How many read-backs (and single inserts) of one checked batch run at once. */
const CHECK_CONCURRENCY = 8;

/** Thrown when a batch write left documents unstored: which ones (indexes into the batch), and why. */
export class UnstoredDocumentsError extends Error {
  constructor(
    readonly collection: string,
    /** Index into the batch, and the database's reason for each document not stored. */
    readonly unstored: ReadonlyArray<{ index: number; reason: string }>,
  ) {
    const shown = unstored.slice(0, 5).map((u) => `#${u.index}: ${u.reason}`);
    super(`${unstored.length} document(s) of a batch of ${collection} not stored (${shown.join('; ')}${unstored.length > 5 ? '; …' : ''})`);
    this.name = 'UnstoredDocumentsError';
  }
}

/**
 * Inserts `docs` in one unordered write and proves each one stored; returns the indexes of those
 * whose `_id` was stored already (by an earlier try). The database's report is not taken on trust:
 * FerretDB v1 on PostgreSQL stops a batch at a document it cannot store and reports no write
 * error for the rest. So whenever the write does not confirm every document, each one is read back
 * by `_id`, and one still missing is inserted alone; any document that is then not stored (or,
 * unless `allowExisting`, was stored before) throws an UnstoredDocumentsError. Other failures
 * (network, timeouts) throw as they are: nothing is known of the batch, a retry finds out.
 */
export async function insertAll<T extends Document>(collection: Collection<T>, docs: readonly T[], opts: { allowExisting: boolean }): Promise<Set<number>> {
  if (docs.length === 0) return new Set();
  // Copies with their ids set here, not by the driver: each is read back by it.
  const sent = docs.map((d) => ({ ...d, _id: (d._id as unknown) ?? new ObjectId() }) as OptionalUnlessRequiredId<T> & { _id: unknown });
  // Indexes the write names as duplicates: candidates for "stored before", confirmed by reading them back.
  const duplicates = new Set<number>();
  const reasons = new Map<number, string>();
  let inserted = 0;
  try {
    const result = await collection.insertMany(sent, { ordered: false });
    if (result.insertedCount === docs.length) return new Set();
  } catch (err) {
    if (!(err instanceof MongoServerError)) throw err;
    const writeErrors = err instanceof MongoBulkWriteError ? [err.writeErrors].flat() : [];
    inserted = err instanceof MongoBulkWriteError ? err.insertedCount : 0;
    for (const e of writeErrors) {
      if (e.code === 11000) duplicates.add(e.index);
      else reasons.set(e.index, `${e.code}: ${e.errmsg ?? 'refused'}`);
    }
  }
  // Every document accounted for (stored, or named a duplicate): only the duplicates need proving.
  const accounted = reasons.size === 0 && inserted + duplicates.size === docs.length;
  const existing = new Set<number>();
  const unstored: Array<{ index: number; reason: string }> = [];
  await eachLimited(sent, async (doc, index) => {
    if (accounted && !duplicates.has(index)) return;
    if (await isStored(collection, doc)) {
      // Found but not named a duplicate: this write stored it.
      if (duplicates.has(index)) existing.add(index);
      return;
    }
    try {
      await collection.insertOne({ ...doc });
    } catch (err) {
      // Stored meanwhile by another writer of the same id: there, as wanted.
      if (err instanceof MongoServerError && err.code === 11000 && (await isStored(collection, doc))) existing.add(index);
      else unstored.push({ index, reason: err instanceof MongoServerError ? `${err.code}: ${err.message}` : (reasons.get(index) ?? String(err)) });
    }
  });
  if (!opts.allowExisting) for (const index of existing) unstored.push({ index, reason: 'E11000 duplicate key: stored before' });
  if (unstored.length > 0) throw new UnstoredDocumentsError(collection.collectionName, unstored.sort((a, b) => a.index - b.index));
  return existing;
}

/** Whether a document with `doc`'s `_id` is stored (one indexed lookup). */
async function isStored<T extends Document>(collection: Collection<T>, doc: { _id: unknown }): Promise<boolean> {
  return (await collection.findOne({ _id: doc._id } as Filter<T>, { projection: { _id: 1 } })) !== null;
}

/** Runs `fn` over `items`, at most CHECK_CONCURRENCY at a time. */
async function eachLimited<T>(items: readonly T[], fn: (item: T, index: number) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += CHECK_CONCURRENCY) {
    await Promise.all(items.slice(start, start + CHECK_CONCURRENCY).map((item, i) => fn(item, start + i)));
  }
}
