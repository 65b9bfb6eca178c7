import { describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../../src/auth/api-keys';
import type { OutboxEvent, OutboxFlusher, OutboxSource, PlannedWrite } from '../../../src/events/outbox';
import type { Problem } from '../../../src/contract/types';
import { DomainError } from '../../../src/errors/domain-error';
import { toProblem } from '../../../src/http/problem';
import { createLogger } from '../../../src/logger';
import type {
  OrderDoc,
  OrderRepository,
  ProductDoc,
  ProductRepository,
  UserDoc,
  UserRepository,
} from '../../../src/orders/repository';
import type { TransitionBusy } from '../../../src/orders/claim-lease';
import { RetryLater } from '../../../src/errors/retry-later';
import { type ResourceDeps, createOrder, getOrder, updateOrder } from '../../../src/orders/use-cases';
import { memoryInventory } from '../../support/fake-inventory';

const now = new Date('2025-06-01T12:00:00.000Z');
const owner: Principal = { keyId: 'key_a', ownerId: 'acme', scopes: ['orders:write'] };
const stranger: Principal = { keyId: 'key_b', ownerId: 'globex', scopes: ['orders:write'] };
const admin: Principal = { keyId: 'key_c', ownerId: 'ops', scopes: ['admin'] };
const ada: UserDoc = { _id: 1, name: 'Ada Lovelace', email: 'ada@example.com', created_at: now };
const products: ProductDoc[] = [
  { _id: 1, sku: 'BK-001', name: 'Book', category: 'books', price: 12.99, currency: 'EUR' },
  { _id: 2, sku: 'US-001', name: 'Import', category: 'books', price: 5, currency: 'USD' },
];

function order(status: OrderDoc['status'], reservation_id?: string): OrderDoc {
  return {
    ...(reservation_id !== undefined ? { reservation_id } : {}),
    _id: '7',
    id: 7,
    owner_id: 'acme',
    user_id: 1,
    status,
    items: [{ product_id: 1, quantity: 1, unit_price: 12.99 }],
    total: 12.99,
    currency: 'EUR',
    date: now,
    updated_at: now,
    outbox: [],
  };
}

/** Use-case deps over in-memory fakes of the repositories' methods the use cases call. */
/**
 * How the fake repository's transition ends: written; lost to another change's claim (nothing run);
 * claimed, then found changed; or busy: a claim held by another change that has not landed (nothing
 * run), or this change's own claim, past its write window after `beforeWrite`.
 */
type TransitionEnd = 'written' | 'claimed elsewhere' | 'changed' | TransitionBusy;

function fakeDeps(overrides: { stored?: OrderDoc[]; transition?: TransitionEnd; stock?: Record<number, number>; takenIds?: number[] } = {}) {
  const stored = overrides.stored ?? [];
  const planned: PlannedWrite[] = [];
  const inserted: OrderDoc[] = [];
  const transitions: Array<{ id: number; from: string; to: string; event: OutboxEvent }> = [];
  /** The outbox and write calls in order: announce must come before the write, flush after it. */
  const calls: string[] = [];
  const flush = vi.fn((source: OutboxSource, events: readonly OutboxEvent[]) => {
    calls.push(`flush ${source.collection}/${source.id} ${events.map((e) => e.id).join(',')}`);
    return Promise.resolve();
  });
  const outbox: OutboxFlusher = {
    announce: (events, source) => {
      calls.push(`announce ${events.map((e) => e.type).join(',')} ${source.collection}/${source.id}`);
      return Promise.resolve();
    },
    announcePlanned: (write) => {
      planned.push(write);
      calls.push(`announce planned ${write.source.collection}/${write.source.id} holding ${write.reservation?.items.map((i) => `${i.product_id}x${i.quantity}`).join(',')}`);
      return Promise.resolve();
    },
    readdress: (write) => {
      planned.push(write);
      calls.push(`readdress ${write.source.collection}/${write.source.id} holding for order ${write.reservation?.order_id}`);
      return Promise.resolve();
    },
    withdraw: (events) => {
      calls.push(`withdraw ${events.map((e) => (e as Partial<OutboxEvent>).type ?? e.id).join(',')}`);
      return Promise.resolve();
    },
    flush,
  };
  let seq = 0;
  const findById = (id: number) => Promise.resolve(stored.find((o) => o.id === id) ?? inserted.find((o) => o.id === id));
  const inventory = memoryInventory(overrides.stock ?? { 1: 100, 2: 100 }, { outbox, orders: { findById }, now: () => now });
  const deps: ResourceDeps = {
    users: { findById: (id: number) => Promise.resolve(id === ada._id ? ada : undefined) } as unknown as UserRepository,
    products: {
      findByIds: (ids: readonly number[]) => Promise.resolve(products.filter((p) => ids.includes(p._id))),
    } as unknown as ProductRepository,
    orders: {
      nextId: () => Promise.resolve(++seq),
      insertNew: (doc: OrderDoc) => {
        calls.push(`insert ${doc._id}`);
        if (overrides.takenIds?.includes(doc.id)) return Promise.resolve(false);
        inserted.push(doc);
        return Promise.resolve(true);
      },
      findById,
      transition: async (id: number, from: string, to: string, event: OutboxEvent, _now: Date, beforeWrite?: () => Promise<void>) => {
        calls.push(`transition ${id}`);
        transitions.push({ id, from, to, event });
        const end = overrides.transition ?? 'written';
        if (end === 'claimed elsewhere') return { kind: 'changed' };
        if (typeof end === 'object' && end.cause === 'held') return end;
        await beforeWrite?.();
        return typeof end === 'object' ? end : { kind: end };
      },
    } as unknown as OrderRepository,
    inventory,
    logger: createLogger('silent', 'test'),
    outbox,
    now: () => now,
  };
  return { deps, inserted, transitions, flush, calls, planned, inventory, nextSeq: () => seq };
}

/** The problem the API answers with for the refusal `p` rejects with. */
async function problemOf(p: Promise<unknown>): Promise<Problem> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof DomainError) && !(err instanceof RetryLater)) throw new Error(`expected a domain refusal, got ${String(err)}`);
  return toProblem(err);
}

