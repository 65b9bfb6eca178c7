import type { Client } from '@temporalio/client';
import { withTimeout } from '../lib/timing';
import { retryNowSignal } from '../../workflows/definitions';

/** Longest a report waits for Temporal to take the wake-up; past it the deadline round reads the outcome. */
const SIGNAL_TIMEOUT_MS = 2000;

/** Wakes a delivery workflow's pending attempt to `subscriptionId` (its retryNow signal): now, or a held one at epoch ms `at`. */
export function deliveryWaker(temporal: () => Promise<Client>): (workflowId: string, subscriptionId: string, at?: number) => Promise<void> {
  return async (workflowId, subscriptionId, at) => {
    const client = await temporal();
    await withTimeout(client.workflow.getHandle(workflowId).signal(retryNowSignal, { subscriptionId, ...(at !== undefined ? { at } : {}) }), SIGNAL_TIMEOUT_MS, `waking ${workflowId}`);
  };
}
