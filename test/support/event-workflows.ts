import { type Client, WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import type { eventWorkflow } from '../../workflows';
import type { EventDeliveryStatus } from '../../workflows/delivery-model';
import { eventWorkflowId } from '../../workflows/ids';
import { laneTaskQueues } from '../../src/events/lanes';
import { waitFor } from './wait';

/**
 * How an event workflow ended: its result, or the status a DeliveryFailed failure carries. A
 * workflow not started yet is waited for (the API answers before its start, which runs on).
 */
export async function eventOutcome(client: Client, workflowId: string, startTimeoutMs = 20_000): Promise<EventDeliveryStatus> {
  await waitForWorkflow(client, workflowId, startTimeoutMs);
  try {
    return await client.workflow.getHandle<typeof eventWorkflow>(workflowId).result();
  } catch (err) {
    const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.type === 'DeliveryFailed' && cause.details?.[0]) return cause.details[0] as EventDeliveryStatus;
    throw err;
  }
}

/** Waits until the workflow exists (the API starts an order's workflows after answering). */
export async function waitForWorkflow(client: Client, workflowId: string, timeoutMs = 20_000): Promise<void> {
  await waitFor(
    () =>
      client.workflow
        .getHandle(workflowId)
        .describe()
        .then(
          () => true,
          (err: unknown) => {
            if (err instanceof WorkflowNotFoundError) return false;
            throw err;
          },
        ),
    timeoutMs,
    50,
  );
}

/**
 * Waits until Temporal's visibility lists `count` redelivery workflows of the event (found by its
 * WebhookEventId search attribute, ids `event/<event id>/redelivery/<request id>`) and returns
 * their ids, sorted.
 */
export async function redeliveryRuns(client: Client, eventId: string, count = 1, timeoutMs = 20_000): Promise<string[]> {
  const prefix = `${eventWorkflowId(eventId)}/redelivery/`;
  let ids: string[] = [];
  await waitFor(async () => {
    ids = [];
    for await (const wf of client.workflow.list({ query: `WebhookEventId = '${eventId}'` })) if (wf.workflowId.startsWith(prefix)) ids.push(wf.workflowId);
    return ids.length >= count;
  }, timeoutMs, 200);
  return ids.sort();
}

/** Event types of a workflow history (temporal.api.enums.v1.EventType) that tests wait for. */
export const HistoryEvent = { TimerStarted: 17, TimerFired: 18 } as const;

/** Waits until the workflow's history holds at least `count` events of `eventType`. */
export async function waitForHistoryEvent(client: Client, workflowId: string, eventType: number, count = 1, timeoutMs = 60_000): Promise<void> {
  await waitFor(async () => {
    // The API answers once the event is logged and starts its workflow right after: it may not exist yet.
    const history = await client.workflow.getHandle(workflowId).fetchHistory().catch((err: unknown) => {
      if (err instanceof WorkflowNotFoundError || (err as { code?: unknown }).code === 5) return undefined;
      throw err;
    });
    return (history?.events ?? []).filter((e) => Number(e.eventType) === eventType).length >= count;
  }, timeoutMs, 200);
}

/**
 * Terminates whatever still runs on `taskQueue` (and its bulk lane) and returns those workflows' ids: a test asserts
 * the list is empty, so one that leaves a workflow running on the shared server fails, and the
 * workflow does not outlive it.
 */
export async function terminateLeftRunning(client: Client, taskQueue: string): Promise<string[]> {
  const left: string[] = [];
  const queues = laneTaskQueues(taskQueue).map((q) => `TaskQueue = '${q}'`);
  for await (const wf of client.workflow.list({ query: `(${queues.join(' OR ')}) AND ExecutionStatus = 'Running'` })) left.push(wf.workflowId);
  await Promise.all(left.map((id) => client.workflow.getHandle(id).terminate('left running by a test').catch(() => undefined)));
  return left.sort();
}
