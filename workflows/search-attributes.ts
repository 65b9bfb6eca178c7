import { defineSearchAttributeKey, type SearchAttributePair } from '@temporalio/common';

/**
 * Custom search attributes the event workflows keep current, so the Temporal UI can filter
 * events by id, type, subscription and state. The embedded dev server registers them at
 * start, and every worker makes sure of them on its namespace (src/temporal/setup.ts).
 */
export const searchAttributeTypes = {
  WebhookEventId: 'Keyword',
  WebhookEventType: 'Keyword',
  WebhookSubscriptionIds: 'KeywordList',
  WebhookDeliveryState: 'Keyword',
  WebhookRetryingSubscriptionIds: 'KeywordList',
  WebhookFailedSubscriptionIds: 'KeywordList',
} as const;

export const eventIdKey = defineSearchAttributeKey('WebhookEventId', 'KEYWORD');
export const eventTypeKey = defineSearchAttributeKey('WebhookEventType', 'KEYWORD');
/** Every subscription the workflow delivers to itself (a partitioned event's parent leaves it to its parts). */
export const subscriptionIdsKey = defineSearchAttributeKey('WebhookSubscriptionIds', 'KEYWORD_LIST');
/** The event's aggregate state, see {@link aggregateState}. */
export const deliveryStateKey = defineSearchAttributeKey('WebhookDeliveryState', 'KEYWORD');
export const retryingKey = defineSearchAttributeKey('WebhookRetryingSubscriptionIds', 'KEYWORD_LIST');
/** Subscriptions whose delivery failed (attempts ran out) or stopped (a 4xx). */
export const failedKey = defineSearchAttributeKey('WebhookFailedSubscriptionIds', 'KEYWORD_LIST');

/**
 * Largest fan-out one workflow delivers itself: its subscription ids must fit one search
 * attribute value, which Temporal caps at 2 KiB by default (`limit.searchAttributesSizeOfValue`).
 */
export const MAX_BATCH_SIZE = 64;

/**
 * The search attributes an event workflow starts with; one place for every starter. The
 * subscription ids go on the workflow that delivers to them: a fan-out above `batchSize` leaves
 * them to its parts.
 */
export function eventSearchAttributes(input: { eventId: string; eventType: string; subscriptionIds: readonly string[] }, batchSize: number): SearchAttributePair[] {
  return [
    { key: eventIdKey, value: input.eventId },
    { key: eventTypeKey, value: input.eventType },
    { key: deliveryStateKey, value: 'attempting' },
    ...(input.subscriptionIds.length <= Math.min(batchSize, MAX_BATCH_SIZE) ? [{ key: subscriptionIdsKey, value: [...input.subscriptionIds] }] : []),
  ];
}
