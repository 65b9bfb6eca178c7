import { isDeepStrictEqual } from 'node:util';
import { type Client, type ScheduleDescription, ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import type { RetentionInput, retentionWorkflow } from '../../workflows/retention';

/** The retention schedule of the default task queue, visible under Schedules in the Temporal UI. */
export const RETENTION_SCHEDULE_ID = 'webhook-retention';

/**
 * The schedule's id: `webhook-retention`, or `webhook-retention-<task queue>` for another task
 * queue, so deployments (and test runs) sharing a namespace each keep their own database clean.
 */
export function retentionScheduleId(taskQueue: string): string {
  return taskQueue === 'webhook-deliveries' ? RETENTION_SCHEDULE_ID : `${RETENTION_SCHEDULE_ID}-${taskQueue}`;
}

export interface RetentionSchedule {
  taskQueue: string;
  /** How often a pass starts. */
  intervalMs: number;
  input: RetentionInput;
}

/** What a schedule looks like when it matches `want`: the interval, the workflow and its input, SKIP on overlap. */
function matches(desc: ScheduleDescription, want: RetentionSchedule): boolean {
  const interval = desc.spec.intervals ?? [];
  return (
    interval.length === 1 &&
    interval[0]?.every === want.intervalMs &&
    (desc.spec.calendars?.length ?? 0) === 0 &&
    desc.action.type === 'startWorkflow' &&
    desc.action.workflowType === 'retentionWorkflow' &&
    desc.action.taskQueue === want.taskQueue &&
    isDeepStrictEqual(desc.action.args, [want.input]) &&
    desc.policies.overlap === ScheduleOverlapPolicy.SKIP
  );
}

function options(want: RetentionSchedule) {
  return {
    spec: { intervals: [{ every: want.intervalMs }] },
    action: { type: 'startWorkflow' as const, workflowType: 'retentionWorkflow' as unknown as typeof retentionWorkflow, workflowId: retentionScheduleId(want.taskQueue), taskQueue: want.taskQueue, args: [want.input] as [RetentionInput] },
    // A pass still running when the next is due: the next is skipped, never run beside it.
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
  };
}

/**
 * Creates the retention schedule, or brings an existing one to `want`; idempotent, so every worker
 * runs it at start and several racing are fine (a lost create race turns into a compare).
 */
export async function ensureRetentionSchedule(client: Client, want: RetentionSchedule): Promise<'created' | 'updated' | 'unchanged'> {
  const scheduleId = retentionScheduleId(want.taskQueue);
  const handle = client.schedule.getHandle(scheduleId);
  const current = await handle.describe().catch((err: unknown) => {
    if (err instanceof ScheduleNotFoundError) return undefined;
    throw err;
  });
  if (!current) {
    try {
      await client.schedule.create({ scheduleId, ...options(want) });
      return 'created';
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      return ensureRetentionSchedule(client, want);
    }
  }
  if (matches(current, want)) return 'unchanged';
  await handle.update((previous) => ({ ...previous, ...options(want), state: { paused: previous.state.paused, note: previous.state.note } }));
  return 'updated';
}

/** Deletes the task queue's retention schedule (RETENTION_DAYS=off); true when there was one. */
export async function removeRetentionSchedule(client: Client, taskQueue: string): Promise<boolean> {
  try {
    await client.schedule.getHandle(retentionScheduleId(taskQueue)).delete();
    return true;
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return false;
    throw err;
  }
}
