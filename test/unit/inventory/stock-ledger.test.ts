import { type Db, MongoBulkWriteError, MongoServerError } from 'mongodb';
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
  const clashes = (move: StockMoveDoc) => moves.has(move._id) || [...moves.values()].some((m) => m.slot === move.slot);
  const movesCollection = {
    insertOne: (move: StockMoveDoc) => {
      commands.push('insert stock_moves');
      if (clashes(move)) return Promise.reject(duplicate());
      moves.set(move._id, move);
      return Promise.resolve({});
    },
    // As `ordered: false` does: each document on its own, the refused ones named by index.
    insertMany: (docs: StockMoveDoc[]) => {
      commands.push(`insert stock_moves x${docs.length}`);
      const writeErrors = docs.flatMap((move, index) => (clashes(move) ? [{ code: 11000, index }] : (moves.set(move._id, move), [])));
      return writeErrors.length ? Promise.reject(new MongoBulkWriteError({ message: 'E11000 duplicate key', code: 11000, writeErrors } as never, {} as never)) : Promise.resolve({});
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

  it('takes from several products in one insert when the known heads allow them all', async () => {
    const { db, moves, commands } = fakeDb({ 1: 10, 2: 10, 3: 10 });
    const ledger = new StockLedger(db);
    await Promise.all([1, 2, 3].map((id) => ledger.head(id)));
    commands.length = 0;
    const outcomes = await ledger.applyAll([1, 2, 3].map((id) => ({ productId: id, op: `take:a:${id}`, plan: take(id) })));
    expect(outcomes.map((o) => o.kind === 'applied' && o.after.quantity)).toEqual([9, 8, 7]);
    expect(commands.filter((c) => !c.startsWith('update'))).toEqual(['insert stock_moves x3']);
    expect([...moves.keys()]).toEqual(['take:a:1', 'take:a:2', 'take:a:3']);
    // The heads it learned: the next take plans from them without a read.
    expect(await ledger.applyAll([{ productId: 2, op: 'take:b:2', plan: take(8) }])).toMatchObject([{ kind: 'applied', after: { quantity: 0, seq: 2 } }]);
  });

  it('a take that loses its slot in the joint insert goes on alone; the others stay applied', async () => {
    const { db, commands } = fakeDb({ 1: 10, 2: 10 });
    const mine = new StockLedger(db);
    const theirs = new StockLedger(db);
    await Promise.all([mine.head(1), mine.head(2)]);
    await theirs.apply(2, 'take:x:2', take(4));
    commands.length = 0;
    const outcomes = await mine.applyAll([
      { productId: 1, op: 'take:a:1', plan: take(1) },
      { productId: 2, op: 'take:a:2', plan: take(5) },
    ]);
    expect(outcomes.map((o) => o.kind === 'applied' && [o.after.seq, o.after.quantity])).toEqual([
      [1, 9],
      [2, 1],
    ]);
    // The joint insert, then product 2 alone: its stale plan again, the op and slot reads, the plan from the move it lost to.
    expect(commands.filter((c) => !c.startsWith('update'))).toEqual(['insert stock_moves x2', 'insert stock_moves', 'find stock_moves', 'find stock_moves', 'insert stock_moves']);
  });

  it('stops at the first product short: later ones are not taken', async () => {
    const { db, moves } = fakeDb({ 1: 10, 2: 1, 3: 10 });
    const ledger = new StockLedger(db);
    const outcomes = await ledger.applyAll([1, 2, 3].map((id) => ({ productId: id, op: `take:a:${id}`, plan: take(2) })));
    expect(outcomes.map((o) => o.kind)).toEqual(['applied', 'short']);
    expect([...moves.keys()]).toEqual(['take:a:1']);
    await expect(ledger.applyAll([1, 1].map((id) => ({ productId: id, op: `take:b:${id}`, plan: take(1) })))).rejects.toThrow(/distinct products/);
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
