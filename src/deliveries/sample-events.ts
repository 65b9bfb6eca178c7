import type { EventType } from '../contract/types';
import { newOutboxEvent, type OutboxEvent } from '../events/outbox';
import { createdEventData } from '../orders/rules';
import type { StoredEventData } from '../webhooks/envelopes';

/** The made-up order and product of sample events: ids far above what a test or demo database holds. */
const SAMPLE_ORDER = { id: 900_000_001, total: 59.97, currency: 'USD', status: 'pending' as const, user_id: 900_000_001, items: [{ product_id: 900_000_001, quantity: 3, unit_price: 19.99 }] };
const SAMPLE_PRODUCT = { product_id: 900_000_001, sku: 'SAMPLE-SKU' };

/** The test event's message, and the sample `data` of every other type (a type added to the contract needs one here). */
const samples: { [T in EventType]: (subscriptionId: string) => StoredEventData<T> } = {
  'webhook.test': (subscriptionId) => ({ message: 'This is a test event from the webhook service.', subscription_id: subscriptionId }),
  'order.created': () => createdEventData(SAMPLE_ORDER),
  'order.updated': () => ({ ...createdEventData({ ...SAMPLE_ORDER, status: 'paid' }), previous_status: 'pending' }),
  'stock.updated': () => ({ ...SAMPLE_PRODUCT, previous_quantity: 12, quantity: 9, reason: 'order' }),
  'stock.low': () => ({ ...SAMPLE_PRODUCT, previous_quantity: 6, quantity: 3, low_stock_threshold: 5 }),
};

/** A test event of `type` for `subscriptionId`: `webhook.test`, or a sample of another type whose ids name no real resource. */
export function sampleEvent<T extends EventType>(type: T, subscriptionId: string, requestId?: string): OutboxEvent {
  const data = (samples[type] as (id: string) => StoredEventData<T>)(subscriptionId);
  return newOutboxEvent(type, data, { requestId });
}
