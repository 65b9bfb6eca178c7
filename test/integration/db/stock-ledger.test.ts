import { type Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureIndexes } from '../../../src/db/indexes';
import { type MovePlan, StockLedger, type StockMoveDoc } from '../../../src/inventory/repository';

const take = (units: number) => (head: { quantity: number; low_stock_threshold: number }): MovePlan =>
  head.quantity >= units ? { delta: -units, low_stock_threshold: head.low_stock_threshold, reason: 'order', outbox: () => [] } : { short: true };

/** The joint insert of an order's takes against the real database: its unique indexes and its per-document refusals. */
describe('StockLedger.applyAll on the database', () => {
  let client: MongoClient;
  let db: Db;
  beforeAll(async () => {
    client = new MongoClient(inject('mongoUri'));
    db = client.db(`stock_ledger_${Date.now()}`);
    await ensureIndexes(db);
    const updated_at = new Date();
    await db.collection('stock').insertMany([1, 2, 3].map((id) => ({ product_id: id, sku: `SKU-${id}`, quantity: 10, updated_at })));
  });
  afterAll(async () => {
    await db.dropDatabase();
    await client.close();
  });

  it('a take that loses its slot in the joint insert goes on alone from the move it lost to; the others stay applied, nothing sold twice', async () => {
    const mine = new StockLedger(db);
    const theirs = new StockLedger(db);
    await Promise.all([1, 2, 3].map((id) => mine.head(id)));
    // Another process takes from product 2 after this one learned its head.
    expect((await theirs.apply(2, 'take:x:2', take(4))).kind).toBe('applied');

    const outcomes = await mine.applyAll([1, 2, 3].map((id) => ({ productId: id, op: `take:a:${id}`, plan: take(5) })));
    expect(outcomes.map((o) => o.kind === 'applied' && [o.after.seq, o.after.quantity])).toEqual([
      [1, 5],
      [2, 1],
      [1, 5],
    ]);
    const moves = await db.collection<StockMoveDoc>('stock_moves').find({}, { projection: { _id: 1, slot: 1, quantity: 1 } }).sort({ slot: 1 }).toArray();
    expect(moves.map((m) => [m._id, m.slot, m.quantity])).toEqual([
      ['take:a:1', '1:1', 5],
      ['take:x:2', '2:1', 6],
      ['take:a:2', '2:2', 1],
      ['take:a:3', '3:1', 5],
    ]);
    // Applied once: the same operations again change nothing.
    expect((await mine.applyAll([1, 3].map((id) => ({ productId: id, op: `take:a:${id}`, plan: take(5) })))).map((o) => o.kind)).toEqual(['exists']);
    await mine.copyPending();
    await theirs.copyPending();
  });
});
