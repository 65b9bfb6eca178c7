import { insertAll } from '../db/insert-all';
import { LRUCache } from 'lru-cache';
import { type AnyBulkWriteOperation, type Collection, type Db, MongoBulkWriteError, MongoServerError } from 'mongodb';
import type { StockLevel } from '../contract/types';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import type { OutboxEvent } from '../events/outbox';
import { defaultLowStockThreshold } from './rules';

/**
 * The stock of one product as the API lists it: a materialized copy of the product's newest
 * move (`seq`), rewritten shortly after each move (coalesced: see StockLedger). The ledger
 * (`stock_moves`) is the truth; this copy may lag behind it (by one batch, or after a crash until
 * the product's next move), which every move and every refusal looks past.
 */
export interface StockDoc {
  product_id: number;
  sku: string;
  quantity: number;
  /** The threshold `stock.low` watches; absent: `defaultLowStockThreshold`. */
  low_stock_threshold?: number;
  /** The ledger position `quantity` is from; absent: 0 (the seeded level, before any move). */
  seq?: number;
  updated_at: Date;
}

/** Why a move happened; `release` gives back what a reservation took for an order never written. */
export type MoveReason = 'order' | 'release' | 'cancellation' | 'adjustment';

/**
 * One entry of a product's stock ledger. `_id` is the operation's key (`take:<reservation>:<product>`,
 * `release:…`, `return:<order>:<product>`, `adjust:<id>`), so an operation applies at most once;
 * `slot` (`<product>:<seq>`, unique) is its place in the product's chain, so at most one move
 * follows each state. Both are unique indexes: an insert is the only atomic conditional write
 * FerretDB v1 has (its updates read, then write the whole document back, so a conditional
 * `$inc` loses concurrent updates and oversells).
 */
export interface StockMoveDoc {
  _id: string;
  slot: string;
  product_id: number;
  seq: number;
  delta: number;
  previous_quantity: number;
  /** Units after the move; never below zero. */
  quantity: number;
  /** The threshold after the move. */
  low_stock_threshold: number;
  reason: MoveReason;
  order_id?: number;
  created_at: Date;
  /** Events written with the move (cancellations, adjustments): they exist together or not at all. */
  outbox: OutboxEvent[];
  /** Events of the move written elsewhere (a take's, with its order, if that is written): their ids and the dispatch note announcing them. */
  elsewhere?: MoveEventsElsewhere;
}

/** The ids of a move's events that another document carries, and the id of the dispatch note that announces them. */
export interface MoveEventsElsewhere {
  ids: string[];
  note: string;
}

/** A product's newest state: what the next move starts from. */
export interface StockHead {
  product_id: number;
  sku: string;
  seq: number;
  quantity: number;
  low_stock_threshold: number;
}

/** What a move will write, given the head it follows; `short` when the head has too few units. */
export type MovePlan =
  | { short: true }
  | {
      short?: false;
      delta: number;
      low_stock_threshold: number;
      reason: MoveReason;
      order_id?: number;
      outbox: (head: StockHead, after: StockHead) => OutboxEvent[];
      elsewhere?: MoveEventsElsewhere;
    };

/** How `StockLedger.apply` runs: from a head read earlier, at a time, announcing each move before it is written. */
export interface ApplyOptions {
  hint?: StockHead | undefined;
  now?: Date;
  beforeInsert?: (move: StockMoveDoc) => Promise<void>;
}

/** One operation of `StockLedger.applyAll`: what `apply` takes. */
export interface MoveRequest {
  productId: number;
  op: string;
  plan: (head: StockHead) => MovePlan;
}

/** The outcome of `StockLedger.apply`. */
export type MoveOutcome =
  | { kind: 'applied'; move: StockMoveDoc; before: StockHead; after: StockHead }
  /** The operation had been applied before (a retry, a repeated cancel): nothing new happened. */
  | { kind: 'exists'; move: StockMoveDoc }
  | { kind: 'short'; head: StockHead }
  | { kind: 'unknown' };

