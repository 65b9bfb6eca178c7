import type { Db } from 'mongodb';
import type { DatedBatches } from '../db/dated-batches';
import { AttemptRepository } from '../deliveries/attempts';
import { EventRepository } from '../events/repository';

/** The collections retention empties of old documents, each through its repository (which knows the date it ages by). */
export const retainedCollections = {
  attempts: (db: Db): DatedBatches => new AttemptRepository(db).aged,
  events: (db: Db): DatedBatches => new EventRepository(db).aged,
} as const;

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
 * Deletes documents older than `before` in rounds of at most `batchSize`: finds the oldest
 * `batchSize` by the indexed date, then deletes exactly those as "dated before the last of them,
 * or one of the few that share its date". FerretDB v1 scans the collection for any filter and
 * checks `$in` against every document (an `_id: {$in: batch}` round cost 7.3 s at 100k, and grows
 * with the batch), while a date bound costs one scan whatever the batch, so rounds can be large.
 * Safe to re-run: a pass that crashed resumes by deleting what is still older than `before`.
 */
export async function purgeOlderThan(db: Db, opts: PurgeOptions): Promise<PurgeResult> {
  const aged = retainedCollections[opts.collection](db);
  const started = performance.now();
  let deleted = 0;
  let batches = 0;
  while (batches < opts.maxBatches && performance.now() - started < opts.budgetMs) {
    const rows = await aged.oldestBefore(opts.before, opts.batchSize);
    const last = rows.at(-1)?.at;
    if (!(last instanceof Date)) return { deleted, batches, more: false };
    // Every document dated before `last` is in `rows` (they are the oldest); of those dated `last`, only these.
    const tied = rows.filter((r) => (r.at as Date).getTime() === last.getTime()).map((r) => r._id);
    deleted += await aged.deleteThrough(last, tied);
    batches++;
    opts.onBatch?.(deleted);
    if (rows.length < opts.batchSize) return { deleted, batches, more: false };
  }
  return { deleted, batches, more: true };
}
