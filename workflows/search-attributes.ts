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

/** The search attributes an event workflow starts with; one place for every starter. */
export function eventSearchAttributes(input: { eventId: string; eventType: string }) {
  return [
    { key: eventIdKey, value: input.eventId },
    { key: eventTypeKey, value: input.eventType },
  ];
}

/** The search attributes a delivery series starts with; one place for every starter. */
export function deliverySearchAttributes(input: { eventId: string; eventType: string; subscriptionId: string }) {
  return [
    { key: eventIdKey, value: input.eventId },
    { key: eventTypeKey, value: input.eventType },
    { key: subscriptionIdKey, value: input.subscriptionId },
    { key: deliveryStateKey, value: 'attempting' },
  ];
}
