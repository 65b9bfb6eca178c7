import type { StockAdjustment, StockChangeReason, StockLevel, StockList } from '../contract/types';
import { newId } from '../db/ids';
import { DomainError } from '../errors/domain-error';
import { InsufficientStock, type StockShortfall } from '../errors/insufficient-stock';
import { type Repeating, repeatEvery } from '../lib/repeat';
import { newOutboxEvent, type OutboxEvent, type OutboxFlusher, type OutboxSource } from '../events/outbox';
import type { Logger } from '../logger';
import type { OrderDoc } from '../orders/repository';
import {
  type MoveOutcome,
  type MovePlan,
  type MoveRequest,
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
 *   no change is applied twice (a repeated cancel finds its `return:` move and does nothing). A
 *   process plans from the head it last knew; a stale one only loses the slot and reads the move.
 * - An order's reservation is noted before its first take, in the order's dispatch note (one
 *   note per order: its event ids, the order id it is about to be written under, the units), and
 *   the note goes once the order is written and its events dispatched; the order carries the
 *   reservation id. A process that dies between its takes and the order's insert leaves the note:
 *   the relay finds the order was not written with that reservation and releases every take it
 *   made, once (`release:` moves, `releaseReservation`). The API never writes an order more than
 *   `reservationLeaseMs` after the reservation began, and the relay waits `intentGraceMs` (far
 *   longer), so it cannot release units of an order that is still about to be written. When the
 *   order's id turns out taken by another process, the note is re-pointed before the next try.
 * - A cancellation notes `return:<order>` (`stock_intents`) before the status change; a crash
 *   before the units are back leaves the note, and the sweeper returns them when the order is
 *   cancelled. The sweeper also settles reservations noted there by earlier versions.
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

/** How old a reservation's note (or a stock intent) must be before it is finished or undone: well past any lease. */
export const intentGraceMs = 4 * reservationLeaseMs;

const takeOp = (reservationId: string, productId: number) => `take:${reservationId}:${productId}`;
const releaseOp = (reservationId: string, productId: number) => `release:${reservationId}:${productId}`;
const returnOp = (orderId: number, productId: number) => `return:${orderId}:${productId}`;
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
  // Places in the product's key from the move's place in its ledger: a chain slot is taken once, so no two moves share one.
  const [updatedSeq, lowSeq] = stockEventSeqs(after.seq);
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
      { ...meta, id: origin.ids[0], seq: updatedSeq },
    ),
  ];
  if (crossesLow(before.quantity, after.quantity, after.low_stock_threshold)) {
    events.push(
      newOutboxEvent(
        'stock.low',
        { product_id: after.product_id, sku: after.sku, previous_quantity: before.quantity, quantity: after.quantity, low_stock_threshold: after.low_stock_threshold },
        { ...meta, id: origin.ids[1], seq: lowSeq },
      ),
    );
  }
  return events;
}

