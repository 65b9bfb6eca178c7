import { ApplicationFailure, setHandler, workflowInfo } from '@temporalio/workflow';
import { aggregateState, type EventDeliveryStatus, type SubscriberStatus, subscriptionsIn } from './delivery-state';
import { deliverInParts } from './parts';
import { deliveryStatusQuery, type EventInput, retryNowSignal } from './definitions';
import { SearchAttributeSync } from './search-attribute-sync';
import { deliverInRounds } from './rounds';

export type { EventInput, RetryNow } from './definitions';
export { deliveryStatusQuery, retryNowSignal } from './definitions';

/**
 * Delivers one event to every subscription of `input`, in rounds (see rounds.ts): attempt 1 to
 * all at once; each one that must retry waits on a durable timer through its interval (with
 * jitter, or the receiver's longer Retry-After) and tries again, in this same workflow. 2xx delivered; 4xx
 * stops (410 also disables the subscription); 3xx, 5xx, 408, 429, timeouts and network errors
 * retry; when attempts run out the delivery fails and an administrator is alerted once.
 * Above `batchSize` subscriptions the work is split into child workflows running this same code.
 * Ends Failed (type DeliveryFailed, the status in its details) when any delivery failed or
 * stopped, so such events stand out in the Temporal UI.
 */
export async function eventWorkflow(input: EventInput): Promise<EventDeliveryStatus> {
  const status = input.subscriptionIds.length > input.batchSize ? await deliverInParts(input, eventWorkflow) : await deliverEach(input);
  if (status.state === 'failed') {
    const failed = subscriptionsIn(status.subscriptions, 'failed', 'stopped');
    throw ApplicationFailure.create({
      type: 'DeliveryFailed',
      message: `${failed.length} of ${Object.keys(status.subscriptions).length} deliveries of ${input.eventId} failed: ${failed.slice(0, 5).join(', ')}${failed.length > 5 ? ', …' : ''}`,
      nonRetryable: true,
      details: [status],
    });
  }
  return status;
}

/** Delivers to each subscription of `input` from this workflow. */
async function deliverEach(input: EventInput): Promise<EventDeliveryStatus> {
  const origin = input.origin ?? workflowInfo().workflowId;
  const statuses: Record<string, SubscriberStatus> = {};
  for (const id of input.subscriptionIds) statuses[id] = { state: 'attempting', attempts: 0 };
  const snapshot = (): EventDeliveryStatus => ({ eventId: input.eventId, state: aggregateState(Object.values(statuses).map((s) => s.state)), subscriptions: statuses });

  // Wake-ups asked for by retryNow; one that arrives during an attempt is kept until after the next wait.
  const wake = new Set<string>();
  setHandler(deliveryStatusQuery, snapshot);
  setHandler(retryNowSignal, (which) => {
    for (const id of which?.subscriptionId ? [which.subscriptionId] : input.subscriptionIds) if (statuses[id]) wake.add(id);
  });

  const searchAttributes = new SearchAttributeSync(statuses);
  await deliverInRounds({
    eventId: input.eventId,
    subscriptionIds: input.subscriptionIds,
    policy: input.policy,
    origin,
    statuses,
    wake,
    afterRound: () => searchAttributes.sync(),
  });
  searchAttributes.sync();
  return snapshot();
}

