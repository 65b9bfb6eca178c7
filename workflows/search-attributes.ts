import { defineSearchAttributeKey } from '@temporalio/common';

/**
 * Custom search attributes delivery workflows keep current, so the Temporal UI can filter
 * deliveries by event, event type, subscription and state. The embedded dev server registers
 * them at start; on a cluster, register them once (see README).
 */
export const searchAttributeTypes = {
  WebhookEventId: 'Keyword',
  WebhookEventType: 'Keyword',
  WebhookSubscriptionId: 'Keyword',
  WebhookDeliveryState: 'Keyword',
} as const;

export const eventIdKey = defineSearchAttributeKey('WebhookEventId', 'KEYWORD');
export const eventTypeKey = defineSearchAttributeKey('WebhookEventType', 'KEYWORD');
export const subscriptionIdKey = defineSearchAttributeKey('WebhookSubscriptionId', 'KEYWORD');
export const deliveryStateKey = defineSearchAttributeKey('WebhookDeliveryState', 'KEYWORD');
