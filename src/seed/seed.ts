import type { Db } from 'mongodb';
import { StockLedger } from '../inventory/repository';
import { OrderRepository, ProductRepository, UserRepository } from '../orders/repository';
import { demoOrderSeq, demoOrders, demoProducts, demoStock, demoUsers } from './demo-data';

/**
 * Loads the demo data into a database whose `users` collection is empty; otherwise changes
 * nothing. Returns whether it loaded. Users are written last, so they mark a completed load.
 * `stock` gives every product that many units instead of the demo's few (load runs and tests
 * about other things than stock, which would otherwise sell out).
 */
export async function seedDemoData(db: Db, opts: { stock?: number } = {}): Promise<boolean> {
  const users = new UserRepository(db);
  const orders = new OrderRepository(db);
  if (await users.any()) return false;
  // insertMany gets copies: the driver adds `_id` to the objects it is handed.
  await new ProductRepository(db).insertAll(demoProducts.map((p) => ({ ...p })));
  await new StockLedger(db).insertAll(demoStock.map((s) => ({ ...s, ...(opts.stock !== undefined ? { quantity: opts.stock } : {}) })));
  await orders.insertAll(demoOrders.map((o) => ({ ...o, items: [...o.items], outbox: [] })));
  // Never move the counter backwards: ids already handed out stay unique.
  await orders.raiseCounterTo(demoOrderSeq);
  await users.insertAll(demoUsers.map((u) => ({ ...u })));
  return true;
}

/** One line saying what `seedDemoData` did. */
export function describeSeed(seeded: boolean): string {
  return seeded
    ? `Demo data loaded: ${demoUsers.length} users, ${demoProducts.length} products, ${demoStock.length} stock levels, ${demoOrders.length} orders.`
    : 'Demo data not loaded: the database already has users.';
}
