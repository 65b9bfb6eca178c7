import type { OutboxEvent, OutboxFlusher } from '../../src/events/outbox';
import {
  type ApplyOptions,
  type MoveOutcome,
  type MovePlan,
  type MoveRequest,
  nextMove,
  type StockDoc,
  type StockHead,
  type StockIntentDoc,
  type StockIntents,
  type StockLedger,
  type StockMoveDoc,
} from '../../src/inventory/repository';
import type { InventoryDeps } from '../../src/inventory/use-cases';
import { createLogger } from '../../src/logger';
import type { OrderDoc } from '../../src/orders/repository';

/**
 * The ledger's contract in memory, for unit tests of the rules around it: an operation applies
 * once, a move follows the newest state, and a plan's shortfall writes nothing. (Concurrency and
 * FerretDB's behaviour are the integration tests' matter.)
 */
export class MemoryLedger {
  readonly stock = new Map<number, StockDoc>();
  readonly moves: StockMoveDoc[] = [];

  constructor(levels: Record<number, number>, threshold?: number) {
    for (const [id, quantity] of Object.entries(levels)) {
      this.stock.set(Number(id), { product_id: Number(id), sku: `SKU-${id}`, quantity, ...(threshold !== undefined ? { low_stock_threshold: threshold } : {}), updated_at: new Date(0) });
    }
  }

  list(): Promise<StockDoc[]> {
    return Promise.resolve([...this.stock.values()].sort((a, b) => a.product_id - b.product_id));
  }

  head(productId: number): Promise<StockHead | undefined> {
    const doc = this.stock.get(productId);
    return Promise.resolve(doc && { product_id: productId, sku: doc.sku, seq: doc.seq ?? 0, quantity: doc.quantity, low_stock_threshold: doc.low_stock_threshold ?? 5 });
  }

  latest(from: StockHead): Promise<StockHead> {
    return Promise.resolve(from);
  }

  findMove(op: string): Promise<StockMoveDoc | undefined> {
    return Promise.resolve(this.moves.find((m) => m._id === op));
  }

  outboxOf(op: string): Promise<OutboxEvent[]> {
    return Promise.resolve(this.moves.find((m) => m._id === op)?.outbox ?? []);
  }

  async apply(productId: number, op: string, plan: (head: StockHead) => MovePlan, opts: ApplyOptions = {}): Promise<MoveOutcome> {
    const done = this.moves.find((m) => m._id === op);
    if (done) return { kind: 'exists', move: done };
    const head = await this.head(productId);
    if (!head) return { kind: 'unknown' };
    const planned = plan(head);
    if (planned.short) return { kind: 'short', head };
    const { move, after } = nextMove(op, head, planned, opts.now ?? new Date());
    await opts.beforeInsert?.(move);
    this.moves.push(move);
    const doc = this.stock.get(productId)!;
    Object.assign(doc, { quantity: after.quantity, seq: after.seq, low_stock_threshold: after.low_stock_threshold });
    return { kind: 'applied', move, before: head, after };
  }

  /** As the ledger's: each in turn, stopping at the first not applied. */
  async applyAll(requests: readonly MoveRequest[], opts: { now?: Date } = {}): Promise<MoveOutcome[]> {
    const outcomes: MoveOutcome[] = [];
    for (const r of requests) {
      const outcome = await this.apply(r.productId, r.op, r.plan, opts);
      outcomes.push(outcome);
      if (outcome.kind !== 'applied') break;
    }
    return outcomes;
  }

  /** The units of each product now. */
  levels(): Record<number, number> {
    return Object.fromEntries([...this.stock.values()].map((s) => [s.product_id, s.quantity]));
  }
}

/** The stock intents in memory. */
export class MemoryIntents {
  readonly docs = new Map<string, StockIntentDoc>();

  note(doc: StockIntentDoc): Promise<void> {
    if (!this.docs.has(doc._id)) this.docs.set(doc._id, { ...doc });
    return Promise.resolve();
  }

  remove(id: string): Promise<void> {
    this.docs.delete(id);
    return Promise.resolve();
  }

  due(before: Date): Promise<StockIntentDoc[]> {
    return Promise.resolve([...this.docs.values()].filter((d) => d.created_at < before));
  }
}

/** Inventory deps over the in-memory ledger and intents. */
export function memoryInventory(
  levels: Record<number, number>,
  opts: { outbox: OutboxFlusher; orders?: InventoryDeps['orders']; now?: () => Date; threshold?: number },
): InventoryDeps & { ledger: MemoryLedger; intents: MemoryIntents } {
  const ledger = new MemoryLedger(levels, opts.threshold);
  const intents = new MemoryIntents();
  const deps = {
    ledger: ledger as unknown as StockLedger,
    intents: intents as unknown as StockIntents,
    outbox: opts.outbox,
    orders: opts.orders ?? { findById: (): Promise<OrderDoc | undefined> => Promise.resolve(undefined) },
    logger: createLogger('silent', 'test'),
    ...(opts.now ? { now: opts.now } : {}),
  };
  return { ...deps, ledger, intents } as InventoryDeps & { ledger: MemoryLedger; intents: MemoryIntents };
}