/** The API shape of a stored stock level. */
export function toStockLevel(doc: StockDoc): StockLevel {
  return {
    product_id: doc.product_id,
    sku: doc.sku,
    quantity: doc.quantity,
    low_stock_threshold: doc.low_stock_threshold ?? defaultLowStockThreshold,
    updated_at: doc.updated_at.toISOString(),
  };
}

const maxApplyTries = 10_000;

function slotOf(productId: number, seq: number): string {
  return `${productId}:${seq}`;
}

/** The move `planned` makes from `head`, in the slot after it, and the state it leaves. */
export function nextMove(op: string, head: StockHead, planned: Exclude<MovePlan, { short: true }>, now: Date): { move: StockMoveDoc; after: StockHead } {
  const after: StockHead = { ...head, seq: head.seq + 1, quantity: head.quantity + planned.delta, low_stock_threshold: planned.low_stock_threshold };
  const move: StockMoveDoc = {
    _id: op,
    slot: slotOf(head.product_id, after.seq),
    product_id: head.product_id,
    seq: after.seq,
    delta: planned.delta,
    previous_quantity: head.quantity,
    quantity: after.quantity,
    low_stock_threshold: after.low_stock_threshold,
    reason: planned.reason,
    ...(planned.order_id !== undefined ? { order_id: planned.order_id } : {}),
    ...(planned.elsewhere ? { elsewhere: planned.elsewhere } : {}),
    created_at: now,
    outbox: planned.outbox(head, after),
  };
  return { move, after };
}

function headOfDoc(doc: StockDoc): StockHead {
  return {
    product_id: doc.product_id,
    sku: doc.sku,
    seq: doc.seq ?? 0,
    quantity: doc.quantity,
    low_stock_threshold: doc.low_stock_threshold ?? defaultLowStockThreshold,
  };
}

function headOf(known: KnownHead): StockHead {
  return { product_id: known.product_id, sku: known.sku, seq: known.seq, quantity: known.quantity, low_stock_threshold: known.low_stock_threshold };
}

function headOfMove(move: StockMoveDoc, sku: string): StockHead {
  return { product_id: move.product_id, sku, seq: move.seq, quantity: move.quantity, low_stock_threshold: move.low_stock_threshold };
}

function isDuplicate(err: unknown): boolean {
  return err instanceof MongoServerError && err.code === 11000;
}

/** How long a move's state waits to be copied to `stock`, so that moves meanwhile share one write. */
const materializeDelayMs = 50;

/** At most this many stock levels per copying write, and moves per insert: FerretDB v1 wedges on ~50+ statements in one command. */
const maxCopiesPerWrite = 8;

/** A product's head as this process last knew it, and when it was written. */
type KnownHead = StockHead & { at: Date };

/**
 * Stock levels (`stock`) and the ledger of their changes (`stock_moves`).
 *
 * Each process remembers every product's newest head it saw (its own moves, or a read) and
 * plans the next move from it: no read before a take. A head another process moved past only
 * costs a lost slot and a read of the move in it, as the chain guard makes any stale plan do.
 * The `stock` copy is written after the move, not awaited by it: the newest states of the
 * products moved within `materializeDelayMs` go in one write (eight products a command), one
 * copy in flight at a time (latest state wins). `list` and `find` show the heads this process
 * knows over the stored copy, so a process reads its own writes at once; other processes see a
 * change once that write lands (`materializeDelayMs` and one write), or after a crash only at
 * the product's next move.
 */
