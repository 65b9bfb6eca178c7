import type { Db } from 'mongodb';
import { createDeliveryActivities, type DeliveryActivityDeps } from './delivery';

/** What activities need from the outside world; tests inject fakes. */
export interface ActivityDeps extends DeliveryActivityDeps {
  db: Db;
  /** Identifies this worker in diagnostics. */
  workerIdentity: string;
}

/** The result of the worker's end-to-end self check. */
export interface DiagnosticsResult {
  worker: string;
  database: 'up';
  databaseLatencyMs: number;
}

/** Builds every activity implementation the worker registers. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createDeliveryActivities(deps),

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
