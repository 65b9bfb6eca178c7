import { continueAsNew, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { deleteExpired } = proxyActivities<Activities>({
  // One call starts rounds for 30 s and heartbeats after each; on FerretDB v1 one round scans the
  // whole collection (tens of seconds at 100k documents on a busy machine), hence the margins.
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '5 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

const dayMs = 24 * 60 * 60 * 1000;

/** Activity calls one run makes before it continues as new: about 6 history events each, so a run stays near 300. */
export const RETENTION_CALLS_PER_RUN = 50;

/** What the `webhook-retention` schedule starts a pass with. */
export interface RetentionInput {
  /** Attempts older than this many days are deleted. */
  retentionDays: number;
  /** Events are kept this much longer than attempts (the longest a delivery retries), so an event outlives its attempts. */
  eventGraceMs: number;
  /** Most documents one delete round handles. */
  batchSize: number;
  /** Where a pass that continued as new stands; absent on a pass's first run. */
  progress?: RetentionProgress;
}

/** A pass's cutoffs (epoch ms, fixed when it started) and what it deleted so far. */
export interface RetentionProgress {
  attemptsBeforeMs: number;
  eventsBeforeMs: number;
  deleted: { attempts: number; events: number };
  batches: number;
}

/** What a pass deleted, shown as the workflow's result in the UI. */
export interface RetentionResult {
  attemptsBefore: string;
  eventsBefore: string;
  deleted: { attempts: number; events: number };
  batches: number;
}

/**
 * One retention pass: deletes attempts older than `retentionDays`, then events older than that
 * plus `eventGraceMs`, in bounded rounds inside short heartbeating activity calls. The cutoffs are
 * fixed when the pass starts (workflow time), so a retried or continued pass deletes the same set.
 */
export async function retentionWorkflow(input: RetentionInput): Promise<RetentionResult> {
  const attemptsBeforeMs = input.progress?.attemptsBeforeMs ?? Date.now() - input.retentionDays * dayMs;
  const progress: RetentionProgress = input.progress ?? {
    attemptsBeforeMs,
    eventsBeforeMs: attemptsBeforeMs - input.eventGraceMs,
    deleted: { attempts: 0, events: 0 },
    batches: 0,
  };
  let calls = 0;
  // Attempts first: an event goes only after its attempts could.
  for (const collection of ['attempts', 'events'] as const) {
    const beforeMs = collection === 'attempts' ? progress.attemptsBeforeMs : progress.eventsBeforeMs;
    for (;;) {
      if (calls === RETENTION_CALLS_PER_RUN) await continueAsNew<typeof retentionWorkflow>({ ...input, progress });
      calls++;
      const r = await deleteExpired({ collection, beforeMs, batchSize: input.batchSize });
      progress.deleted[collection] += r.deleted;
      progress.batches += r.batches;
      if (!r.more) break;
    }
  }
  return {
    attemptsBefore: new Date(progress.attemptsBeforeMs).toISOString(),
    eventsBefore: new Date(progress.eventsBeforeMs).toISOString(),
    deleted: progress.deleted,
    batches: progress.batches,
  };
}
