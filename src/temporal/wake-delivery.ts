import type { Client } from '@temporalio/client';
import { withTimeout } from '../lib/timing';
import { retryNowSignal } from '../../workflows/definitions';

/** Longest a report waits for Temporal to take the wake-up; past it the deadline round reads the outcome. */
const SIGNAL_TIMEOUT_MS = 2000;

/** Wakes a delivery workflow's pending attempt to `subscriptionId` now (its retryNow signal). */
export function deliveryWaker(temporal: () => Promise<Client>): (workflowId: string, subscriptionId: string) => Promise<void> {
  return async (workflowId, subscriptionId) => {
    const client = await temporal();
    await withTimeout(client.workflow.getHandle(workflowId).signal(retryNowSignal, { subscriptionId }), SIGNAL_TIMEOUT_MS, `waking ${workflowId}`);
  };
}
