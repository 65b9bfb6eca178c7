import type { Client } from '@temporalio/client';
import { withTimeout } from '../lib/timing';
import type { drainWorkflow } from '../../workflows';
import { drainWorkflowId } from '../../workflows/ids';
import type { DeliverySettings } from '../events/start-options';

/** Longest a resume waits for Temporal to take the drain's start; past it the hold sweep starts it. */
const START_TIMEOUT_MS = 2000;

/** Starts the drain of a subscription's held deliveries (workflows/drain.ts). */
export type DrainStarter = (subscriptionId: string) => Promise<void>;

/**
 * Starts the drain of each subscription it is given, one per subscription at a time: a drain
 * already running is left to it (USE_EXISTING), so a repeated resume starts nothing more; one
 * that ended is started afresh.
 */
export function drainStarter(temporal: () => Promise<Client>, settings: Pick<DeliverySettings, 'taskQueue' | 'policy' | 'batchSize'>): DrainStarter {
  return async (subscriptionId) => {
    const client = await temporal();
    const started = client.workflow.start<typeof drainWorkflow>('drainWorkflow', {
      workflowId: drainWorkflowId(subscriptionId),
      taskQueue: settings.taskQueue,
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      args: [{ subscriptionId, policy: settings.policy, batchSize: settings.batchSize }],
    });
    // A start that answers after the timeout is fine: it is idempotent, and nobody waits for it.
    started.catch(() => {});
    await withTimeout(started, START_TIMEOUT_MS, `starting the drain of ${subscriptionId}`);
  };
}
