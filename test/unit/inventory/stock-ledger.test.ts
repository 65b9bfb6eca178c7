import { type Db, MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { type MovePlan, StockLedger, type StockDoc, type StockMoveDoc } from '../../../src/inventory/repository';
import { waitFor } from '../../support/wait';

/**
 * The two collections in memory, counting the commands the ledger sends: enough to see which
 * reads the known heads save and how the copies to `stock` are grouped (the unique indexes and
 * FerretDB's behaviour are the integration tests' matter).
 */
function fakeDb(levels: Record<number, number>) {
  const stock = new Map<number, StockDoc>(Object.entries(levels).map(([id, quantity]) => [Number(id), { product_id: Number(id), sku: `SKU-${id}`, quantity, updated_at: new Date(0) }]));
  const moves = new Map<string, StockMoveDoc>();
  const commands: string[] = [];
  const stockCollection = {
    findOne: (filter: { product_id: number }) => {
      commands.push('find stock');
      return Promise.resolve(stock.get(filter.product_id) ?? null);
    },
    find: () => ({ sort: () => ({ toArray: () => (commands.push('find stock'), Promise.resolve([...stock.values()].map((d) => ({ ...d })))) }) }),
    bulkWrite: (ops: Array<{ updateOne: { filter: { product_id: number; seq: { $not: { $gte: number } } }; update: { $set: Partial<StockDoc> } } }>) => {
      commands.push(`update stock x${ops.length}`);
      for (const { updateOne } of ops) {
        const doc = stock.get(updateOne.filter.product_id)!;
        if ((doc.seq ?? 0) < updateOne.filter.seq.$not.$gte) Object.assign(doc, updateOne.update.$set);
      }
      return Promise.resolve({});
    },
  };
  const duplicate = () => Object.assign(new MongoServerError({ message: 'E11000 duplicate key' }), { code: 11000 });
  const movesCollection = {
    insertOne: (move: StockMoveDoc) => {
      commands.push('insert stock_moves');
      if (moves.has(move._id) || [...moves.values()].some((m) => m.slot === move.slot)) return Promise.reject(duplicate());
      moves.set(move._id, move);
      return Promise.resolve({});
    },
    findOne: (filter: { _id?: string; slot?: string }) => {
      commands.push('find stock_moves');
      return Promise.resolve([...moves.values()].find((m) => (filter._id !== undefined ? m._id === filter._id : m.slot === filter.slot)) ?? null);
    },
  };
  const db = { collection: (name: string) => (name === 'stock' ? stockCollection : movesCollection) } as unknown as Db;
  return { db, stock, moves, commands };
}

const take = (units: number) => (head: { quantity: number; low_stock_threshold: number }): MovePlan =>
  head.quantity >= units ? { delta: -units, low_stock_threshold: head.low_stock_threshold, reason: 'order', outbox: () => [] } : { short: true };

describe('StockLedger', () => {
  it('plans from the head it knows: one read for the first move of a product, none after', async () => {
    const { db, commands } = fakeDb({ 1: 10 });
    const ledger = new StockLedger(db);
    await ledger.apply(1, 'take:a:1', take(2));
    await ledger.apply(1, 'take:b:1', take(3));
    expect(commands.filter((c) => c !== 'update stock x1')).toEqual(['find stock', 'insert stock_moves', 'insert stock_moves']);
    expect((await ledger.head(1))?.quantity).toBe(5);
  });

  it('moves of one product in one process go one at a time: concurrent takes never clash with each other', async () => {
    const { db, commands } = fakeDb({ 1: 10 });
    const ledger = new StockLedger(db);
    await ledger.head(1);
    const outcomes = await Promise.all([1, 2, 3].map((n) => ledger.apply(1, `take:${n}:1`, take(n))));
    expect(outcomes.map((o) => o.kind === 'applied' && o.after.quantity)).toEqual([9, 7, 4]);
    expect(commands.filter((c) => !c.startsWith('update'))).toEqual(['find stock', 'insert stock_moves', 'insert stock_moves', 'insert stock_moves']);
  });

  it('a head another process moved past costs the lost slot and a read of the move in it, and never oversells', async () => {
    const { db, commands } = fakeDb({ 1: 10 });
    const mine = new StockLedger(db);
    const theirs = new StockLedger(db);
    await mine.apply(1, 'take:a:1', take(2));
    await theirs.apply(1, 'take:b:1', take(7));
    commands.length = 0;
    // Mine still believes 8 are left; only 1 is.
    expect(await mine.apply(1, 'take:c:1', take(5))).toMatchObject({ kind: 'short', head: { quantity: 1 } });
    expect(commands).toEqual(['insert stock_moves', 'find stock_moves', 'find stock_moves', 'find stock_moves']);
    expect(await mine.apply(1, 'take:d:1', take(1))).toMatchObject({ kind: 'applied', after: { quantity: 0 } });
  });

  it('copies the newest state of every product moved meanwhile in one write, and shows its own moves before that write lands', async () => {
    const { db, stock, commands } = fakeDb({ 1: 10, 2: 10 });
    const ledger = new StockLedger(db);
    await ledger.apply(1, 'take:a:1', take(1));
    await ledger.apply(2, 'take:a:2', take(2));
    await ledger.apply(1, 'take:b:1', take(3));
    // Not copied yet: the stored copy lags, this process's reads do not.
    expect(stock.get(1)!.quantity).toBe(10);
    expect((await ledger.list()).map((s) => [s.product_id, s.quantity, s.seq])).toEqual([
      [1, 6, 2],
      [2, 8, 1],
    ]);
    expect((await ledger.find(2))?.quantity).toBe(8);
    await waitFor(() => stock.get(1)!.quantity === 6, 2_000, 5);
    expect(commands.filter((c) => c.startsWith('update'))).toEqual(['update stock x2']);
    expect([stock.get(1)!.seq, stock.get(2)!.quantity]).toEqual([2, 8]);
  });
});
