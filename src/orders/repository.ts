import { insertAll } from '../db/insert-all';
import { LRUCache } from 'lru-cache';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { Collection, Db, Filter } from 'mongodb';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import { type ListWriting, Timeline, timelineShapes, withoutTimelineFields } from '../db/timeline';
import type { OutboxEvent } from '../events/outbox';
import type { CurrencyCode, Order, OrderStatus, OrderSummary, Product, User } from '../contract/types';
import type { ProductFilter, SummaryField } from './rules';
import { CLAIM_LEASE_MS, heldClaim, pastWriteWindow, type TransitionOutcome } from './claim-lease';
import { claimId, TransitionClaims } from './transition-claims';

/** How a user is stored: the numeric id is the document id. */
export interface UserDoc {
  _id: number;
  name: string;
  email: string;
  created_at: Date;
}

/** How a catalog product is stored. `price` is a decimal amount with at most two decimals. */
export interface ProductDoc {
  _id: number;
  sku: string;
  name: string;
  category: string;
  price: number;
  currency: CurrencyCode;
}

/** One order line, priced from the catalog at order time. */
export interface OrderItemDoc {
  product_id: number;
  quantity: number;
  unit_price: number;
}

/**
 * How an order is stored. `outbox` holds the events of the last changes until the relay has
 * moved them to the event log; it never leaves the repository through `toOrder`.
 */
export interface OrderDoc {
  /** Storage key, `orderKey(id)`: FerretDB v1 looks up string `_id`s by index but scans for numbers. */
  _id: string;
  /** The order's number, as the API shows it. */
  id: number;
  /** Owner of the API key that created it: other owners see a 404 (admin keys see all). */
  owner_id: string;
  user_id: number;
  status: OrderStatus;
  items: OrderItemDoc[];
  total: number;
  currency: CurrencyCode;
  /** Creation time. */
  date: Date;
  updated_at: Date;
  outbox: OutboxEvent[];
  /** The stock reservation holding its units (src/inventory); absent on orders from before stock was reserved. */
  reservation_id?: string;
}

/** A named sequence; `seq` is the last value handed out. */
export interface CounterDoc {
  _id: string;
  seq: number;
}

export function toUser(doc: UserDoc): User {
  return { id: doc._id, name: doc.name, email: doc.email, created_at: doc.created_at.toISOString() };
}

export function toProduct(doc: ProductDoc): Product {
  return { id: doc._id, sku: doc.sku, name: doc.name, category: doc.category, price: doc.price, currency: doc.currency };
}

