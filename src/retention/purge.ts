import type { Db } from 'mongodb';
import { AttemptRepository } from '../deliveries/attempts';
import { InboxRepository } from '../deliveries/inbox';
import type { Expiring } from '../db/timeline';
import { OrderingMarks } from '../events/ordering-marks';
import { EventRepository } from '../events/repository';
import { TransitionClaims } from '../orders/transition-claims';

/**
 * One list after another: a round takes what the first has left to delete, then spends what is
 * left of the round's budget on the next; `more` while any has some left.
 */
export function expireInTurn(...lists: readonly Expiring[]): Expiring {
  return {
    async expire(before, maxBuckets, maxDocs) {
      const total = { deleted: 0, buckets: 0, more: false };
      for (const list of lists) {
        const r = await list.expire(before, Math.max(0, maxBuckets - total.buckets), Math.max(0, maxDocs - total.deleted));
        total.deleted += r.deleted;
        total.buckets += r.buckets;
        if (r.more) return { ...total, more: true };
      }
      return total;
    },
  };
}

/**
 * The collections retention empties of old documents, each through its repository (which knows
 * the date it ages by). `attempts` also takes the pull messages (inbox) of the same age: each is
 * one attempt's transport copy (and its settlement), settled or expired days before the attempts' cutoff (a message's
 * deadline is minutes), so they go with the attempt log and count as `attempts` in a pass's result.
 * `events` also takes the ordering marks (src/events/ordering-marks.ts) of the same age, after the
 * events: a mark is dated after its event, so an event is never logged without its mark. It also
 * takes the claims of order status changes (src/orders/transition-claims.ts) of that age: a claim
 * matters for its lease of seconds, and an order's later changes claim later places.
 */
export const retainedCollections = {
  attempts: (db: Db): Expiring => {
    const inbox = new InboxRepository(db);
    return expireInTurn(new AttemptRepository(db).aged, inbox.aged, inbox.agedSettlements);
  },
  events: (db: Db): Expiring => expireInTurn(new EventRepository(db).aged, new OrderingMarks(db).aged, new TransitionClaims(db).aged),
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
  /**
   * Share of the time spent deleting, in (0, 1] (default 1): after a round of d ms the purge rests
   * d × (1 − share) / share ms, so a large backlog leaves the database to the live load between rounds.
   */
  busyShare?: number;
  /** Waits `ms` (tests inject their own, with `clock`). */
  rest?: (ms: number) => Promise<void>;
  /** Milliseconds now (default performance.now). */
  clock?: () => number;
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
export function purgeOlderThan(db: Db, opts: PurgeOptions): Promise<PurgeResult> {
  return purgeRounds(retainedCollections[opts.collection](db), opts);
}

/** The rounds of `purgeOlderThan` on any expiring list. */
export async function purgeRounds(aged: Expiring, opts: Omit<PurgeOptions, 'collection'>): Promise<PurgeResult> {
  const now = opts.clock ?? (() => performance.now());
  const started = now();
  let deleted = 0;
  let batches = 0;
  const share = opts.busyShare ?? 1;
  const rest = opts.rest ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  while (batches < opts.maxBatches && now() - started < opts.budgetMs) {
    const roundStarted = now();
    const round = await aged.expire(opts.before, BUCKETS_PER_ROUND, opts.batchSize);
    deleted += round.deleted;
    batches++;
    opts.onBatch?.(deleted);
    if (!round.more) return { deleted, batches, more: false };
    const restMs = ((now() - roundStarted) * (1 - share)) / share;
    if (restMs > 0) await rest(Math.min(restMs, Math.max(0, opts.budgetMs - (now() - started))));
  }
  return { deleted, batches, more: true };
}
