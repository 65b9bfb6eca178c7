import { type Client, WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type WorkflowStartOptions } from '@temporalio/client';
import type { eventWorkflow } from '../../workflows';
import { eventWorkflowId } from '../../workflows/ids';
import type { DeliveryPolicy } from '../../workflows/delivery-model';
import { eventSearchAttributes } from '../../workflows/search-attributes';

/** How deliveries run: fixed into each workflow at its start, so config changes never alter one in flight. */
export interface DeliverySettings {
  taskQueue: string;
  policy: DeliveryPolicy;
  /** Most subscriptions one event workflow delivers to itself. */
  batchSize: number;
}

/** One delivery run of an event: its emission (workflow `event/<id>`), or a redelivery (its own workflow id). */
export interface EventRun {
  eventId: string;
  eventType: string;
  subscriptionIds: string[];
  /** Default: the event's own workflow id. */
  workflowId?: string;
  /** The API request behind it, kept in the workflow's memo: the Temporal UI shows the id the request log has. */
  requestId?: string;
}

/** The start options of an event workflow; the one definition every starter (API, relay, tests, tools) uses. */
export function eventWorkflowStartOptions(run: EventRun, settings: DeliverySettings): WorkflowStartOptions<typeof eventWorkflow> {
  return {
    workflowId: run.workflowId ?? eventWorkflowId(run.eventId),
    taskQueue: settings.taskQueue,
    // A finished run must not start again when its start is repeated (relay, concurrent dispatch).
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    args: [{ eventId: run.eventId, eventType: run.eventType, subscriptionIds: run.subscriptionIds, policy: settings.policy, batchSize: settings.batchSize }],
    typedSearchAttributes: eventSearchAttributes(run, settings.batchSize),
    ...(run.requestId ? { memo: { requestId: run.requestId } } : {}),
  };
}

/** Starts the run's workflow; false when it was already started (a repeated start is a no-op). */
export async function startEventWorkflow(client: Client, run: EventRun, settings: DeliverySettings): Promise<boolean> {
  try {
    await client.workflow.start<typeof eventWorkflow>('eventWorkflow', eventWorkflowStartOptions(run, settings));
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}
