import type { EventType } from '../../src/contract/types';
import type { StoredEventData } from '../../src/webhooks/envelopes';

/** A fixed `data` for each event type, as its producer fills it: the inputs of the envelope and golden tests. */
const items = [
  { product_id: 1001, quantity: 2, unit_price: 24.99 },
  { product_id: 1007, quantity: 1, unit_price: 9.99 },
];

export const sampleEventData: { [T in EventType]: StoredEventData<T> } = {
  'order.created': { order_id: 5012, total: 59.97, currency: 'EUR', status: 'pending', user_id: 42, item_count: 2, items },
  'order.updated': { order_id: 5012, total: 59.97, currency: 'EUR', status: 'paid', user_id: 42, item_count: 2, items, previous_status: 'pending' },
  'webhook.test': { message: 'This is a test event from the webhook service.', subscription_id: 'sub_3kTzY8qLm2NvB7xRw9Pd' },
  'stock.updated': { product_id: 1, sku: 'BK-001', previous_quantity: 14, quantity: 12, reason: 'order' },
  'stock.low': { product_id: 1, sku: 'BK-001', previous_quantity: 6, quantity: 4, low_stock_threshold: 5 },
};
