import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Runtime, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withTimeout } from '../../../src/lib/timing';
import { preloadModules, workflowsPath } from '../../../src/worker/create-worker';
import { RETENTION_CALLS_PER_RUN, type RetentionInput, type retentionWorkflow } from '../../../workflows/retention';
import { type FakeScript, fakeActivities } from './support/fake-activities';

// The real retention workflow on the real Temporal dev server, with scripted fake activities:
// how it orders, bounds and continues its activity calls. The deleting itself is tested on the
// real database in test/integration/retention/.

const dayMs = 24 * 60 * 60 * 1000;
let bundle: WorkflowBundleWithSourceMap;
let nativeConnection: NativeConnection;
let connection: Connection;
let client: Client;

beforeAll(async () => {
  bundle = await bundleWorkflowCode({ workflowsPath, preloadModules, logger: Runtime.instance().logger });
  nativeConnection = await NativeConnection.connect({ address: inject('temporalAddress') });
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection });
});

afterAll(async () => {
  await connection?.close();
  await nativeConnection?.close();
});

async function runPass(deleteExpired: FakeScript['deleteExpired'], input: RetentionInput) {
  const taskQueue = `retention-workflow-${randomUUID()}`;
  const { activities, calls } = fakeActivities({ attempt: () => ({ outcome: 'skipped', reason: 'not used' }), deleteExpired });
  const worker = await Worker.create({ connection: nativeConnection, taskQueue, workflowBundle: bundle, activities });
  const workflowId = `retention-${randomUUID()}`;
  const before = Date.now();
  const handle = await client.workflow.start<typeof retentionWorkflow>('retentionWorkflow', { taskQueue, workflowId, args: [input] });
  const result = await worker.runUntil(withTimeout(handle.result(), 60_000, workflowId));
  const firstRun = await client.workflow.getHandle(workflowId, handle.firstExecutionRunId).describe();
  return { result, calls, before, after: Date.now(), firstRunStatus: firstRun.status.name };
}

describe('retentionWorkflow', () => {
  it('deletes attempts first, then events with their grace, until a call reports nothing more', async () => {
    const graceMs = 5 * 60 * 60 * 1000;
    const { result, calls, before, after, firstRunStatus } = await runPass(
      // Attempts take three calls (the last one short), events one.
      (input, n) => (input.collection === 'attempts' ? { deleted: n < 3 ? 20 : 5, batches: n < 3 ? 2 : 1, more: n < 3 } : { deleted: 7, batches: 1, more: false }),
      { retentionDays: 30, eventGraceMs: graceMs, batchSize: 10 },
    );
    expect(firstRunStatus).toBe('COMPLETED');
    expect(calls.deleteExpired.map((c) => c.collection)).toEqual(['attempts', 'attempts', 'attempts', 'events']);
    expect(result).toMatchObject({ deleted: { attempts: 45, events: 7 }, batches: 6 });
    const attemptsBefore = calls.deleteExpired[0]!.beforeMs;
    // Fixed once, from the workflow's clock when the pass started: 30 days ago.
    expect(attemptsBefore).toBeGreaterThanOrEqual(before - 30 * dayMs - 1000);
    expect(attemptsBefore).toBeLessThanOrEqual(after - 30 * dayMs);
    expect(calls.deleteExpired.slice(0, 3).every((c) => c.beforeMs === attemptsBefore && c.batchSize === 10)).toBe(true);
    expect(calls.deleteExpired[3]!.beforeMs).toBe(attemptsBefore - graceMs);
    expect(result.attemptsBefore).toBe(new Date(attemptsBefore).toISOString());
    expect(result.eventsBefore).toBe(new Date(attemptsBefore - graceMs).toISOString());
  });

  it('continues as new after its bounded number of calls, keeping the cutoffs and the counts', async () => {
    const attemptCalls = RETENTION_CALLS_PER_RUN + 10;
    let attemptsSeen = 0;
    const { result, calls, firstRunStatus } = await runPass(
      (input) => {
        if (input.collection === 'events') return { deleted: 1, batches: 1, more: false };
        attemptsSeen++;
        return attemptsSeen < attemptCalls ? { deleted: 10, batches: 1, more: true } : { deleted: 0, batches: 0, more: false };
      },
      { retentionDays: 7, eventGraceMs: 0, batchSize: 10 },
    );
    expect(calls.deleteExpired.filter((c) => c.collection === 'attempts')).toHaveLength(attemptCalls);
    expect(new Set(calls.deleteExpired.map((c) => c.beforeMs)).size).toBe(1);
    expect(result).toMatchObject({ deleted: { attempts: 10 * (attemptCalls - 1), events: 1 } });
    // The first run ended by continuing as new: each run's history stays bounded.
    expect(firstRunStatus).toBe('CONTINUED_AS_NEW');
  });
});