/** The places of a move's `stock.updated` and `stock.low` among its product's events: the ledger position, updated first. */
export function stockEventSeqs(moveSeq: number): [number, number] {
  return [moveSeq * 2, moveSeq * 2 + 1];
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

/** A reservation decided before anything is written: its id, start, units per product and the ids of their events. */
export interface ReservationPlan {
  id: string;
  /** The id of the dispatch note of the order it is for (its order.created): each take records it beside its events' ids. */
  noteId?: string;
  /** When it began: the order must be written within `reservationLeaseMs` of it. */
  startedAt: Date;
  units: ProductUnits[];
  /** The ids of each take's events, fixed so that every try of the order's insert carries the same ones. */
  ids: Array<[string, string]>;
}

/** Units held for an order that is about to be written. */
export interface Reservation extends ReservationPlan {
  /** Each product's level before and after its take, in `units` order. */
  takes: Array<{ before: StockHead; after: StockHead }>;
}

/** The reservation an order of `items` will make, starting `now`; nothing is written. */
export function planReservation(items: ReadonlyArray<{ product_id: number; quantity: number }>, now: Date, noteId?: string): ReservationPlan {
  const units = unitsByProduct(items);
  return { id: newId('res', now.getTime()), ...(noteId !== undefined ? { noteId } : {}), startedAt: now, units, ids: units.map(() => eventIds(now)) };
}

/** The units a reservation holds, as its note keeps them for the relay. */
export function heldUnits(plan: ReservationPlan): Array<{ product_id: number; quantity: number }> {
  return plan.units.map(({ product_id, quantity }) => ({ product_id, quantity }));
}

function shortfall(units: ProductUnits, available: number): StockShortfall {
  return { product_id: units.product_id, requested: units.quantity, available, field: ['items', units.line, 'quantity'] };
}

/**
 * Refuses, before anything is written, an order some product visibly lacks units for
 * (InsufficientStock naming each short line). Reads only heads this process does not know yet.
 */
export async function checkStock(deps: InventoryDeps, items: ReadonlyArray<{ product_id: number; quantity: number }>): Promise<void> {
  const units = unitsByProduct(items);
  const heads = await Promise.all(units.map((u) => deps.ledger.head(u.product_id)));
  const short: StockShortfall[] = [];
  for (const [i, u] of units.entries()) {
    let head = heads[i];
    // The known level may lag behind the ledger: look further before refusing.
    if (head && head.quantity < u.quantity) head = await deps.ledger.latest(head);
    if (!head || head.quantity < u.quantity) short.push(shortfall(u, head?.quantity ?? 0));
  }
  if (short.length) throw new InsufficientStock(short);
}

/**
 * Takes the plan's units from stock, all or none; the plan must be noted before (the order's
 * dispatch note), so that a crash midway leaves its takes to the relay. A shortfall that appears
 * meanwhile (a concurrent order took the last units) gives back what was taken, then throws
 * InsufficientStock: nothing of it is left. Any other error tries the same, and leaves what it
 * could not give back to the relay.
 */
export async function reserveStock(deps: InventoryDeps, plan: ReservationPlan): Promise<Reservation> {
  const takes = plan.units.map((u, i): MoveRequest => {
    // The take's events go with the order: the ledger notes where, so ordered delivery finds them from the product.
    const elsewhere = plan.noteId !== undefined ? { elsewhere: { ids: [...plan.ids[i]!], note: plan.noteId } } : {};
    return {
      productId: u.product_id,
      op: takeOp(plan.id, u.product_id),
      plan: (head): MovePlan =>
        head.quantity >= u.quantity ? { delta: -u.quantity, low_stock_threshold: head.low_stock_threshold, reason: 'order', outbox: () => [], ...elsewhere } : { short: true },
    };
  });
  try {
    // Every take in one insert when the known levels allow them all; it stops at the first line short.
    const outcomes = await deps.ledger.applyAll(takes, { now: plan.startedAt });
    const taken = outcomes.flatMap((o) => (o.kind === 'applied' ? [{ before: o.before, after: o.after }] : []));
    const short = outcomes.flatMap((o, i) => (o.kind === 'applied' ? [] : [shortfall(plan.units[i]!, o.kind === 'short' ? o.head.quantity : 0)]));
    if (short.length) throw new InsufficientStock(short);
    return { ...plan, takes: taken };
  } catch (err) {
    if (err instanceof InsufficientStock) await releaseReservation(deps, plan);
    else await releaseReservation(deps, plan).catch((e: unknown) => deps.logger.warn({ err: e, reservation: plan.id }, 'reservation not released; the relay will'));
    throw err;
  }
}

/** The stock events of a reservation's takes, to be written with `ownerId`'s order (so they exist only if the order does). */
export function reservationEvents(reservation: Reservation, ownerId: string, requestId?: string): OutboxEvent[] {
  return reservation.takes.flatMap((t, i) => stockEvents(t.before, t.after, 'order', { ids: reservation.ids[i]!, now: reservation.startedAt, requestId, ownerId }));
}

/** Refuses to write an order whose reservation outlived its lease: the relay may be about to release it. */
export function assertLease(reservation: Pick<Reservation, 'id' | 'startedAt'>, now: Date): void {
  if (now.getTime() - reservation.startedAt.getTime() > reservationLeaseMs) {
    throw new Error(`reservation ${reservation.id} took longer than ${reservationLeaseMs} ms; the order is not written`);
  }
}

/** Whether the order a reservation was for got written with it (then its units stay taken). */
export async function reservationWritten(deps: InventoryDeps, reservation: { id: string; order_id?: number | undefined }): Promise<boolean> {
  if (reservation.order_id === undefined) return false;
  return (await deps.orders.findById(reservation.order_id))?.reservation_id === reservation.id;
}

/** Gives back every take of the reservation, once each (releases are moves unique by reservation and product). */
export async function releaseReservation(deps: InventoryDeps, reservation: { id: string; items?: ReadonlyArray<{ product_id: number }>; units?: ReadonlyArray<{ product_id: number }> }): Promise<void> {
  for (const { product_id } of reservation.units ?? reservation.items ?? []) {
    const take = await deps.ledger.findMove(takeOp(reservation.id, product_id));
    if (!take) continue;
    // A take and its release are never announced: the order they were for never existed.
    await deps.ledger.apply(product_id, releaseOp(reservation.id, product_id), (head) => ({
      delta: -take.delta,
      low_stock_threshold: head.low_stock_threshold,
      reason: 'release',
      outbox: () => [],
    }));
  }
}

/**
 * Settles a reservation noted in `stock_intents` (by an earlier version) whose order may not
 * have been written: when the order it noted exists with this reservation the units stay taken,
 * otherwise every take is given back once. Then the note goes. True when units were released.
 */
async function settleNotedReservation(deps: InventoryDeps, intent: Pick<StockIntentDoc, '_id' | 'items' | 'order_id'>): Promise<boolean> {
  const reservation = { id: intent._id.slice('reserve:'.length), items: intent.items, order_id: intent.order_id };
  const written = await reservationWritten(deps, reservation);
  if (!written) await releaseReservation(deps, reservation);
  await deps.intents.remove(intent._id);
  return !written;
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
    throw new InsufficientStock([{ product_id: productId, requested, available: outcome.head.quantity, field: ['delta'] }]);
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
        if (await settleNotedReservation(deps, intent)) pass.released++;
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
