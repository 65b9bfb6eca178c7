import { Context } from '@temporalio/activity';
import type { Db } from 'mongodb';
import { purgeOlderThan, type PurgeResult, type RetainedCollection } from '../src/retention/purge';

/** One call of the retention activity: a bounded number of delete rounds on one collection. */
export interface DeleteExpiredInput {
  collection: RetainedCollection;
  /** Epoch ms: documents dated before it are deleted (a number: Temporal would turn a Date into a string). */
  beforeMs: number;
  batchSize: number;
}

/** Rounds one activity call runs at most, and for how long it starts new ones: calls stay short and heartbeat. */
export const RETENTION_CALL_LIMITS = { maxBatches: 200, budgetMs: 30_000 };

/** The retention pass's I/O: deleting old attempts and events in bounded rounds. */
export function createRetentionActivities(deps: { db: Db; busyShare?: number | undefined }) {
  return {
    /**
     * Deletes what in `collection` is older than the cutoff, in rounds of `batchSize` (resting
     * between rounds as `busyShare` says), heartbeating
     * after each round so a worker that dies mid-call is noticed within the heartbeat timeout and
     * the retry (or the next call) carries on with what is left.
     */
    async deleteExpired(input: DeleteExpiredInput): Promise<PurgeResult> {
      const ctx = Context.current();
      return purgeOlderThan(deps.db, {
        collection: input.collection,
        before: new Date(input.beforeMs),
        batchSize: input.batchSize,
        ...RETENTION_CALL_LIMITS,
        ...(deps.busyShare !== undefined ? { busyShare: deps.busyShare } : {}),
        onBatch: (deleted) => ctx.heartbeat(deleted),
      });
    },
  };
}
