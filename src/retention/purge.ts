import type { Db } from 'mongodb';

/** The collections retention empties of old documents, each with the date it ages by (indexed, see src/db/indexes.ts). */
export const retainedCollections = { attempts: 'started_at', events: 'created_at' } as const;

export type RetainedCollection = keyof typeof retainedCollections;

export interface PurgeOptions {
  collection: RetainedCollection;
  /** Documents dated before this are deleted. */
  before: Date;
  /** Most documents one round finds and deletes. */
  batchSize: number;
  /** Most rounds in this call; the caller calls again while `more` is true. */
  maxBatches: number;
  /** Stop starting rounds after this long (ms), so one call stays short. */
  budgetMs: number;
  /** Called after each round with the documents deleted so far (an activity heartbeats here). */
  onBatch?: (deleted: number) => void;
}

export interface PurgeResult {
  deleted: number;
  batches: number;
  /** A full last round: there may be more to delete. */
  more: boolean;
}

/**
 * Deletes documents older than `before` in rounds of at most `batchSize`: finds their ids by
 * the indexed date, then deletes exactly those ids. FerretDB v1 has no limit on deleteMany, and
 * the rounds keep each write (and the locks a MongoDB delete holds) small. Safe to re-run:
 * a pass that crashed resumes by deleting what is still older than `before`.
 */
export async function purgeOlderThan(db: Db, opts: PurgeOptions): Promise<PurgeResult> {
  const field = retainedCollections[opts.collection];
  const collection = db.collection<{ _id: string }>(opts.collection);
  const started = performance.now();
  let deleted = 0;
  let batches = 0;
  while (batches < opts.maxBatches && performance.now() - started < opts.budgetMs) {
    const ids = (await collection.find({ [field]: { $lt: opts.before } }, { projection: { _id: 1 } }).limit(opts.batchSize).toArray()).map((d) => d._id);
    if (ids.length === 0) return { deleted, batches, more: false };
    deleted += (await collection.deleteMany({ _id: { $in: ids } })).deletedCount;
    batches++;
    opts.onBatch?.(deleted);
    if (ids.length < opts.batchSize) return { deleted, batches, more: false };
  }
  return { deleted, batches, more: true };
}
