import type { Db } from 'mongodb';
import type { CounterDoc, OrderDoc, ProductDoc, StockDoc, UserDoc } from '../resources/repository';
import { demoOrderSeq, demoOrders, demoProducts, demoStock, demoUsers } from './demo-data';

/**
 * Loads the demo data into a database whose `users` collection is empty; otherwise changes
 * nothing. Returns whether it loaded. Users are written last, so they mark a completed load.
 */
export async function seedDemoData(db: Db): Promise<boolean> {
  const users = db.collection<UserDoc>('users');
  if ((await users.findOne({})) !== null) return false;
  // insertMany gets copies: the driver adds `_id` to the objects it is handed.
  await db.collection<ProductDoc>('products').insertMany(demoProducts.map((p) => ({ ...p })));
  await db.collection<StockDoc>('stock').insertMany(demoStock.map((s) => ({ ...s })));
  await db.collection<OrderDoc>('orders').insertMany(demoOrders.map((o) => ({ ...o, items: [...o.items], outbox: [] })));
  // Never move the counter backwards: ids already handed out stay unique.
  await db.collection<CounterDoc>('counters').updateOne({ _id: 'orders' }, { $max: { seq: demoOrderSeq } }, { upsert: true });
  await users.insertMany(demoUsers.map((u) => ({ ...u })));
  return true;
}

/** One line saying what `seedDemoData` did. */
export function describeSeed(seeded: boolean): string {
  return seeded
    ? `Demo data loaded: ${demoUsers.length} users, ${demoProducts.length} products, ${demoStock.length} stock levels, ${demoOrders.length} orders.`
    : 'Demo data not loaded: the database already has users.';
}
