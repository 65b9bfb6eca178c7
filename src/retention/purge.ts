import type { Db } from 'mongodb';
import { AttemptRepository } from '../deliveries/attempts';
import type { Expiring } from '../db/timeline';
import { EventRepository } from '../events/repository';

/** The collections retention empties of old documents, each through its repository (which knows the date it ages by). */
export const retainedCollections = {
  attempts: (db: Db): Expiring => new AttemptRepository(db).aged,
  events: (db: Db): Expiring => new EventRepository(db).aged,
} as const;

export type RetainedCollection = keyof typeof retainedCollections;

/** Buckets (10 s of documents each) one round reads at most. */
export const BUCKETS_PER_ROUND = 100;

export interface PurgeOptions {
  collection: RetainedCollection;
  /** Documents dated before this are deleted (by whole 10-second buckets). */
  before: Date;
  /** Documents one round deletes, about: a round takes whole buckets until it has deleted this many. */
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
 * Deletes documents older than `before` in rounds: each round deletes whole time buckets of the
 * collection, oldest first, each by one equality delete on its tag (src/db/timeline.ts), so a
 * round costs what it deletes, not what is stored, on MongoDB and on FerretDB alike. Safe to
 * re-run: a pass that crashed resumes with what is still listed as older than `before`.
 */
export async function purgeOlderThan(db: Db, opts: PurgeOptions): Promise<PurgeResult> {
  const aged = retainedCollections[opts.collection](db);
  const started = performance.now();
  let deleted = 0;
  let batches = 0;
  while (batches < opts.maxBatches && performance.now() - started < opts.budgetMs) {
    const round = await aged.expire(opts.before, BUCKETS_PER_ROUND, opts.batchSize);
    deleted += round.deleted;
    batches++;
    opts.onBatch?.(deleted);
    if (!round.more) return { deleted, batches, more: false };
  }
  return { deleted, batches, more: true };
}
