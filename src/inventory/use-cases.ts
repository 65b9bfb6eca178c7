import type { StockAdjustment, StockChangeReason, StockLevel, StockList } from '../contract/types';
import { newId } from '../db/ids';
import { DomainError } from '../errors/domain-error';
import { InsufficientStock, type StockShortfall } from '../errors/insufficient-stock';
import { type Repeating, repeatEvery } from '../lib/repeat';
import { newOutboxEvent, type OutboxEvent, type OutboxFlusher, type OutboxSource } from '../events/outbox';
import type { Logger } from '../logger';
import type { OrderDoc } from '../resources/repository';
import {
  type MoveOutcome,
  type MovePlan,
  type StockHead,
  type StockIntentDoc,
  type StockIntents,
  type StockLedger,
  toStockLevel,
} from './repository';
import { adjustmentDelta, crossesLow, parseAdjustment, type ProductUnits, unitsByProduct } from './rules';

/*
 * How no unit is lost or sold twice, with no transactions (FerretDB v1):
 *
 * - Each change of a product's level is one insert into its ledger (StockLedger.apply), unique by
 *   operation and by chain position: concurrent orders, in any number of API processes, each take
 *   the slot after the state they planned from or plan again, so a level never goes below zero and
 *   no change is applied twice (a repeated cancel finds its `return:` move and does nothing).
 * - An order's reservation is noted (`stock_intents`, `reserve:<id>`) before its first take and
 *   removed once the order is written; the order carries the reservation id. A process that dies
 *   between its takes and the order's insert leaves the note: the sweeper (`sweepStockIntents`,
 *   run by the worker) finds the order did not get written and releases every take the note's
 *   reservation made, once (`release:` moves). The API never writes an order more than
 *   `reservationLeaseMs` after the reservation began, and the sweeper waits far longer, so it
 *   cannot release units of an order that is still about to be written.
 * - A cancellation notes `return:<order>` before the status change; a crash before the units are
 *   back leaves the note, and the sweeper returns them when the order is cancelled.
 */

export interface InventoryDeps {
  ledger: StockLedger;
  intents: StockIntents;
  /** Announces a move's events before it is written and dispatches them right after. */
  outbox: OutboxFlusher;
  /** Reads an order: the sweeper asks whether a reservation's order got written, or was cancelled. */
  orders: { findById(id: number): Promise<OrderDoc | undefined> };
  logger: Logger;
  now?: () => Date;
}

/** The longest a reservation may take before its order must no longer be written (the sweeper waits much longer). */
export const reservationLeaseMs = 30_000;

/** How old a stock intent must be before the sweeper finishes or undoes it: well past any lease. */
export const intentGraceMs = 4 * reservationLeaseMs;

const takeOp = (reservationId: string, productId: number) => `take:${reservationId}:${productId}`;
const releaseOp = (reservationId: string, productId: number) => `release:${reservationId}:${productId}`;
const returnOp = (orderId: number, productId: number) => `return:${orderId}:${productId}`;
const reserveIntent = (reservationId: string) => `reserve:${reservationId}`;
const returnIntent = (orderId: number) => `return:${orderId}`;

function moveSource(op: string): OutboxSource {
  return { collection: 'stock_moves', id: op };
}

/** Two event ids for one change (its `stock.updated` and a possible `stock.low`), fixed before the first try. */
function eventIds(now: Date): [string, string] {
  return [newId('evt', now.getTime()), newId('evt', now.getTime())];
}

/** How a stock change came about: its event ids, time, request, and whose order caused it. */
interface ChangeOrigin {
  ids: readonly [string, string];
  now: Date;
  requestId?: string | undefined;
  /** The owner of the order that moved the stock; absent for an administrator's adjustment. */
  ownerId?: string | undefined;
}

/**
 * The events of one change of a product's level: `stock.updated` when the level moved, and
 * `stock.low` when it crossed its threshold. A move an order caused (its reservation, its
 * cancellation) is that order's owner's data: it goes to their subscriptions and to every-owner
 * (admin) ones, as the order's own events do, so no owner learns another's orders nor pays for
 * another's subscribers. An administrator's adjustment goes to every owner's subscriptions.
 */
export function stockEvents(before: StockHead, after: StockHead, reason: StockChangeReason, origin: ChangeOrigin): OutboxEvent[] {
  if (after.quantity === before.quantity) return [];
  const meta = { now: origin.now, requestId: origin.requestId, ...(origin.ownerId !== undefined ? { ownerId: origin.ownerId } : {}) };
  const events = [
    newOutboxEvent(
      'stock.updated',
      {
        product_id: after.product_id,
        sku: after.sku,
        previous_quantity: before.quantity,
        quantity: after.quantity,
        reason,
      },
      { ...meta, id: origin.ids[0] },
    ),
  ];
  if (crossesLow(before.quantity, after.quantity, after.low_stock_threshold)) {
    events.push(
      newOutboxEvent(
        'stock.low',
        { product_id: after.product_id, sku: after.sku, previous_quantity: before.quantity, quantity: after.quantity, low_stock_threshold: after.low_stock_threshold },
        { ...meta, id: origin.ids[1] },
      ),
    );
  }
  return events;
}

