import { ApplicationFailure, ChildWorkflowFailure, executeChild, getExternalWorkflowHandle, patched, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { aggregateState, type EventDeliveryStatus, type SubscriberStatus, subscriptionsIn } from './delivery-model';
import { deliveryStatusQuery, type EventInput, orderingTurnSignal, retryNowSignal } from './definitions';
import { partWorkflowId } from './ids';
import { deliveryStateKey, eventSearchAttributes, failedKey, MAX_BATCH_SIZE } from './search-attributes';

/** A parent of parts passes each orderingTurn signal on to the part holding its subscription. */
export const FORWARD_ORDERING_TURNS = 'parts-forward-ordering-turns';

/** `items` in consecutive chunks of at most `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** What a part's end says about its subscriptions: its result, the status in its DeliveryFailed details, or a failure for all. */
function partOutcome(ids: readonly string[], settled: PromiseSettledResult<EventDeliveryStatus>): Record<string, SubscriberStatus> {
  if (settled.status === 'fulfilled') return settled.value.subscriptions;
  const err = settled.reason as unknown;
  const cause = err instanceof ChildWorkflowFailure ? err.cause : undefined;
  if (cause instanceof ApplicationFailure && cause.type === 'DeliveryFailed') {
    const status = cause.details?.[0] as EventDeliveryStatus | undefined;
    if (status) return status.subscriptions;
  }
  // Terminated or timed out by an operator: none of its deliveries can be counted as done.
  const reason = err instanceof Error ? err.message : String(err);
  return Object.fromEntries(ids.map((id) => [id, { state: 'failed', attempts: 0, lastError: `part ended: ${reason}` } satisfies SubscriberStatus]));
}

/**
 * A large fan-out: the subscriptions split into child workflows of at most `batchSize`, each
 * running the event workflow itself (`<this id>/part/<k>`), so every history stays bounded.
 * Waits for all of them and merges their statuses.
 */
export async function deliverInParts(input: EventInput, workflow: (input: EventInput) => Promise<EventDeliveryStatus>): Promise<EventDeliveryStatus> {
  const self = workflowInfo().workflowId;
  const origin = input.origin ?? self;
  const chunks = chunk(input.subscriptionIds, input.batchSize);
  const parts = chunks.map((_, k) => partWorkflowId(self, k + 1));
  const statuses: Record<string, SubscriberStatus> = {};
  // The parts' states arrive as each ends; until then the parts' own queries tell.
  const snapshot = (): EventDeliveryStatus => ({
    eventId: input.eventId,
    state: Object.keys(statuses).length === input.subscriptionIds.length ? aggregateState(Object.values(statuses).map((s) => s.state)) : 'attempting',
    subscriptions: statuses,
    parts,
  });
  setHandler(deliveryStatusQuery, snapshot);
  setHandler(retryNowSignal, async (which) => {
    // A part that already ended refuses the signal: nothing waits there.
    await Promise.allSettled(parts.map((id) => getExternalWorkflowHandle(id).signal(retryNowSignal, which)));
  });
  // The end of an earlier delivery signals the event's workflow: the part holding the subscription waits for it.
  if (input.ordering?.subscriptionIds.some((id) => input.subscriptionIds.includes(id)) && patched(FORWARD_ORDERING_TURNS)) {
    setHandler(orderingTurnSignal, async (turn) => {
      const k = chunks.findIndex((ids) => ids.includes(turn.subscriptionId));
      // A part that already ended refuses the signal: nothing waits there.
      if (k >= 0) await getExternalWorkflowHandle(parts[k]!).signal(orderingTurnSignal, turn).catch(() => undefined);
    });
  }
  const ends = await Promise.allSettled(
    chunks.map((ids, k) =>
      executeChild(workflow, {
        workflowId: parts[k]!,
        args: [{ ...input, subscriptionIds: ids, origin }],
        typedSearchAttributes: eventSearchAttributes({ eventId: input.eventId, eventType: input.eventType, subscriptionIds: ids }, input.batchSize),
      }),
    ),
  );
  ends.forEach((end, k) => Object.assign(statuses, partOutcome(chunks[k]!, end)));
  const final = snapshot();
  const failed = subscriptionsIn(statuses, 'failed', 'stopped');
  // The failed ids only when they fit one search attribute value; the parts carry them anyway.
  upsertSearchAttributes([{ key: deliveryStateKey, value: final.state }, ...(failed.length && failed.length <= MAX_BATCH_SIZE ? [{ key: failedKey, value: failed }] : [])]);
  return final;
}