export class StockLedger {
  static readonly indexes: readonly IndexSpec[] = [
    { collection: 'stock', name: 'product_unique', key: { product_id: 1 }, unique: true },
    // The chain guard: one move per (product, position).
    { collection: 'stock_moves', name: 'slot_unique', key: { slot: 1 }, unique: true },
  ];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'stock', method: 'StockLedger.list', equality: [], sort: { product_id: 1 }, index: 'product_unique' },
    { collection: 'stock', method: 'StockLedger.insertAll', equality: ['product_id'], index: 'product_unique' },
    { collection: 'stock', method: 'StockLedger.find', equality: ['product_id'], index: 'product_unique' },
    { collection: 'stock', method: 'StockLedger.head', equality: ['product_id'], index: 'product_unique' },
    { collection: 'stock_moves', method: 'StockLedger.apply', equality: ['_id'], index: '_id_' },
    { collection: 'stock_moves', method: 'StockLedger.applyAll', equality: ['_id'], index: '_id_' },
    { collection: 'stock_moves', method: 'StockLedger.applyAll (next in chain)', equality: ['slot'], index: 'slot_unique' },
    { collection: 'stock_moves', method: 'StockLedger.apply (next in chain)', equality: ['slot'], index: 'slot_unique' },
    { collection: 'stock_moves', method: 'StockLedger.findMove', equality: ['_id'], index: '_id_' },
    { collection: 'stock_moves', method: 'StockLedger.outboxOf', equality: ['_id'], index: '_id_' },
    { collection: 'stock_moves', method: 'StockLedger.latest', equality: ['slot'], index: 'slot_unique' },
    { collection: 'stock_moves', method: 'StockLedger.moveAt', equality: ['slot'], index: 'slot_unique' },
    // $not $gte only narrows within the one document the product_id finds.
    { collection: 'stock', method: 'StockLedger.materialize', equality: ['product_id'], range: ['seq'], index: 'product_unique' },
    { collection: 'stock', method: 'StockLedger.copyPending', equality: ['product_id'], range: ['seq'], index: 'product_unique' },
  ];

  readonly #stock: Collection<StockDoc>;
  readonly #moves: Collection<StockMoveDoc>;
  readonly #heads = new LRUCache<number, KnownHead>({ max: 10_000 });
  /** The last move queued per product in this process: the next one waits for it. */
  readonly #lanes = new Map<number, Promise<void>>();
  /** States moved but not yet copied to `stock`, by product. */
  readonly #uncopied = new Map<number, KnownHead>();
  #copyTimer: NodeJS.Timeout | undefined;
  #copying: Promise<void> = Promise.resolve();

  constructor(
    db: Db,
    /** Told when copying states to `stock` failed (the next move of the product copies again). */
    private readonly onCopyError: (err: unknown) => void = () => {},
  ) {
    this.#stock = db.collection<StockDoc>('stock');
    this.#moves = db.collection<StockMoveDoc>('stock_moves');
  }

  /** Remembers `head` as the product's newest unless a later one is known. */
  #learn(head: StockHead, at = new Date()): void {
    const known = this.#heads.get(head.product_id);
    if (!known || known.seq < head.seq) this.#heads.set(head.product_id, { ...head, at });
  }

  /** The stored level, or the newer head this process knows. */
  #overlay(doc: StockDoc): StockDoc {
    const known = this.#heads.get(doc.product_id);
    if (!known || known.seq <= (doc.seq ?? 0)) return doc;
    return { ...doc, quantity: known.quantity, low_stock_threshold: known.low_stock_threshold, seq: known.seq, updated_at: known.at };
  }

  async list(): Promise<StockDoc[]> {
    const docs = await this.#stock.find({}, { projection: { _id: 0 } }).sort({ product_id: 1 }).toArray();
    return docs.map((d) => this.#overlay(d));
  }

  /** Inserts the stock levels as they are (seeding). */
  async insertAll(docs: readonly StockDoc[]): Promise<void> {
    await insertAll(this.#stock, docs, { allowExisting: false });
  }

  /** The product's stock level as `list` shows it, or undefined when it has none. */
  async find(productId: number): Promise<StockDoc | undefined> {
    const doc = await this.#stock.findOne({ product_id: productId }, { projection: { _id: 0 } });
    return doc ? this.#overlay(doc) : undefined;
  }

  /** The product's newest state this process knows, else as last materialized (either may lag behind the ledger); undefined when it has no stock. */
  async head(productId: number): Promise<StockHead | undefined> {
    const known = this.#heads.get(productId);
    if (known) return headOf(known);
    const doc = await this.#stock.findOne({ product_id: productId }, { projection: { _id: 0 } });
    if (!doc) return undefined;
    const head = headOfDoc(doc);
    this.#learn(head, doc.updated_at);
    return head;
  }

  async findMove(op: string): Promise<StockMoveDoc | undefined> {
    return (await this.#moves.findOne({ _id: op })) ?? undefined;
  }

  /** The move in the product's chain at `seq` (its events, where they are), or undefined past the chain's end. */
  async moveAt(productId: number, seq: number): Promise<Pick<StockMoveDoc, 'seq' | 'outbox' | 'elsewhere'> | undefined> {
    return (await this.#moves.findOne({ slot: slotOf(productId, seq) }, { projection: { _id: 0, seq: 1, outbox: 1, elsewhere: 1 } })) ?? undefined;
  }

  /** The outbox of a move (the relay reads it to flush what a crash left). */
  async outboxOf(op: string): Promise<OutboxEvent[]> {
    return (await this.#moves.findOne({ _id: op }, { projection: { outbox: 1 } }))?.outbox ?? [];
  }

  /** The product's newest state: the materialized copy, followed along the ledger to its end. */
  async latest(from: StockHead): Promise<StockHead> {
    let head = from;
    for (;;) {
      const next = await this.#moves.findOne({ slot: slotOf(head.product_id, head.seq + 1) });
      if (!next) return head;
      head = headOfMove(next, head.sku);
      this.#learn(head, next.created_at);
    }
  }

  /**
   * Applies operation `op` to the product's stock once: inserts the move `plan` makes from the
   * newest state into the next slot of the chain. Losing the slot to a concurrent move means
   * reading that move and planning again from it; finding `op` already stored means it was
   * applied before. Moves of one product in this process go one at a time (two planned from one
   * head would only clash). `hint` (a head read earlier) or the head this process knows saves a read; the
   * state is copied to `stock` soon after, not awaited (see the class). `beforeInsert` runs before each
   * insert attempt (the dispatch notes of its outbox). Never writes a negative level: the plan
   * sees the true newest state, as only the move from that state can take the slot.
   */
  async apply(productId: number, op: string, plan: (head: StockHead) => MovePlan, opts: ApplyOptions = {}): Promise<MoveOutcome> {
    return this.#inLanes([productId], () => this.#apply(productId, op, plan, opts));
  }

  /**
   * Applies operations on distinct products as `apply` applies each, in request order, stopping at
   * the first one not applied (the outcomes end there). When every product's head is known and
   * allows its move, all moves go in one insert (an order's takes in one command); a move that
   * loses its slot in it goes on alone as `apply` would, and so do all when a head is unknown or
   * plans short.
   */
  async applyAll(requests: readonly MoveRequest[], opts: { now?: Date } = {}): Promise<MoveOutcome[]> {
    const productIds = requests.map((r) => r.productId);
    if (new Set(productIds).size !== productIds.length) throw new Error(`applyAll needs distinct products, got ${productIds.join(', ')}`);
    return this.#inLanes(productIds, () => this.#applyAll(requests, opts.now ?? new Date()));
  }

  /** Runs `task` once every earlier move of these products in this process has settled; later ones wait for it. */
  #inLanes<T>(productIds: readonly number[], task: () => Promise<T>): Promise<T> {
    // One move of a product at a time in this process: two planned from the same head would only clash.
    const run = Promise.all(productIds.map((id) => this.#lanes.get(id) ?? Promise.resolve())).then(task);
    const lane = run.then(
      () => undefined,
      () => undefined,
    );
    for (const id of productIds) this.#lanes.set(id, lane);
    void lane.then(() => {
      for (const id of productIds) if (this.#lanes.get(id) === lane) this.#lanes.delete(id);
    });
    return run;
  }

  async #applyAll(requests: readonly MoveRequest[], now: Date): Promise<MoveOutcome[]> {
    const heads = await Promise.all(requests.map((r) => this.head(r.productId)));
    const planned = requests.map((r, i) => {
      const head = heads[i];
      const plan = head && r.plan(head);
      return head && plan && !plan.short ? { before: head, ...nextMove(r.op, head, plan, now) } : undefined;
    });
    const inserted = new Map<number, MoveOutcome>();
    if (requests.length > 1 && planned.every((p) => p !== undefined)) {
      const refused = await this.#insertEach(planned.flatMap((p) => (p ? [p.move] : [])));
      for (const [i, p] of planned.entries()) {
        if (!p || refused.has(i)) continue;
        this.#learn(p.after, now);
        this.#copySoon({ ...p.after, at: now });
        inserted.set(i, { kind: 'applied', move: p.move, before: p.before, after: p.after });
      }
    }
    const outcomes: MoveOutcome[] = [];
    for (const [i, r] of requests.entries()) {
      const outcome = inserted.get(i) ?? (await this.#apply(r.productId, r.op, r.plan, { now }));
      outcomes.push(outcome);
      if (outcome.kind !== 'applied') break;
    }
    return outcomes;
  }

  /** Inserts the moves, each on its own, `maxCopiesPerWrite` a command; returns the indexes of those refused as duplicates (a lost slot, an op applied before). */
  async #insertEach(moves: readonly StockMoveDoc[]): Promise<Set<number>> {
    const refused = new Set<number>();
    for (let start = 0; start < moves.length; start += maxCopiesPerWrite) {
      try {
        await this.#moves.insertMany(moves.slice(start, start + maxCopiesPerWrite), { ordered: false });
      } catch (err) {
        if (!(err instanceof MongoBulkWriteError)) throw err;
        const errors = [err.writeErrors].flat();
        if (errors.length === 0 || errors.some((e) => e.code !== 11000)) throw err;
        for (const e of errors) refused.add(start + e.index);
      }
    }
    return refused;
  }

  async #apply(productId: number, op: string, plan: (head: StockHead) => MovePlan, opts: ApplyOptions): Promise<MoveOutcome> {
    const now = opts.now ?? new Date();
    const known = await this.head(productId);
    // The caller's hint may predate a move this process made meanwhile: the newer one.
    let head = opts.hint && (!known || opts.hint.seq > known.seq) ? opts.hint : known;
    if (!head) return { kind: 'unknown' };
    // Every lost slot is another move's progress; the bound only stops a loop nothing can end.
    for (let tries = 0; tries < maxApplyTries; tries++) {
      const planned = plan(head);
      if (planned.short) {
        // A shortfall on a lagging copy is not one yet: decide on the chain's end.
        const newest = await this.latest(head);
        if (newest.seq === head.seq) return { kind: 'short', head };
        head = newest;
        continue;
      }
      const { move, after } = nextMove(op, head, planned, now);
      await opts.beforeInsert?.(move);
      try {
        await this.#moves.insertOne(move);
      } catch (err) {
        if (!isDuplicate(err)) throw err;
        const done = await this.#moves.findOne({ _id: op });
        if (done) return { kind: 'exists', move: done };
        const next = await this.#moves.findOne({ slot: move.slot });
        // Moves are never deleted: a clash that is neither the op nor the slot cannot last, so read again.
        if (!next) continue;
        head = headOfMove(next, head.sku);
        this.#learn(head, next.created_at);
        continue;
      }
      this.#learn(after, now);
      this.#copySoon({ ...after, at: now });
      return { kind: 'applied', move, before: head, after };
    }
    throw new Error(`stock move ${op} found no free slot after ${maxApplyTries} tries`);
  }

  /** Queues a state for the next copy to `stock`, replacing an older one of the product. */
  #copySoon(state: KnownHead): void {
    const queued = this.#uncopied.get(state.product_id);
    if (!queued || queued.seq < state.seq) this.#uncopied.set(state.product_id, state);
    this.#copyTimer ??= setTimeout(() => void this.copyPending(), materializeDelayMs);
  }

  /** Copies the queued states to `stock` now (a stopping process); resolves once every copy so far is written or failed. */
  async copyPending(): Promise<void> {
    clearTimeout(this.#copyTimer);
    this.#copyTimer = undefined;
    const states = [...this.#uncopied.values()];
    this.#uncopied.clear();
    // One copy in flight at a time: a later state never races an earlier one to the same document.
    this.#copying = this.#copying.then(() => this.#materialize(states)).catch((err: unknown) => this.onCopyError(err));
    await this.#copying;
  }

  /**
   * Copies each state to its product's stock level unless a later one is there already: one
   * write per `maxCopiesPerWrite` products. On FerretDB the condition is checked before an unconditional write-back, so a
   * stalled writer may still put an older state back; the next move of the product reads the
   * ledger past it.
   */
  async #materialize(states: readonly KnownHead[]): Promise<void> {
    for (let i = 0; i < states.length; i += maxCopiesPerWrite) {
      const ops: Array<AnyBulkWriteOperation<StockDoc>> = states.slice(i, i + maxCopiesPerWrite).map((s) => ({
        updateOne: {
          filter: { product_id: s.product_id, seq: { $not: { $gte: s.seq } } },
          update: { $set: { quantity: s.quantity, seq: s.seq, low_stock_threshold: s.low_stock_threshold, updated_at: s.at } },
        },
      }));
      // A few statements per command: FerretDB v1 wedges on ~50+, and 8 hold no more connections than 8 single updates at once.
      // eslint-disable-next-line no-restricted-properties
      await this.#stock.bulkWrite(ops, { ordered: false });
    }
  }
}

/**
 * Stock work that must finish or be undone, noted before its first move: the return of a
 * cancelled order's units (`return:<order>`), or a reservation for an order noted by an earlier
 * version (`reserve:<reservation>`; reservations are noted in the order's dispatch note now).
 * Removed when the work is done; one left behind is what a crash interrupted, and the sweeper
 * finishes it from the note (src/inventory/use-cases.ts says how).
 */
export interface StockIntentDoc {
  _id: string;
  kind: 'reserve' | 'return';
  /** The units per product (an order's lines of one product added up). */
  items: Array<{ product_id: number; quantity: number }>;
  /** The order the reservation is for (the id it was being written under), or the cancelled order. */
  order_id?: number;
  created_at: Date;
}

/** The `stock_intents` collection. */
export class StockIntents {
  static readonly indexes: readonly IndexSpec[] = [];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'stock_intents', method: 'StockIntents.note', equality: ['_id'], index: '_id_' },
    { collection: 'stock_intents', method: 'StockIntents.remove', equality: ['_id'], index: '_id_' },
    {
      collection: 'stock_intents',
      method: 'StockIntents.due',
      equality: [],
      range: ['created_at'],
      unindexed: 'no index on created_at: the intents are scanned (only requests in flight and what crashes left)',
    },
  ];

  readonly #collection: Collection<StockIntentDoc>;

  constructor(db: Db) {
    this.#collection = db.collection<StockIntentDoc>('stock_intents');
  }

  /** Notes the work unless noted already (a repeated cancel keeps the first note and its time). */
  async note(doc: StockIntentDoc): Promise<void> {
    try {
      await this.#collection.insertOne(doc);
    } catch (err) {
      if (!isDuplicate(err)) throw err;
    }
  }

  async remove(id: string): Promise<void> {
    await this.#collection.deleteOne({ _id: id });
  }

  /** Up to `limit` intents noted before `before`. */
  async due(before: Date, limit: number): Promise<StockIntentDoc[]> {
    return this.#collection.find({ created_at: { $lt: before } }).limit(limit).toArray();
  }
}