/**
 * Applies one move whose events live in the move itself (returns, adjustments): notes them
 * before each insert try, withdraws the notes of tries that did not get written, and dispatches
 * the written ones (a failure is only logged: the relay delivers them).
 */
async function applyWithEvents(deps: InventoryDeps, productId: number, op: string, plan: (head: StockHead) => MovePlan, hint?: StockHead): Promise<MoveOutcome> {
  const announced = new Map<string, OutboxEvent>();
  const outcome = await deps.ledger.apply(productId, op, plan, {
    hint,
    now: deps.now?.() ?? new Date(),
    beforeInsert: async (move) => {
      const fresh = move.outbox.filter((e) => !announced.has(e.id));
      if (fresh.length === 0) return;
      await deps.outbox.announce(fresh, moveSource(op));
      for (const e of fresh) announced.set(e.id, e);
    },
  });
  const written = new Set(outcome.kind === 'applied' ? outcome.move.outbox.map((e) => e.id) : []);
  const unused = [...announced.values()].filter((e) => !written.has(e.id));
  if (unused.length) await deps.outbox.withdraw(unused).catch((err: unknown) => deps.logger.warn({ err, op }, 'dispatch notes not withdrawn'));
  if (outcome.kind === 'applied' && outcome.move.outbox.length) {
    await deps.outbox.flush(moveSource(op), outcome.move.outbox).catch((err: unknown) => deps.logger.warn({ err, op }, 'outbox flush failed; the relay will deliver the event'));
  }
  return outcome;
}

/** Units held for an order that is about to be written. */
export interface Reservation {
  id: string;
  /** When it began: the order must be written within `reservationLeaseMs` of it. */
  startedAt: Date;
  units: ProductUnits[];
  /** Each product's level before and after its take, in `units` order. */
  takes: Array<{ before: StockHead; after: StockHead }>;
  /** The ids of each take's events, fixed so that retries of the order's insert announce the same ones. */
  ids: Array<[string, string]>;
}

function shortfall(units: ProductUnits, available: number): StockShortfall {
  return { product_id: units.product_id, requested: units.quantity, available, path: `/body/items/${units.line}/quantity` };
}

/**
 * Takes the units of an order's lines from stock, all or none. A shortfall visible beforehand
 * is refused before anything is written; one that appears meanwhile (a concurrent order took
 * the last units) gives back what this reservation took already. Either way: InsufficientStock.
 */
export async function reserveStock(deps: InventoryDeps, items: ReadonlyArray<{ product_id: number; quantity: number }>): Promise<Reservation> {
  const now = deps.now?.() ?? new Date();
  const units = unitsByProduct(items);
  const heads = await Promise.all(units.map((u) => deps.ledger.head(u.product_id)));
  const short: StockShortfall[] = [];
  for (const [i, u] of units.entries()) {
    let head = heads[i];
    // The stored level may lag behind the ledger (a crash): look further before refusing.
    if (head && head.quantity < u.quantity) head = heads[i] = await deps.ledger.latest(head);
    if (!head || head.quantity < u.quantity) short.push(shortfall(u, head?.quantity ?? 0));
  }
  if (short.length) throw new InsufficientStock(short);

  const id = newId('res', now.getTime());
  await deps.intents.note({ _id: reserveIntent(id), kind: 'reserve', items: units.map((u) => ({ product_id: u.product_id, quantity: u.quantity })), created_at: now });
  const takes: Reservation['takes'] = [];
  try {
    for (const [i, u] of units.entries()) {
      const outcome = await deps.ledger.apply(
        u.product_id,
        takeOp(id, u.product_id),
        (head): MovePlan =>
          head.quantity >= u.quantity ? { delta: -u.quantity, low_stock_threshold: head.low_stock_threshold, reason: 'order', outbox: () => [] } : { short: true },
        { hint: heads[i], now },
      );
      if (outcome.kind === 'applied') {
        takes.push({ before: outcome.before, after: outcome.after });
        continue;
      }
      await undoReservation(deps, id, units);
      throw new InsufficientStock([shortfall(u, outcome.kind === 'short' ? outcome.head.quantity : 0)]);
    }
  } catch (err) {
    if (!(err instanceof InsufficientStock)) {
      // Best effort; the sweeper releases whatever this leaves.
      await undoReservation(deps, id, units).catch((e: unknown) => deps.logger.warn({ err: e, reservation: id }, 'reservation not released; the sweeper will'));
    }
    throw err;
  }
  return { id, startedAt: now, units, takes, ids: units.map(() => eventIds(now)) };
}

