import { describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../../src/auth/api-keys';
import type { OutboxEvent, OutboxFlusher, OutboxSource } from '../../../src/events/outbox';
import type { Problem } from '../../../src/contract/types';
import { DomainError } from '../../../src/errors/domain-error';
import { toProblem } from '../../../src/http/problem';
import { createLogger } from '../../../src/logger';
import type {
  OrderDoc,
  OrderRepository,
  ProductDoc,
  ProductRepository,
  StockRepository,
  UserDoc,
  UserRepository,
} from '../../../src/resources/repository';
import { type ResourceDeps, createOrder, getOrder, updateOrder } from '../../../src/resources/use-cases';

const now = new Date('2025-06-01T12:00:00.000Z');
const owner: Principal = { keyId: 'key_a', ownerId: 'acme', scopes: ['orders:write'] };
const stranger: Principal = { keyId: 'key_b', ownerId: 'globex', scopes: ['orders:write'] };
const admin: Principal = { keyId: 'key_c', ownerId: 'ops', scopes: ['admin'] };
const ada: UserDoc = { _id: 1, name: 'Ada Lovelace', email: 'ada@example.com', created_at: now };
const products: ProductDoc[] = [
  { _id: 1, sku: 'BK-001', name: 'Book', category: 'books', price: 12.99, currency: 'EUR' },
  { _id: 2, sku: 'US-001', name: 'Import', category: 'books', price: 5, currency: 'USD' },
];

function order(status: OrderDoc['status']): OrderDoc {
  return {
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
function fakeDeps(overrides: { stored?: OrderDoc[]; transitionMatches?: boolean } = {}) {
  const stored = overrides.stored ?? [];
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
    withdraw: (events) => {
      calls.push(`withdraw ${events.map((e) => e.type).join(',')}`);
      return Promise.resolve();
    },
    flush,
  };
  let seq = 0;
  const deps: ResourceDeps = {
    users: { findById: (id: number) => Promise.resolve(id === ada._id ? ada : undefined) } as unknown as UserRepository,
    products: {
      findByIds: (ids: readonly number[]) => Promise.resolve(products.filter((p) => ids.includes(p._id))),
    } as unknown as ProductRepository,
    orders: {
      insertWithNextId: async (build: (id: number) => OrderDoc, beforeInsert: (doc: OrderDoc) => Promise<void>) => {
        const doc = build(++seq);
        await beforeInsert(doc);
        calls.push(`insert ${doc._id}`);
        inserted.push(doc);
        return doc;
      },
      findById: (id: number) => Promise.resolve(stored.find((o) => o.id === id)),
      transition: (id: number, from: string, to: string, event: OutboxEvent) => {
        calls.push(`transition ${id}`);
        transitions.push({ id, from, to, event });
        return Promise.resolve(overrides.transitionMatches ?? true);
      },
    } as unknown as OrderRepository,
    stock: {} as StockRepository,
    logger: createLogger('silent', 'test'),
    outbox,
    now: () => now,
  };
  return { deps, inserted, transitions, flush, calls, nextSeq: () => seq };
}

/** The problem the API answers with for the refusal `p` rejects with. */
async function problemOf(p: Promise<unknown>): Promise<Problem> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(err)}`);
  return toProblem(err);
}

describe('createOrder', () => {
  it('prices from the catalog, stores one order.created event, announced before the insert, and flushes', async () => {
    const { deps, inserted, calls } = fakeDeps();
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
        data: { order_id: 1, total: 38.97, currency: 'EUR', status: 'pending', user_id: 1 },
        created_at: now,
        // Whose data it is: only acme's (and admin keys') subscriptions get it.
        owner_id: 'acme',
      },
    ]);
    expect(inserted[0]!._id).toBe('1');
    expect(inserted[0]!.owner_id).toBe('acme');
    expect(calls).toEqual(['announce order.created orders/1', 'insert 1', `flush orders/1 ${inserted[0]!.outbox[0]!.id}`]);
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
          data: { order_id: 7, total: 12.99, currency: 'EUR', status: 'paid', user_id: 1, previous_status: 'pending' },
        }) as unknown,
      },
    ]);
    expect(calls).toEqual(['announce order.updated orders/7', 'transition 7', `flush orders/7 ${transitions[0]!.event.id}`]);
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
    const { deps, calls } = fakeDeps({ stored: [order('pending')], transitionMatches: false });
    const p = await problemOf(updateOrder(deps, owner, 7, { status: 'paid' }));
    expect(p.status).toBe(409);
    expect(p.errors![0]!.message).toContain('pending → paid');
    expect(calls).toEqual(['announce order.updated orders/7', 'transition 7', 'withdraw order.updated']);
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
