import type { Db } from 'mongodb';

/**
 * Sets every product's stock to `units` before any order moved it (the level is the ledger's
 * starting point while no move exists): tests about other things than stock create as many
 * orders as they like without selling out the demo stock.
 */
export async function stockUp(db: Db, units = 100_000): Promise<void> {
  await db.collection('stock').updateMany({}, { $set: { quantity: units } });
}
