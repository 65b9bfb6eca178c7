import type { Db } from 'mongodb';
import { type AlertActivityDeps, createAlertActivities } from './alerts';
import { type AttemptActivityDeps, createAttemptActivities } from './attempt';
import { createHeldActivities } from './held';
import { createOrderingActivities } from './ordering';
import { createRetentionActivities } from './retention';
import { createSubscriptionActivities } from './subscription';
import type { WorkflowRuns } from '../src/temporal/workflow-runs';

/** What activities need from the outside world; tests inject fakes. */
export interface ActivityDeps extends AttemptActivityDeps, AlertActivityDeps {
  db: Db;
  /** Identifies this worker in diagnostics. */
  workerIdentity: string;
  /** Share of its time a retention pass spends deleting (RETENTION_BUSY_SHARE; absent: all of it). */
  retentionBusyShare?: number | undefined;
  /** Where an event's workflow stands: the ordering gate asks it of an earlier event no mark says ended (absent: it does not ask). */
  workflowRuns?: WorkflowRuns | undefined;
}

/** The result of the worker's end-to-end self check. */
export interface DiagnosticsResult {
  worker: string;
  database: 'up';
  databaseLatencyMs: number;
}

/** Builds every activity implementation the worker registers: all I/O of a delivery lives here. */
export function createActivities(deps: ActivityDeps) {
  // notifyOperator is a helper of the activities, not one the workflows call.
  const { raiseAlert, notifyOperator } = createAlertActivities(deps);
  return {
    ...createAttemptActivities(deps),
    ...createOrderingActivities({ db: deps.db, workflowRuns: deps.workflowRuns, ...(deps.now ? { now: deps.now } : {}) }),
    raiseAlert,
    ...createSubscriptionActivities({ db: deps.db, ...(deps.now ? { now: deps.now } : {}), raiseAlert, notifyOperator }),
    ...createRetentionActivities({ db: deps.db, busyShare: deps.retentionBusyShare }),
    ...createHeldActivities({ db: deps.db, holdMaxMs: deps.holdMaxMs, raiseAlert, ...(deps.now ? { now: deps.now } : {}) }),

    /** Proves the worker reaches MongoDB: pings it and reports the round trip. */
    async checkDatabase(): Promise<DiagnosticsResult> {
      const started = performance.now();
      await deps.db.command({ ping: 1 });
      return {
        worker: deps.workerIdentity,
        database: 'up',
        databaseLatencyMs: Math.round((performance.now() - started) * 10) / 10,
      };
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
