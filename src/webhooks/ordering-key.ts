import type { EventType } from '../contract/types';
import type { EventRecord, StoredEventData } from './envelopes';

/**
 * The resource each event type is about, as a message key: brokers that partition by key (Kafka)
 * keep one order's events, or one product's stock events, in one partition and in order.
 */
const orderingKeys: { [T in EventType]: (data: StoredEventData<T>) => string } = {
  'order.created': (d) => `order:${d.order_id}`,
  'order.updated': (d) => `order:${d.order_id}`,
  'stock.updated': (d) => `product:${d.product_id}`,
  'stock.low': (d) => `product:${d.product_id}`,
  'webhook.test': (d) => `subscription:${d.subscription_id}`,
};

/** The ordering key of an event: `order:<order_id>`, `product:<product_id>`, or `subscription:<id>` for a test event. */
export function orderingKey(event: Pick<EventRecord, 'type' | 'data'>): string {
  return (orderingKeys[event.type] as (data: Record<string, unknown>) => string)(event.data);
}
