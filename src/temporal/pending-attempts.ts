import type { Client } from '@temporalio/client';
import { withTimeout } from '../lib/timing';
import type { Due } from '../../workflows/delivery-model';
import { pendingAttemptsQuery, type TurnWait } from '../../workflows/definitions';

/** Longest a timeline waits for the workflow's answer before it goes on from the attempt log alone. */
const QUERY_TIMEOUT_MS = 2000;

/**
 * The attempt workflow `workflowId` has waiting for `subscriptionId`, from its `pendingAttempts`
 * query (a time, or the earlier event an ordered first attempt waits for); undefined when it has none, has ended, predates the query, or Temporal does not answer in time.
 */
export function pendingAttemptReader(temporal: () => Promise<Client>): (workflowId: string, subscriptionId: string) => Promise<Due | TurnWait | undefined> {
  return async (workflowId, subscriptionId) => {
    try {
      const client = await temporal();
      const handle = client.workflow.getHandle(workflowId);
      const pending = await withTimeout(handle.query(pendingAttemptsQuery), QUERY_TIMEOUT_MS, `querying ${workflowId}`);
      return pending[subscriptionId];
    } catch {
      return undefined;
    }
  };
}
