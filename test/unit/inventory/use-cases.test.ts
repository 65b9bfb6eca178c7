import { describe, expect, it } from 'vitest';
import type { OutboxEvent, OutboxFlusher, OutboxSource } from '../../../src/events/outbox';
import { InsufficientStock } from '../../../src/errors/insufficient-stock';
import { adjustStock, heldUnits, planReservation, reserveStock, sweepStockIntents } from '../../../src/inventory/use-cases';
import type { OrderDoc } from '../../../src/orders/repository';
import { memoryInventory } from '../../support/fake-inventory';

const now = new Date('2025-06-01T12:00:00.000Z');

function recordingOutbox() {
  const calls: string[] = [];
  const outbox: OutboxFlusher = {
    announce: (events: readonly OutboxEvent[], source: OutboxSource) => {
      calls.push(`announce ${events.map((e) => e.type).join(',')} ${source.collection}/${source.id}`);
      return Promise.resolve();
    },
    announcePlanned: () => Promise.resolve(),
    readdress: () => Promise.resolve(),
    withdraw: (events) => {
      calls.push(`withdraw ${events.map((e) => e.id).join(',')}`);
      return Promise.resolve();
    },
    flush: (source, events) => {
      calls.push(`flush ${events.map((e) => e.type).join(',')} ${source.collection}/${source.id}`);
      return Promise.resolve();
    },
  };
  return { outbox, calls };
}

describe('reserveStock', () => {
  it('takes every line or none: a line short after the earlier ones were taken gives those back', async () => {
    const { outbox } = recordingOutbox();
    const inventory = memoryInventory({ 1: 10, 2: 3 }, { outbox, now: () => now });
    // Another order takes product 2's units between this reservation's check and its take.
    const take = inventory.ledger.apply.bind(inventory.ledger);
    inventory.ledger.apply = async (productId, op, plan, opts) => {
      if (productId === 2 && op.startsWith('take:')) inventory.ledger.stock.get(2)!.quantity = 1;
      return take(productId, op, plan, opts);
    };
    const plan = planReservation(
      [
        { product_id: 1, quantity: 4 },
        { product_id: 2, quantity: 2 },
      ],
      now,
    );
    const err = await reserveStock(inventory, plan).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientStock);
    expect((err as InsufficientStock).shortfalls).toEqual([{ product_id: 2, requested: 2, available: 1, field: ['items', 1, 'quantity'] }]);
    expect(inventory.ledger.levels()).toEqual({ 1: 10, 2: 1 });
    expect(inventory.ledger.moves.map((m) => [m._id.split(':')[0], m.product_id, m.delta])).toEqual([
      ['take', 1, -4],
      ['release', 1, 4],
    ]);
    expect(inventory.intents.docs.size).toBe(0);
  });
});

describe('adjustStock', () => {
  it('announces the move’s events before writing them, then flushes them from the move', async () => {
    const { outbox, calls } = recordingOutbox();
    const inventory = memoryInventory({ 4: 8 }, { outbox, now: () => now });
    const level = await adjustStock(inventory, 4, { delta: -3 });
    expect(level).toEqual({ product_id: 4, sku: 'SKU-4', quantity: 5, low_stock_threshold: 5, updated_at: now.toISOString() });
    const op = inventory.ledger.moves[0]!._id;
    expect(calls).toEqual([`announce stock.updated,stock.low stock_moves/${op}`, `flush stock.updated,stock.low stock_moves/${op}`]);
  });

  it('refuses a delta below zero naming delta, and a product without stock with 404, writing nothing', async () => {
    const { outbox, calls } = recordingOutbox();
    const inventory = memoryInventory({ 4: 8 }, { outbox, now: () => now });
    const short = await adjustStock(inventory, 4, { delta: -9 }).catch((e: unknown) => e);
    expect((short as InsufficientStock).shortfalls).toEqual([{ product_id: 4, requested: 9, available: 8, field: ['delta'] }]);
    await expect(adjustStock(inventory, 99, { delta: 1 })).rejects.toMatchObject({ kind: 'not_found' });
    expect([inventory.ledger.moves, calls]).toEqual([[], []]);
  });
});

describe('sweepStockIntents', () => {
  it('leaves young intents of earlier versions alone, releases a reservation whose order is missing, keeps one whose order exists', async () => {
    const { outbox } = recordingOutbox();
    const written: OrderDoc[] = [];
    const inventory = memoryInventory({ 1: 10 }, { outbox, now: () => now, orders: { findById: (id) => Promise.resolve(written.find((o) => o.id === id)) } });
    // As an earlier version noted reservations: in stock_intents, before the takes.
    const reserve = async (quantity: number, orderId?: number) => {
      const plan = planReservation([{ product_id: 1, quantity }], now);
      await inventory.intents.note({ _id: `reserve:${plan.id}`, kind: 'reserve', items: heldUnits(plan), ...(orderId !== undefined ? { order_id: orderId } : {}), created_at: now });
      return reserveStock(inventory, plan);
    };
    const lost = await reserve(2);
    const kept = await reserve(3, 42);
    written.push({ id: 42, reservation_id: kept.id } as OrderDoc);
    expect(inventory.ledger.levels()).toEqual({ 1: 5 });

    expect(await sweepStockIntents(inventory, { graceMs: 1, batch: 10 })).toEqual({ released: 0, completed: 0, failed: 0 });
    inventory.now = () => new Date(now.getTime() + 60_000);
    expect(await sweepStockIntents(inventory, { graceMs: 1, batch: 10 })).toEqual({ released: 1, completed: 1, failed: 0 });
    expect(inventory.ledger.levels()).toEqual({ 1: 7 });
    expect(inventory.ledger.moves.map((m) => m._id)).toContain(`release:${lost.id}:1`);
    expect(inventory.intents.docs.size).toBe(0);
  });
});
