import { type Client, WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { eventWorkflow } from '../../workflows';
import type { EventDeliveryStatus } from '../../workflows/delivery-state';

/** How an event workflow ended: its result, or the status a DeliveryFailed failure carries. */
export async function eventOutcome(client: Client, workflowId: string): Promise<EventDeliveryStatus> {
  try {
    return await client.workflow.getHandle<typeof eventWorkflow>(workflowId).result();
  } catch (err) {
    const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.type === 'DeliveryFailed' && cause.details?.[0]) return cause.details[0] as EventDeliveryStatus;
    throw err;
  }
}
