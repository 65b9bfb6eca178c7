import type { EventType } from '../../src/contract/types';
import type { EventData } from '../../src/webhooks/envelopes';

/** A fixed `data` for each event type, as its producer fills it: the inputs of the envelope and golden tests. */
export const sampleEventData: { [T in EventType]: EventData<T> } = {
  'order.created': { order_id: 5012, total: 59.97, currency: 'EUR', status: 'pending', user_id: 42 },
  'order.updated': { order_id: 5012, total: 59.97, currency: 'EUR', status: 'paid', user_id: 42, previous_status: 'pending' },
  'webhook.test': { message: 'This is a test event from the webhook service.', subscription_id: 'sub_3kTzY8qLm2NvB7xRw9Pd' },
  'stock.updated': { product_id: 1, sku: 'BK-001', previous_quantity: 14, quantity: 12, reason: 'order' },
  'stock.low': { product_id: 1, sku: 'BK-001', previous_quantity: 6, quantity: 4, low_stock_threshold: 5 },
};