describe('createOrder', () => {
  it('prices from the catalog, stores order.created and the stock event with it, announced before the insert, and flushes', async () => {
    const { deps, inserted, calls, planned, inventory } = fakeDeps();
    const created = await createOrder(deps, owner, { user_id: 1, items: [{ product_id: 1, quantity: 3 }] });
    expect(created).toEqual({
      id: 1,
      user_id: 1,
      status: 'pending',
      items: [{ product_id: 1, quantity: 3, unit_price: 12.99 }],
      total: 38.97,
      currency: 'EUR',
      date: now.toISOString(),
      updated_at: now.toISOString(),
    });
    expect(inserted[0]!.outbox).toEqual([
      {
        id: expect.stringMatching(/^evt_/) as unknown,
        type: 'order.created',
        // Its lines are stored with it; the delivery adds the link (and leaves them out above WEBHOOK_INLINE_LIMIT).
        data: { order_id: 1, total: 38.97, currency: 'EUR', status: 'pending', user_id: 1, item_count: 1, items: [{ product_id: 1, quantity: 3, unit_price: 12.99 }] },
        created_at: now,
        // Whose data it is: only acme's (and admin keys') subscriptions get it.
        owner_id: 'acme',
        // The first of the order's own events: ordered subscriptions get the next ones after it.
        seq: 1,
      },
      {
        id: expect.stringMatching(/^evt_/) as unknown,
        type: 'stock.updated',
        data: { product_id: 1, sku: 'SKU-1', previous_quantity: 100, quantity: 97, reason: 'order' },
        created_at: now,
        // The order's stock change is the order owner's too: other owners' subscribers never see it.
        owner_id: 'acme',
        // The product's first ledger move: its stock.updated is the product's event 2 (stock.low would be 3).
        seq: 2,
      },
    ]);
    expect(inserted[0]!._id).toBe('1');
    expect(inserted[0]!.owner_id).toBe('acme');
    expect(inserted[0]!.reservation_id).toMatch(/^res_/);
    const ids = inserted[0]!.outbox.map((e) => e.id).join(',');
    // One note before anything is written: the order's events to come and the units it holds.
    expect(calls).toEqual(['announce planned orders/1 holding 1x3', 'insert 1', `flush orders/1 ${ids}`]);
    expect(planned[0]!.eventIds[0]).toBe(inserted[0]!.outbox[0]!.id);
    expect(planned[0]!.eventIds).toEqual(expect.arrayContaining(inserted[0]!.outbox.map((e) => e.id)));
    expect(planned[0]!.reservation).toEqual({ id: inserted[0]!.reservation_id, items: [{ product_id: 1, quantity: 3 }], order_id: 1 });
    expect(inventory.ledger.levels()).toEqual({ 1: 97, 2: 100 });
    expect(inventory.intents.docs.size).toBe(0);
  });

  it('refuses an order some product lacks units for with 409 naming each short line and what is available, writing nothing', async () => {
    const { deps, inserted, calls, inventory, nextSeq } = fakeDeps({ stock: { 1: 14, 3: 0 } });
    const err = await createOrder(deps, owner, {
      user_id: 1,
      items: [
        { product_id: 1, quantity: 2000 },
        { product_id: 1, quantity: 1 },
      ],
    }).catch((e: unknown) => e);
    expect(toProblem(err)).toMatchObject({
      status: 409,
      title: 'Insufficient Stock',
      errors: [{ path: '/body/items/0/quantity', message: '2001 units of product 1 asked for, 14 in stock' }],
      short_items: [{ product_id: 1, requested: 2001, available: 14 }],
    });
    expect([inserted, calls, inventory.ledger.moves, nextSeq()]).toEqual([[], [], [], 0]);
    expect(inventory.ledger.levels()).toEqual({ 1: 14, 3: 0 });
  });

  it('adds up lines of one product into one reservation, and emits stock.low when the level crosses its threshold', async () => {
    const { deps, inserted, inventory } = fakeDeps({ stock: { 1: 8 } });
    await createOrder(deps, owner, {
      user_id: 1,
      items: [
        { product_id: 1, quantity: 2 },
        { product_id: 1, quantity: 2 },
      ],
    });
    expect(inventory.ledger.moves.map((m) => [m._id.replace(/res_\w+/, 'R'), m.delta])).toEqual([['take:R:1', -4]]);
    expect(inserted[0]!.outbox.map((e) => [e.type, e.data])).toEqual([
      ['order.created', expect.anything()],
      ['stock.updated', { product_id: 1, sku: 'SKU-1', previous_quantity: 8, quantity: 4, reason: 'order' }],
      ['stock.low', { product_id: 1, sku: 'SKU-1', previous_quantity: 8, quantity: 4, low_stock_threshold: 5 }],
    ]);
  });

  it('gives the units back and drops the note when the order cannot be written, so no stock is lost', async () => {
    const { deps, inventory, calls } = fakeDeps({ stock: { 1: 10 } });
    deps.orders.insertNew = () => Promise.reject(new Error('database went away'));
    await expect(createOrder(deps, owner, { user_id: 1, items: [{ product_id: 1, quantity: 4 }] })).rejects.toThrow('database went away');
    expect(inventory.ledger.levels()).toEqual({ 1: 10 });
    expect(inventory.ledger.moves.map((m) => m.reason)).toEqual(['order', 'release']);
    expect(calls).toEqual(['announce planned orders/1 holding 1x4', expect.stringMatching(/^withdraw evt_/)]);
  });

  it('takes the next id when another process holds this one, pointing the note at it before the next try', async () => {
    const { deps, inserted, calls, planned } = fakeDeps({ takenIds: [1] });
    const created = await createOrder(deps, owner, { user_id: 1, items: [{ product_id: 1, quantity: 1 }] });
    expect(created.id).toBe(2);
    expect(calls.slice(0, 4)).toEqual(['announce planned orders/1 holding 1x1', 'insert 1', 'readdress orders/2 holding for order 2', 'insert 2']);
    // The same events whatever the id: the note keeps its key.
    expect(planned[1]!.eventIds).toEqual(planned[0]!.eventIds);
    expect((inserted[0]!.outbox[0]!.data as { order_id: number }).order_id).toBe(2);
  });

  it('refuses with 409 when a concurrent order took the units after the check, leaving no note and no units taken', async () => {
    const { deps, inserted, calls, inventory } = fakeDeps({ stock: { 1: 5 } });
    // Another process sells 4 of the 5 units between this order's check and its take.
    const take = inventory.ledger.apply.bind(inventory.ledger);
    inventory.ledger.apply = async (productId, op, plan, opts) => {
      if (op.startsWith('take:')) inventory.ledger.stock.get(1)!.quantity = 1;
      return take(productId, op, plan, opts);
    };
    const err = await createOrder(deps, owner, { user_id: 1, items: [{ product_id: 1, quantity: 3 }] }).catch((e: unknown) => e);
    expect(toProblem(err).status).toBe(409);
    expect(inserted).toEqual([]);
    expect(calls).toEqual(['announce planned orders/1 holding 1x3', expect.stringMatching(/^withdraw evt_/)]);
    expect(inventory.ledger.moves).toEqual([]);
  });

  it('reports the unknown user and every unknown product in one 422, drawing no id', async () => {
    const { deps, inserted, nextSeq } = fakeDeps();
    const p = await problemOf(
      createOrder(deps, owner, { user_id: 9, items: [{ product_id: 1, quantity: 1 }, { product_id: 77, quantity: 1 }, { product_id: 78, quantity: 2 }] }),
    );
    expect(p.status).toBe(422);
    expect(p.errors!.map((e) => e.path)).toEqual(['/body/user_id', '/body/items/1/product_id', '/body/items/2/product_id']);
    expect(inserted).toEqual([]);
    expect(nextSeq()).toBe(0);
  });

  it('refuses items priced in different currencies with a 422', async () => {
    const { deps, inserted, nextSeq } = fakeDeps();
    const p = await problemOf(createOrder(deps, owner, { user_id: 1, items: [{ product_id: 1, quantity: 1 }, { product_id: 2, quantity: 1 }] }));
    expect(p.status).toBe(422);
    expect(p.errors).toEqual([{ path: '/body/items', message: expect.any(String) as unknown }]);
    expect(inserted).toEqual([]);
    expect(nextSeq()).toBe(0);
  });

  it('still returns the order when the flush fails', async () => {
    const { deps, inserted, flush } = fakeDeps();
    flush.mockRejectedValueOnce(new Error('dispatcher down'));
    const created = await createOrder(deps, owner, { user_id: 1, items: [{ product_id: 1, quantity: 1 }] });
    expect(created.id).toBe(1);
    expect(inserted).toHaveLength(1);
  });
});