/** The stock events of a reservation's takes, to be written with `ownerId`'s order (so they exist only if the order does). */
export function reservationEvents(reservation: Reservation, ownerId: string, requestId?: string): OutboxEvent[] {
  return reservation.takes.flatMap((t, i) => stockEvents(t.before, t.after, 'order', { ids: reservation.ids[i]!, now: reservation.startedAt, requestId, ownerId }));
}

/** Refuses to write an order whose reservation outlived its lease: the sweeper may be about to release it. */
export function assertLease(reservation: Reservation, now: Date): void {
  if (now.getTime() - reservation.startedAt.getTime() > reservationLeaseMs) {
    throw new Error(`reservation ${reservation.id} took longer than ${reservationLeaseMs} ms; the order is not written`);
  }
}

/** Notes the order id the reservation's order is about to be written under (before each insert try). */
export async function noteReservationOrder(deps: InventoryDeps, reservation: Reservation, orderId: number): Promise<void> {
  await deps.intents.setOrder(reserveIntent(reservation.id), orderId);
}

/** The order was written: the reservation needs no undoing any more. A failure leaves it to the sweeper, which keeps it. */
export async function completeReservation(deps: InventoryDeps, reservation: Reservation): Promise<void> {
  await deps.intents.remove(reserveIntent(reservation.id)).catch((err: unknown) => deps.logger.warn({ err, reservation: reservation.id }, 'stock intent not removed; the sweeper will'));
}

/**
 * Settles a reservation whose order may not have been written (the insert failed, or a crash):
 * when the order it noted exists with this reservation the units stay taken, otherwise every
 * take is given back once. Then the note goes. True when units were released.
 */
export async function settleReservation(deps: InventoryDeps, intent: Pick<StockIntentDoc, '_id' | 'items' | 'order_id'>): Promise<boolean> {
  const reservationId = intent._id.slice('reserve:'.length);
  const order = intent.order_id !== undefined ? await deps.orders.findById(intent.order_id) : undefined;
  const written = order?.reservation_id === reservationId;
  if (!written) await undoReservation(deps, reservationId, intent.items);
  await deps.intents.remove(intent._id);
  return !written;
}

/**
 * After the order's insert failed: the insert may still have happened (an error after the
 * write), so the units stay taken if the order exists, and go back otherwise. A failure here is
 * only logged; the note stays for the sweeper, which settles it the same way.
 */
export async function settleFailedReservation(deps: InventoryDeps, reservation: Reservation, orderId: number | undefined): Promise<void> {
  const intent = { _id: reserveIntent(reservation.id), items: reservation.units, ...(orderId !== undefined ? { order_id: orderId } : {}) };
  await settleReservation(deps, intent).catch((err: unknown) => deps.logger.warn({ err, reservation: reservation.id }, 'reservation not settled; the sweeper will'));
}

/** Gives back every take of the reservation, once each (releases are moves unique by reservation and product). */
async function undoReservation(deps: InventoryDeps, reservationId: string, items: ReadonlyArray<{ product_id: number }>): Promise<void> {
  for (const { product_id } of items) {
    const take = await deps.ledger.findMove(takeOp(reservationId, product_id));
    if (!take) continue;
    // A take and its release are never announced: the order they were for never existed.
    await deps.ledger.apply(product_id, releaseOp(reservationId, product_id), (head) => ({
      delta: -take.delta,
      low_stock_threshold: head.low_stock_threshold,
      reason: 'release',
      outbox: () => [],
    }));
  }
  await deps.intents.remove(reserveIntent(reservationId));
}

/** Notes, before an order's status changes to `cancelled`, that its units are to come back. */
export async function noteReturn(deps: InventoryDeps, order: Pick<OrderDoc, 'id' | 'items' | 'reservation_id'>): Promise<void> {
  // Orders from before stock was reserved took nothing: nothing comes back.
  if (order.reservation_id === undefined) return;
  const now = deps.now?.() ?? new Date();
  await deps.intents.note({ _id: returnIntent(order.id), kind: 'return', order_id: order.id, items: unitsByProduct(order.items).map(({ product_id, quantity }) => ({ product_id, quantity })), created_at: now });
}

/**
 * Puts a cancelled order's units back in stock, exactly once however often it runs (each
 * product's return is a move unique by order and product), each with its `stock.updated`.
 */
