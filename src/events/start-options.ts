import { type Client, WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type WorkflowStartOptions } from '@temporalio/client';
import type { eventWorkflow } from '../../workflows';
import { eventWorkflowId } from '../../workflows/ids';
import type { DeliveryPolicy } from '../../workflows/delivery-model';
import { eventSearchAttributes } from '../../workflows/search-attributes';
import { type CarriedEvent, EVENT_WORKFLOW_TASK_TIMEOUT, type EventOrdering } from '../../workflows/definitions';

export { EVENT_WORKFLOW_TASK_TIMEOUT };
import { type Lane, laneTaskQueue } from './lanes';
import type { EventDoc } from './repository';

/** How deliveries run: fixed into each workflow at its start, so config changes never alter one in flight. */
export interface DeliverySettings {
  taskQueue: string;
  policy: DeliveryPolicy;
  /** Most subscriptions one event workflow delivers to itself. */
  batchSize: number;
  /** Ask for the first workflow task in the start's reply: only where the client shares a NativeConnection with a worker of `taskQueue`. */
  eagerStart?: boolean;
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
  /** The event itself, carried in the input when small (see carriedEvent) so the worker need not read it. */
  event?: CarriedEvent;
  /** The task queue it starts on (default: the default lane); its parts inherit it. */
  lane?: Lane;
  /** Its ordering key and place, and the subscriptions that get it in order; absent: none does. */
  ordering?: EventOrdering;
}

/**
 * Largest event `data` (JSON bytes) carried in a workflow's input: it then sits in the history of
 * the workflow and of each of its parts, so large data is read by the worker instead.
 */
export const MAX_CARRIED_DATA_BYTES = 8 * 1024;

/** What delivery needs of a logged event, for the workflow's input; undefined when its data is too large to carry. */
export function carriedEvent(event: Pick<EventDoc, 'data' | 'created_at' | 'owner_id' | 'data_owner'>): CarriedEvent | undefined {
  // As the database gives it back: an undefined field is stored as null (dates become strings either way once rendered).
  const json = JSON.stringify(event.data, (_key, value: unknown) => (value === undefined ? null : value));
  if (Buffer.byteLength(json) > MAX_CARRIED_DATA_BYTES) return undefined;
  return {
    data: JSON.parse(json) as Record<string, unknown>,
    createdAt: event.created_at.toISOString(),
    ...(event.owner_id !== undefined ? { ownerId: event.owner_id } : {}),
    ...(event.data_owner !== undefined ? { dataOwner: event.data_owner } : {}),
  };
}

/** The start options of an event workflow; the one definition every starter (API, relay, tests, tools) uses. */
export function eventWorkflowStartOptions(run: EventRun, settings: DeliverySettings): WorkflowStartOptions<typeof eventWorkflow> {
  return {
    workflowId: run.workflowId ?? eventWorkflowId(run.eventId),
    taskQueue: laneTaskQueue(settings.taskQueue, run.lane),
    // A finished run must not start again when its start is repeated (relay, concurrent dispatch).
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    workflowTaskTimeout: EVENT_WORKFLOW_TASK_TIMEOUT,
    args: [
      {
        eventId: run.eventId,
        eventType: run.eventType,
        subscriptionIds: run.subscriptionIds,
        policy: settings.policy,
        batchSize: settings.batchSize,
        ...(run.event ? { event: run.event } : {}),
        ...(run.ordering ? { ordering: run.ordering } : {}),
      },
    ],
    typedSearchAttributes: eventSearchAttributes(run, settings.batchSize),
    ...(run.requestId ? { memo: { requestId: run.requestId } } : {}),
    ...(settings.eagerStart ? { requestEagerStart: true } : {}),
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