describe('updateOrder', () => {
  it('moves the order with one conditional transition carrying order.updated and previous_status', async () => {
    const { deps, transitions, calls } = fakeDeps({ stored: [order('pending')] });
    const updated = await updateOrder(deps, owner, 7, { status: 'paid' });
    expect(updated.status).toBe('paid');
    expect(transitions).toEqual([
      {
        id: 7,
        from: 'pending',
        to: 'paid',
        event: expect.objectContaining({
          type: 'order.updated',
          data: { order_id: 7, total: 12.99, currency: 'EUR', status: 'paid', user_id: 1, item_count: 1, items: [{ product_id: 1, quantity: 1, unit_price: 12.99 }], previous_status: 'pending' },
        }) as unknown,
      },
    ]);
    // Noted once its place is claimed, before the write (the repository runs it between the two).
    expect(calls).toEqual(['transition 7', 'announce order.updated orders/7', `flush orders/7 ${transitions[0]!.event.id}`]);
  });

  it('is a no-op without an event or flush for the same status', async () => {
    const { deps, transitions, calls } = fakeDeps({ stored: [order('paid')] });
    expect((await updateOrder(deps, owner, 7, { status: 'paid' })).status).toBe('paid');
    expect(transitions).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('gives 409 naming the move when it is not allowed', async () => {
    const { deps, transitions } = fakeDeps({ stored: [order('delivered')] });
    const p = await problemOf(updateOrder(deps, owner, 7, { status: 'pending' }));
    expect(p.status).toBe(409);
    expect(p.errors).toEqual([{ path: '/body/status', message: 'delivered → pending is not allowed' }]);
    expect(transitions).toEqual([]);
  });

  it('gives 409 when the order changed between the read and the conditional write, withdrawing its note', async () => {
    const { deps, calls } = fakeDeps({ stored: [order('pending')], transition: 'changed' });
    const p = await problemOf(updateOrder(deps, owner, 7, { status: 'paid' }));
    expect(p.status).toBe(409);
    expect(p.errors![0]!.message).toContain('pending → paid');
    expect(calls).toEqual(['transition 7', 'announce order.updated orders/7', 'withdraw order.updated']);
  });

  it('gives 409 writing nothing when a concurrent change holds the order\'s next place', async () => {
    const { deps, calls, inventory } = fakeDeps({ stored: [order('pending', 'res_x')], stock: { 1: 5 }, transition: 'claimed elsewhere' });
    const p = await problemOf(updateOrder(deps, owner, 7, { status: 'cancelled' }));
    expect(p.status).toBe(409);
    expect(p.errors![0]!.message).toContain('pending → cancelled');
    // No note, no return noted or made.
    expect(calls).toEqual(['transition 7']);
    expect(inventory.intents.docs.size).toBe(0);
    expect(inventory.ledger.levels()).toEqual({ 1: 5 });
  });

  it('gives 503 with the seconds until its claim\'s lease ends when it got past its write window, withdrawing its note', async () => {
    const { deps, calls, inventory } = fakeDeps({ stored: [order('pending', 'res_x')], stock: { 1: 5 }, transition: { kind: 'busy', cause: 'too_slow', retryAfterMs: 4200 } });
    const err = await updateOrder(deps, owner, 7, { status: 'cancelled' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryLater);
    expect((err as RetryLater).retryAfterSeconds).toBe(5);
    expect(toProblem(err)).toMatchObject({
      status: 503,
      title: 'Change Not Applied In Time',
      detail: 'The service was too slow to apply pending → cancelled to order 7; nothing was written. Retry after 5 s',
    });
    expect(calls).toEqual(['transition 7', 'announce order.updated orders/7', 'withdraw order.updated']);
    // No units returned: the order is still pending (the sweeper drops the return noted for it).
    expect(inventory.ledger.levels()).toEqual({ 1: 5 });
  });

  it('gives 503 retry after 1 s, writing nothing, when another change holds the place and may still land', async () => {
    const { deps, calls } = fakeDeps({ stored: [order('pending')], transition: { kind: 'busy', cause: 'held', retryAfterMs: 0 } });
    const err = await updateOrder(deps, owner, 7, { status: 'paid' }).catch((e: unknown) => e);
    expect((err as RetryLater).retryAfterSeconds).toBe(1);
    expect(toProblem(err)).toMatchObject({ status: 503, title: 'Order Change In Progress' });
    expect(calls).toEqual(['transition 7']);
  });

  it('returns a cancelled order\'s units once, however often it is cancelled, with stock.updated (cancellation)', async () => {
    const { deps, inventory, flush } = fakeDeps({ stored: [order('pending', 'res_x')], stock: { 1: 5 } });
    expect((await updateOrder(deps, owner, 7, { status: 'cancelled' })).status).toBe('cancelled');
    // A second cancel racing the first (both saw `pending`) returns nothing more.
    await updateOrder(deps, owner, 7, { status: 'cancelled' });
    expect(inventory.ledger.levels()).toEqual({ 1: 6 });
    expect(inventory.ledger.moves.map((m) => [m._id, m.delta, m.outbox.map((e) => [e.type, e.data])])).toEqual([
      ['return:7:1', 1, [['stock.updated', { product_id: 1, sku: 'SKU-1', previous_quantity: 5, quantity: 6, reason: 'cancellation' }]]],
    ]);
    expect(flush).toHaveBeenCalledWith({ collection: 'stock_moves', id: 'return:7:1' }, inventory.ledger.moves[0]!.outbox);
    expect(inventory.intents.docs.size).toBe(0);
  });

  it('returns nothing for an order from before stock was reserved', async () => {
    const { deps, inventory } = fakeDeps({ stored: [order('pending')], stock: { 1: 5 } });
    await updateOrder(deps, owner, 7, { status: 'cancelled' });
    expect(inventory.ledger.levels()).toEqual({ 1: 5 });
  });

  it('gives 404 for an unknown order', async () => {
    const { deps } = fakeDeps();
    expect((await problemOf(updateOrder(deps, owner, 8, { status: 'paid' }))).status).toBe(404);
  });

  it("gives another owner the same 404 as an unknown order, and changes nothing; an admin key may change it", async () => {
    const { deps, transitions, calls } = fakeDeps({ stored: [order('pending')] });
    const p = await problemOf(updateOrder(deps, stranger, 7, { status: 'paid' }));
    expect([p.status, p.detail]).toEqual([404, 'No order 7']);
    expect(transitions).toEqual([]);
    expect(calls).toEqual([]);
    expect((await updateOrder(deps, admin, 7, { status: 'paid' })).status).toBe('paid');
  });
});

describe('getOrder', () => {
  it("answers the owner and an admin key, and another owner 404", async () => {
    const { deps } = fakeDeps({ stored: [order('paid')] });
    expect((await getOrder(deps, owner, 7)).id).toBe(7);
    expect((await getOrder(deps, admin, 7)).id).toBe(7);
    const p = await problemOf(getOrder(deps, stranger, 7));
    expect([p.status, p.detail]).toEqual([404, 'No order 7']);
  });
});
