import { ADMIN_OWNER } from '../auth/api-keys';
import type { StockDoc } from '../inventory/repository';
import { type OrderDoc, type OrderItemDoc, type ProductDoc, type UserDoc, orderKey } from '../orders/repository';
import type { OrderStatus } from '../contract/types';
import { orderTotal } from '../orders/rules';

/** Demo users: ids 1..5. User 5 has no orders. */
export const demoUsers: UserDoc[] = [
  { _id: 1, name: 'Ada Lovelace', email: 'ada@example.com', created_at: new Date('2024-11-04T09:12:00.000Z') },
  { _id: 2, name: 'Alan Turing', email: 'alan@example.com', created_at: new Date('2024-12-01T14:30:00.000Z') },
  { _id: 3, name: 'Grace Hopper', email: 'grace@example.com', created_at: new Date('2025-01-15T08:05:00.000Z') },
  { _id: 4, name: 'Katherine Johnson', email: 'katherine@example.com', created_at: new Date('2025-02-20T17:45:00.000Z') },
  { _id: 5, name: 'Edsger Dijkstra', email: 'edsger@example.com', created_at: new Date('2025-03-09T11:00:00.000Z') },
];

/** Demo catalog: twelve products in three categories, priced in EUR. */
export const demoProducts: ProductDoc[] = [
  { _id: 1, sku: 'BK-001', name: 'The Pragmatic Programmer', category: 'books', price: 42.9, currency: 'EUR' },
  { _id: 2, sku: 'BK-002', name: 'Designing Data-Intensive Applications', category: 'books', price: 39.99, currency: 'EUR' },
  { _id: 3, sku: 'BK-003', name: 'Notes on the Analytical Engine', category: 'books', price: 12.99, currency: 'EUR' },
  { _id: 4, sku: 'BK-004', name: 'A Field Guide to Garden Birds', category: 'books', price: 18.5, currency: 'EUR' },
  { _id: 5, sku: 'EL-001', name: 'USB-C Charger 65 W', category: 'electronics', price: 34.9, currency: 'EUR' },
  { _id: 6, sku: 'EL-002', name: 'Noise-Cancelling Headphones', category: 'electronics', price: 199, currency: 'EUR' },
  { _id: 7, sku: 'EL-003', name: 'Mechanical Keyboard', category: 'electronics', price: 89.95, currency: 'EUR' },
  { _id: 8, sku: 'EL-004', name: 'HDMI Cable 2 m', category: 'electronics', price: 9.99, currency: 'EUR' },
  { _id: 9, sku: 'GD-001', name: 'Pruning Shears', category: 'garden', price: 24.5, currency: 'EUR' },
  { _id: 10, sku: 'GD-002', name: 'Watering Can 10 L', category: 'garden', price: 15.75, currency: 'EUR' },
  { _id: 11, sku: 'GD-003', name: 'Seed Starter Kit', category: 'garden', price: 5.5, currency: 'EUR' },
  { _id: 12, sku: 'GD-004', name: 'Raised Bed Planter', category: 'garden', price: 129, currency: 'EUR' },
];

const stockQuantities: Record<number, number> = { 1: 14, 2: 9, 3: 40, 4: 22, 5: 35, 6: 6, 7: 12, 8: 120, 9: 18, 10: 25, 11: 60, 12: 3 };
const stockUpdatedAt = new Date('2025-06-01T06:00:00.000Z');

/** One stock level per demo product. */
export const demoStock: StockDoc[] = demoProducts.map((p) => ({
  product_id: p._id,
  sku: p.sku,
  quantity: stockQuantities[p._id] ?? 0,
  updated_at: stockUpdatedAt,
}));

function historicOrder(
  id: number,
  userId: number,
  status: OrderStatus,
  date: string,
  updatedAt: string,
  lines: Array<[productId: number, quantity: number]>,
): OrderDoc {
  const items: OrderItemDoc[] = lines.map(([productId, quantity]) => {
    const product = demoProducts.find((p) => p._id === productId);
    if (!product) throw new Error(`demo order ${id} names unknown product ${productId}`);
    return { product_id: productId, quantity, unit_price: product.price };
  });
  return {
    _id: orderKey(id),
    id,
    // Placed before any key existed: the operator's, so the admin key sees them.
    owner_id: ADMIN_OWNER,
    user_id: userId,
    status,
    items,
    total: orderTotal(items),
    currency: 'EUR',
    date: new Date(date),
    updated_at: new Date(updatedAt),
    // Historic orders were announced long ago: nothing left to deliver.
    outbox: [],
  };
}

/**
 * Past orders: four of user 1 (orders 3 and 4 were placed in the same second, so the id breaks
 * the tie), two of user 2, one each of users 3 and 4.
 */
export const demoOrders: OrderDoc[] = [
  historicOrder(1, 1, 'delivered', '2025-01-10T10:00:00.000Z', '2025-01-14T16:20:00.000Z', [[1, 1], [3, 2]]),
  historicOrder(2, 1, 'delivered', '2025-02-03T18:30:00.000Z', '2025-02-07T09:10:00.000Z', [[7, 1], [8, 2]]),
  historicOrder(3, 1, 'shipped', '2025-03-21T12:00:00.000Z', '2025-03-22T08:00:00.000Z', [[9, 1], [11, 3]]),
  historicOrder(4, 1, 'paid', '2025-03-21T12:00:00.000Z', '2025-03-21T12:05:00.000Z', [[2, 1]]),
  historicOrder(5, 2, 'delivered', '2025-02-14T09:45:00.000Z', '2025-02-18T13:00:00.000Z', [[6, 1]]),
  historicOrder(6, 2, 'cancelled', '2025-04-02T15:15:00.000Z', '2025-04-02T15:40:00.000Z', [[12, 1], [10, 2]]),
  historicOrder(7, 3, 'pending', '2025-05-05T07:30:00.000Z', '2025-05-05T07:30:00.000Z', [[5, 2]]),
  historicOrder(8, 4, 'delivered', '2025-04-18T19:00:00.000Z', '2025-04-23T10:30:00.000Z', [[4, 1], [3, 1]]),
];

/** The order counter after the demo orders: the next order created gets id 9. */
export const demoOrderSeq = Math.max(...demoOrders.map((o) => o.id));