export async function returnStock(deps: InventoryDeps, order: Pick<OrderDoc, 'id' | 'items' | 'reservation_id' | 'owner_id'>, requestId?: string): Promise<void> {
  if (order.reservation_id === undefined) return;
  const now = deps.now?.() ?? new Date();
  for (const u of unitsByProduct(order.items)) {
    const ids = eventIds(now);
    await applyWithEvents(deps, u.product_id, returnOp(order.id, u.product_id), (head) => ({
      delta: u.quantity,
      low_stock_threshold: head.low_stock_threshold,
      reason: 'cancellation',
      order_id: order.id,
      outbox: (before, after) => stockEvents(before, after, 'cancellation', { ids, now, requestId, ownerId: order.owner_id }),
    }));
  }
  await deps.intents.remove(returnIntent(order.id)).catch((err: unknown) => deps.logger.warn({ err, order_id: order.id }, 'stock intent not removed; the sweeper will'));
}

export async function listStock(deps: InventoryDeps): Promise<StockList> {
  return { data: (await deps.ledger.list()).map(toStockLevel) };
}

/** One product's stock level, as `listStock` lists it: what stock events link to. */
export async function getStock(deps: InventoryDeps, productId: number): Promise<StockLevel> {
  const doc = await deps.ledger.find(productId);
  if (!doc) throw DomainError.notFound(`No product ${productId} in stock`);
  return toStockLevel(doc);
}

/**
 * An administrator's adjustment: a new level, a change of it, and/or a new threshold, applied to
 * the level at that moment (so concurrent orders are never overwritten). A change below zero is
 * refused with InsufficientStock; a change of level emits `stock.updated` (`adjustment`).
 */
export async function adjustStock(deps: InventoryDeps, productId: number, body: StockAdjustment, requestId?: string): Promise<StockLevel> {
  const adjustment = parseAdjustment(body);
  const hint = await deps.ledger.head(productId);
  if (!hint) throw DomainError.notFound(`No product ${productId} in stock`);
  const now = deps.now?.() ?? new Date();
  const ids = eventIds(now);
  const outcome = await applyWithEvents(
    deps,
    productId,
    `adjust:${newId('adj', now.getTime())}`,
    (head): MovePlan => {
      const delta = adjustmentDelta(adjustment, head.quantity);
      if (head.quantity + delta < 0) return { short: true };
      return {
        delta,
        low_stock_threshold: adjustment.threshold ?? head.low_stock_threshold,
        reason: 'adjustment',
        outbox: (before, after) => stockEvents(before, after, 'adjustment', { ids, now, requestId }),
      };
    },
    hint,
  );
  if (outcome.kind === 'short') {
    const requested = adjustment.kind === 'delta' ? -adjustment.delta : 0;
    throw new InsufficientStock([{ product_id: productId, requested, available: outcome.head.quantity, path: '/body/delta' }]);
  }
  if (outcome.kind !== 'applied') throw new Error(`adjustment of product ${productId} was not applied (${outcome.kind})`);
  return toStockLevel({ ...outcome.after, updated_at: now });
}

/** What one sweep did. */
export interface SweepPass {
  /** Reservations whose order never got written: their units went back. */
  released: number;
  /** Reservations whose order was written, or cancellations finished. */
  completed: number;
  /** Intents whose step failed; retried next pass. */
  failed: number;
}

/**
 * Finishes or undoes the stock work a crash interrupted: intents older than `graceMs` (younger
 * ones belong to requests in flight). Safe to run in every worker at once: each step is a move
 * unique by its operation, so two sweepers release or return the same units once.
 */
export async function sweepStockIntents(deps: InventoryDeps, opts: { graceMs: number; batch: number }): Promise<SweepPass> {
  const now = deps.now?.() ?? new Date();
  const pass: SweepPass = { released: 0, completed: 0, failed: 0 };
  for (const intent of await deps.intents.due(new Date(now.getTime() - opts.graceMs), opts.batch)) {
    try {
      if (intent.kind === 'reserve') {
        if (await settleReservation(deps, intent)) pass.released++;
        else pass.completed++;
        continue;
      }
      const order = intent.order_id !== undefined ? await deps.orders.findById(intent.order_id) : undefined;
      if (order?.status === 'cancelled') {
        await returnStock(deps, order);
        pass.completed++;
      }
      // Not cancelled: the status change it announced did not happen.
      await deps.intents.remove(intent._id);
    } catch (err) {
      pass.failed++;
      deps.logger.warn({ err, intent: intent._id }, 'stock intent not settled; retrying next pass');
    }
  }
  return pass;
}

/**
 * Sweeps stock intents every `intervalMs` until stopped: reservations a crash left are released
 * unless their order got written, cancellations a crash interrupted get their units back.
 */
export function startStockSweeper(deps: InventoryDeps, intervalMs: number): Repeating {
  return repeatEvery(intervalMs, async () => {
    try {
      const pass = await sweepStockIntents(deps, { graceMs: intentGraceMs, batch: 100 });
      if (pass.released || pass.completed) deps.logger.info(pass, 'stock sweeper settled work a crash left');
    } catch (err) {
      deps.logger.warn({ err }, 'stock sweep failed; retrying next interval');
    }
  });
}
