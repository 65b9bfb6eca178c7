import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, patched, proxyLocalActivities, startChild, WorkflowIdReusePolicy } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { deliveryWorkflow } from './delivery';
import { deliveryWorkflowId } from './ids';
import type { DeliveryPolicy } from './retry-policy';
import { deliverySearchAttributes } from './search-attributes';

// A single short read: local, so the fan-out starts without a task-queue round trip.
const { loadEventTargets } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '1 minute',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export interface EventInput {
  eventId: string;
  policy: DeliveryPolicy;
  /**
   * The event's type and subscribers, when the starter has them (it just logged the event): the
   * run then skips the lookup. Runs started without them (all before this field) look them up.
   */
  targets?: { type: string; subscriptionIds: string[] };
}

/** What the event workflow returns since 'event-returns-once-children-started': the deliveries it started. */
export interface EventFanOut {
  /** How many of `children` this run started (fewer when an earlier run of the event had started the others). */
  started: number;
  /** Workflow ids of the event's deliveries, `delivery/<event id>/<subscription id>`, one per subscription. */
  children: string[];
}

/** What event workflows started before that patch return: how many deliveries ended in each state. */
export type EventTally = Record<string, number>;

/** An event workflow's result: {@link EventFanOut}, or {@link EventTally} for one started before the patch. */
export type EventResult = EventFanOut | EventTally;

/**
 * Fans one event out to the subscriptions snapshotted when it was logged, each delivery its
 * own child workflow (one history per subscriber in the UI), and returns once all of them have
 * started; each delivery's outcome is its own workflow's result. (Started before the
 * 'event-returns-once-children-started' patch, it awaits them all and tallies how they ended.)
 */
export async function eventWorkflow(input: EventInput): Promise<EventResult> {
  // Asked first, so the whole run takes one branch; replays of older runs take the old one.
  const returnOnceStarted = patched('event-returns-once-children-started');
  // Decided by the input alone, so replays of runs started without targets take the lookup again.
  const { type, subscriptionIds } = input.targets ?? (await loadEventTargets(input.eventId));
  const startDelivery = (subscriptionId: string, reuse?: { workflowIdReusePolicy: WorkflowIdReusePolicy }) =>
    startChild(deliveryWorkflow, {
      workflowId: deliveryWorkflowId(input.eventId, subscriptionId),
      args: [{ eventId: input.eventId, eventType: type, subscriptionId, policy: input.policy }],
      // Deliveries outlive a terminated parent: each is independent and durable.
      parentClosePolicy: ParentClosePolicy.ABANDON,
      typedSearchAttributes: deliverySearchAttributes({ eventId: input.eventId, eventType: type, subscriptionId: subscriptionId }),
      ...reuse,
    });

  if (returnOnceStarted) {
    // The children are abandoned on close, so none is lost by not awaiting them: less Temporal work per event.
    const started = await Promise.all(
      subscriptionIds.map((subscriptionId) =>
        // This run closes long before its deliveries, so a repeated dispatch of the event can start a
        // second run: its deliveries must not start (or, once finished, deliver) again. Redeliveries use other ids.
        startDelivery(subscriptionId, { workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE }).then(
          () => true,
          (err: unknown) => {
            if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
            throw err;
          },
        ),
      ),
    );
    return {
      started: started.filter(Boolean).length,
      children: subscriptionIds.map((subscriptionId) => deliveryWorkflowId(input.eventId, subscriptionId)),
    };
  }
  const children = await Promise.all(subscriptionIds.map((subscriptionId) => startDelivery(subscriptionId)));
  // One child terminated by an operator must not hide how the others ended.
  const results = await Promise.allSettled(children.map((c) => c.result()));
  const tally: Record<string, number> = {};
  for (const r of results) {
    const state = r.status === 'fulfilled' ? r.value.state : 'terminated';
    tally[state] = (tally[state] ?? 0) + 1;
  }
  return tally;
}
