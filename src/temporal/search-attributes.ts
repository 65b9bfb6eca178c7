/**
 * Custom search attributes delivery workflows keep current, so the Temporal UI can filter
 * deliveries by event type, subscription and state. The embedded dev server registers
 * them at start; on an external cluster, register them once with
 * `temporal operator search-attribute create`.
 */
export const searchAttributes = {
  WebhookEventId: 'Keyword',
  WebhookEventType: 'Keyword',
  WebhookSubscriptionId: 'Keyword',
  WebhookDeliveryState: 'Keyword',
} as const;
