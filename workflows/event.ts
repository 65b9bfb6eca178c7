import { ParentClosePolicy, proxyLocalActivities, startChild } from '@temporalio/workflow';
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
}

/**
 * Fans one event out to the subscriptions snapshotted when it was logged, each delivery its
 * own child workflow (one history per subscriber in the UI), and reports how they ended.
 */
export async function eventWorkflow(input: EventInput): Promise<Record<string, number>> {
  const { type, subscriptionIds } = await loadEventTargets(input.eventId);
  const children = await Promise.all(
    subscriptionIds.map((subscriptionId) =>
      startChild(deliveryWorkflow, {
        workflowId: deliveryWorkflowId(input.eventId, subscriptionId),
        args: [{ eventId: input.eventId, eventType: type, subscriptionId, policy: input.policy }],
        // Deliveries outlive a terminated parent: each is independent and durable.
        parentClosePolicy: ParentClosePolicy.ABANDON,
        typedSearchAttributes: deliverySearchAttributes({ eventId: input.eventId, eventType: type, subscriptionId: subscriptionId }),
      }),
    ),
  );
  // One child terminated by an operator must not hide how the others ended.
  const results = await Promise.allSettled(children.map((c) => c.result()));
  const tally: Record<string, number> = {};
  for (const r of results) {
    const state = r.status === 'fulfilled' ? r.value.state : 'terminated';
    tally[state] = (tally[state] ?? 0) + 1;
  }
  return tally;
}
