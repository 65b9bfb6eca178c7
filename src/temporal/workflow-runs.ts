import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { withTimeout } from '../lib/timing';

/** Longest a describe may take: the caller treats no answer as "not known closed" and asks again later. */
const DESCRIBE_TIMEOUT_MS = 5000;

/** The statuses of a run that has ended; any other (running, or one this SDK does not name) is taken as running. */
const CLOSED: ReadonlySet<string> = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED', 'TIMED_OUT', 'CONTINUED_AS_NEW']);

/**
 * Where a workflow id's latest run stands: running; closed in any way (completed, failed,
 * terminated, timed out, cancelled); or unknown to Temporal (never started, or closed and purged
 * after the namespace's retention).
 */
export type RunState = 'running' | 'closed' | 'absent';

/** Tells where a workflow id's latest run stands (one describe). */
export type WorkflowRuns = (workflowId: string) => Promise<RunState>;

/** {@link WorkflowRuns} over a Temporal client. */
export function workflowRuns(client: Client): WorkflowRuns {
  return async (workflowId) => {
    try {
      const run = await withTimeout(client.workflow.getHandle(workflowId).describe(), DESCRIBE_TIMEOUT_MS, `describing ${workflowId}`);
      return CLOSED.has(run.status.name) ? 'closed' : 'running';
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return 'absent';
      throw err;
    }
  };
}