/** The API shape of a stored order (no outbox). */
export function toOrder(doc: OrderDoc): Order {
  return {
    id: doc.id,
    user_id: doc.user_id,
    status: doc.status,
    items: doc.items.map((i) => ({ product_id: i.product_id, quantity: i.quantity, unit_price: i.unit_price })),
    total: doc.total,
    currency: doc.currency,
    date: doc.date.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

/**
 * Users and products are reference data (no route changes them), read on every order: each
 * process keeps what it read for a few seconds. FerretDB v1 scans a collection for an integer
 * `_id`, so these reads were a third of an order's database time.
 */
const referenceTtlMs = 5000;

/** Users by numeric id. */
export class UserRepository {
  static readonly indexes: readonly IndexSpec[] = [];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'users', method: 'UserRepository.findById', equality: ['_id'], index: '_id_' },
    { collection: 'users', method: 'UserRepository.any', equality: [], index: '_id_' },
    { collection: 'users', method: 'UserRepository.insertAll', equality: ['_id'], index: '_id_' },
  ];

  readonly #collection: Collection<UserDoc>;
  private readonly recent = new LRUCache<number, UserDoc>({ max: 10_000, ttl: referenceTtlMs });

  constructor(db: Db) {
    this.#collection = db.collection<UserDoc>('users');
  }

  async findById(id: number): Promise<UserDoc | undefined> {
    const hit = this.recent.get(id);
    if (hit) return hit;
    const doc = (await this.#collection.findOne({ _id: id })) ?? undefined;
    if (doc) this.recent.set(id, doc);
    return doc;
  }

  /** Whether any user is stored (the demo data marks a completed load with its users). */
  async any(): Promise<boolean> {
    return (await this.#collection.findOne({})) !== null;
  }

  /** Inserts the users as they are (seeding). */
  async insertAll(docs: readonly UserDoc[]): Promise<void> {
    await insertAll(this.#collection, docs, { allowExisting: false });
  }
}

/** Catalog products, always in id order. */
export class ProductRepository {
  static readonly indexes: readonly IndexSpec[] = [
    { collection: 'products', name: 'category', key: { category: 1 } },
    { collection: 'products', name: 'sku_unique', key: { sku: 1 }, unique: true },
  ];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'products', method: 'ProductRepository.list', equality: [], sort: { _id: 1 }, index: '_id_' },
    {
      collection: 'products',
      method: 'ProductRepository.list (filter=category)',
      equality: ['category'],
      sort: { _id: 1 },
      unindexed: 'the category index narrows; the _id order is sorted in memory (a small catalog)',
    },
    { collection: 'products', method: 'ProductRepository.list (filter=sku)', equality: ['sku'], sort: { _id: 1 }, index: 'sku_unique' },
    { collection: 'products', method: 'ProductRepository.findByIds', equality: ['_id'], index: '_id_' },
    { collection: 'products', method: 'ProductRepository.insertAll', equality: ['_id'], index: '_id_' },
  ];

  readonly #collection: Collection<ProductDoc>;
  private readonly recent = new LRUCache<number, ProductDoc>({ max: 10_000, ttl: referenceTtlMs });

  constructor(db: Db) {
    this.#collection = db.collection<ProductDoc>('products');
  }

  async list(filter: ProductFilter | undefined, limit: number): Promise<ProductDoc[]> {
    const query: Filter<ProductDoc> = filter ? { [filter.field]: filter.value } : {};
    return this.#collection.find(query).sort({ _id: 1 }).limit(limit).toArray();
  }

  /** The products among `ids` that exist (in no particular order); recently read ones from memory. */
  async findByIds(ids: readonly number[]): Promise<ProductDoc[]> {
    const wanted = [...new Set(ids)];
    const hits = wanted.flatMap((id) => this.recent.get(id) ?? []);
    const missing = wanted.filter((id) => !this.recent.has(id));
    if (missing.length === 0) return hits;
    const read = await this.#collection.find({ _id: { $in: missing } }).toArray();
    for (const doc of read) this.recent.set(doc._id, doc);
    return [...hits, ...read];
  }

  /** Inserts the products as they are (seeding). */
  async insertAll(docs: readonly ProductDoc[]): Promise<void> {
    await insertAll(this.#collection, docs, { allowExisting: false });
  }
}

/** Claims of one place tried at most: each past the first stands for a claimer that died within its lease. */
const MAX_CLAIM_GENERATIONS = 100;

/** The storage key of order `id` (its decimal digits). */
export function orderKey(id: number): string {
  return String(id);
}

/** The lists an order is in: its user's orders, and those of its owner only. */
function listsOf(doc: Pick<OrderDoc, 'user_id' | 'owner_id'>): string[] {
  return [userList(doc.user_id), userList(doc.user_id, doc.owner_id)];
}

function userList(userId: number, ownerId?: string): string {
  return ownerId === undefined ? `u:${userId}` : `u:${userId}|o:${ownerId}`;
}

/** An order as stored: with the timeline tags of the lists it is in. */
type StoredOrder = OrderDoc & { tl?: string[]; tl_tenth?: number };

/** Orders, and the counter their integer ids come from. */
export class OrderRepository {
  static readonly indexes: readonly IndexSpec[] = [
    // The lists: one bucket of one list, newest first (src/db/timeline.ts).
    { collection: 'orders', name: 'timeline', key: { tl: 1, date: -1, id: -1 } },
  ];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'orders', method: 'OrderRepository.tagUnlisted', equality: [], range: ['tl'], index: 'timeline' },
    { collection: 'counters', method: 'OrderRepository.reserveIds', equality: ['_id'], index: '_id_' },
    { collection: 'orders', method: 'OrderRepository.insertNew', equality: ['_id'], index: '_id_' },
    { collection: 'orders', method: 'OrderRepository.insertAll', equality: ['_id'], index: '_id_' },
    { collection: 'counters', method: 'OrderRepository.raiseCounterTo', equality: ['_id'], index: '_id_' },
    { collection: 'orders', method: 'OrderRepository.outboxOf', equality: ['_id'], index: '_id_' },
    { collection: 'orders', method: 'OrderRepository.findById', equality: ['_id'], index: '_id_' },
    // listSummariesOf reads the lists, newest first by date then order id.
    ...timelineShapes('orders', 'date', { list: ['OrderRepository.listSummariesOf'] }, 'id'),
    { collection: 'orders', method: 'OrderRepository.transition', equality: ['_id', 'status'], index: '_id_' },
    { collection: 'orders', method: 'OrderRepository.claimPlace', equality: ['_id'], index: '_id_' },
  ];

  readonly #collection: Collection<StoredOrder>;
  readonly #counters: Collection<CounterDoc>;
  readonly #timeline: Timeline;
  readonly #claims: TransitionClaims;
  /** This process's reserved ids: `next` up to (not including) `end`. */
  private ids = { next: 0, end: 0 };
  private reserving: Promise<void> | undefined;

  constructor(
    db: Db,
    private readonly idBlockSize = 16,
    lists: ListWriting = {},
  ) {
    this.#collection = db.collection<StoredOrder>('orders');
    this.#counters = db.collection<CounterDoc>('counters');
    this.#timeline = new Timeline(db, 'orders', 'timeline', lists);
    this.#claims = new TransitionClaims(db);
  }

  /** The documents with their tags, once their lists' buckets are registered (before they are written). */
  async #listed(docs: readonly OrderDoc[]): Promise<StoredOrder[]> {
    return this.#timeline.listed(docs, listsOf, (d) => d.date);
  }

  /**
   * Reserves the next block of `idBlockSize` order ids from the `orders` counter (created if
   * absent): one counter write per block instead of one per order. Ids stay increasing within a
   * process; a restart leaves at most one block's gap.
   */
  private async reserveIds(): Promise<void> {
    const counter = await this.#counters.findOneAndUpdate({ _id: 'orders' }, { $inc: { seq: this.idBlockSize } }, { upsert: true, returnDocument: 'after' });
    if (!counter) throw new Error('order counter upsert returned no document');
    this.ids = { next: counter.seq - this.idBlockSize + 1, end: counter.seq + 1 };
  }

  /** The next order id of this process's block, reserving a block when it ran out (1/16 of a counter write). */
  async nextId(): Promise<number> {
    while (this.ids.next >= this.ids.end) {
      // Concurrent requests share one reservation.
      this.reserving ??= this.reserveIds().finally(() => (this.reserving = undefined));
      await this.reserving;
    }
    return this.ids.next++;
  }

  /**
   * Inserts a new order with its outbox: one document, so both exist or neither. False when its
   * id is taken: FerretDB v1's findAndModify is not atomic under concurrency (two processes can
   * reserve the same block), so the unique `_id` is the real guard; the block is dropped then,
   * and the next id comes from a new one.
   */
  async insertNew(doc: OrderDoc): Promise<boolean> {
    const [stored] = await this.#listed([doc]);
    if (await insertIfAbsent(this.#collection, stored!)) return true;
    this.ids = { next: 0, end: 0 };
    return false;
  }

  /** Inserts orders as they are (seeding: their ids are below the counter, see `raiseCounterTo`). */
  async insertAll(docs: readonly OrderDoc[]): Promise<void> {
    await insertAll(this.#collection, await this.#listed(docs), { allowExisting: false });
  }

  /** Raises the order id counter to `seq` unless it is past it already: ids handed out stay unique. */
  async raiseCounterTo(seq: number): Promise<void> {
    await this.#counters.updateOne({ _id: 'orders' }, { $max: { seq } }, { upsert: true });
  }

  /** The order's outbox: the events of its changes (the relay reads it to flush what a crash left). */
  async outboxOf(id: number): Promise<OutboxEvent[]> {
    return (await this.#collection.findOne({ _id: orderKey(id) }, { projection: { outbox: 1 } }))?.outbox ?? [];
  }

  async findById(id: number): Promise<OrderDoc | undefined> {
    return (await this.#collection.findOne({ _id: orderKey(id) }, { projection: withoutTimelineFields })) ?? undefined;
  }

  /**
   * A user's orders, newest first (creation time, then id), carrying only `fields`: the
   * sort keys need not be projected, the database sorts before it projects.
   */
  /** The user's newest orders, of `ownerId` only when given. */
  async listSummariesOf(userId: number, fields: ReadonlySet<SummaryField>, limit: number, ownerId?: string): Promise<OrderSummary[]> {
    const projection = {
      _id: 0,
      ...(fields.has('id') ? { id: 1 } : {}),
      ...(fields.has('total') ? { total: 1 } : {}),
      ...(fields.has('date') ? { date: 1 } : {}),
    };
    const rows = await this.#timeline.page(this.#collection, userList(userId, ownerId), { timeField: 'date', tieField: 'id', limit, projection });
    return rows.map((row) => ({
      ...(fields.has('id') ? { id: row.id } : {}),
      ...(fields.has('total') ? { total: row.total } : {}),
      ...(fields.has('date') ? { date: row.date.toISOString() } : {}),
    }));
  }

  /**
   * Moves an order from `from` to `to` and appends its event (whose `seq` is its place among the
   * order's events), in one single-document update that only matches while the order is still in
   * `from`. FerretDB v1 runs that update as a read then a write, so two changes from one status
   * could both land: the change first claims its place by an insert (src/orders/transition-claims.ts),
   * and of concurrent changes only the one that took it runs `beforeWrite` and writes. Nothing is
   * written unless `written`: `changed` when another change landed or the order moved on
   * meanwhile, busy when the place is held by a change that has not landed (src/orders/claim-lease.ts).
   */
  async transition(
    id: number,
    from: OrderStatus,
    to: OrderStatus,
    event: OutboxEvent,
    now: Date,
    beforeWrite?: () => Promise<void>,
  ): Promise<TransitionOutcome> {
    if (event.seq === undefined) throw new Error(`the event of a change of order ${id} has no place (seq)`);
    const claimedAt = Date.now();
    const claim = await this.claimPlace(id, from, event.seq, event.id, new Date(claimedAt));
    if (claim !== 'claimed') return claim;
    await beforeWrite?.();
    // Past its share of the lease the claim may be taken for stale: better busy than racing the next claimant.
    const late = pastWriteWindow(claimedAt, Date.now());
    if (late) return late;
    const result = await this.#collection.updateOne(
      { _id: orderKey(id), status: from },
      { $set: { status: to, updated_at: now }, $push: { outbox: event } },
    );
    return result.matchedCount === 1 ? { kind: 'written' } : { kind: 'changed' };
  }

  /**
   * Claims place `seq` of order `id` for `eventId`. A claim held within its lease wins; one older
   * whose change never landed (the order is still in `from`, its event not in the outbox) died with
   * its claimer, and the place goes to whoever inserts the next generation's claim first.
   */
  private async claimPlace(id: number, from: OrderStatus, seq: number, eventId: string, at: Date): Promise<'claimed' | Exclude<TransitionOutcome, { kind: 'written' }>> {
    for (let generation = 0; generation < MAX_CLAIM_GENERATIONS; generation++) {
      const claim = claimId(id, seq, generation);
      if (await this.#claims.take(claim, eventId, at)) return 'claimed';
      const held = await this.#claims.holder(claim);
      const order = await this.#collection.findOne({ _id: orderKey(id) }, { projection: { status: 1, outbox: 1 } });
      const verdict = heldClaim(held, order ?? undefined, from, at.getTime());
      if (verdict !== 'stale') return verdict;
    }
    // Every generation taken by a claimer that died: the order did not change, so retrying is the answer.
    return { kind: 'busy', cause: 'held', retryAfterMs: CLAIM_LEASE_MS };
  }

  /** Tags what was stored before this collection had lists (see Timeline.backfill); once per database. */
  tagUnlisted(): Promise<number> {
    return this.#timeline.backfill(this.#collection, 'date', listsOf);
  }
}
