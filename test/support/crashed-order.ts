import { newOutboxEvent, type OutboxEvent } from '../../src/events/outbox';
import { type OrderDoc, orderKey } from '../../src/orders/repository';
import type { TestApi } from './api';

/**
 * What a crash right after an order's insert leaves: the note announcing its order.created
 * (written before the insert), and the pending order with the event still in its outbox.
 */
export async function orderLeftByACrash(api: TestApi, id: number): Promise<OutboxEvent> {
  // Its place among the order's events, as the API's own insert gives it.
  const event = newOutboxEvent('order.created', { order_id: id, total: 12.5, currency: 'EUR', status: 'pending', user_id: 1 }, { seq: 1 });
  await api.dispatcher.announce([event], { collection: 'orders', id });
  const now = new Date();
  await api.mongo.db.collection<OrderDoc>('orders').insertOne({
    _id: orderKey(id),
    id,
    owner_id: 'test',
    user_id: 1,
    status: 'pending',
    items: [{ product_id: 1, quantity: 1, unit_price: 12.5 }],
    total: 12.5,
    currency: 'EUR',
    date: now,
    updated_at: now,
    outbox: [event],
  });
  return event;
}
