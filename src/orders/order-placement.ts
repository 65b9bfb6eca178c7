import type { Principal } from '../auth/api-keys';
import type { CurrencyCode, OrderCreate } from '../contract/types';
import type { FieldIssue } from '../errors/field-issue';
import { newId } from '../db/ids';
import { DomainError } from '../errors/domain-error';
import { InsufficientStock } from '../errors/insufficient-stock';
import { newOutboxEvent, type OutboxEvent, type OutboxSource, type PlannedWrite } from '../events/outbox';
import {
  assertLease,
  heldUnits,
  planReservation,
  releaseReservation,
  type Reservation,
  type ReservationPlan,
  reservationEvents,
  reservationWritten,
  reserveStock,
} from '../inventory/use-cases';
import { type OrderDoc, type OrderItemDoc, orderKey } from './repository';
import { createdEventData, orderTotal } from './rules';
import type { ResourceDeps } from './use-cases';

/*
 * The steps of placing an order (createOrder tells the story): price it, number it, note it,
 * hold its units, write it with its events, hand them to delivery. Costs on the common path: the
 * note, one insert of every product's take, the order; the note's removal is batched with others'.
 */

/** An order checked against the catalog and priced: nothing is written. */
export interface PricedOrder {
  userId: number;
  items: OrderItemDoc[];
  currency: CurrencyCode;
}

/** A priced order with its number and the ids of everything it will write: nothing is written yet. */
export interface OrderDraft extends PricedOrder {
  id: number;
  ownerId: string;
  at: Date;
  requestId?: string | undefined;
  /** Its `order.created` id: fixed across id retries, it keys the order's dispatch note. */
  createdEventId: string;
  reservation: ReservationPlan;
}

/** At most this many ids are tried before giving up (each clash means another process holds the block). */
const maxIdTries = 50;

function now(deps: ResourceDeps): Date {
  return deps.now?.() ?? new Date();
}

/** Where an order's events wait until they are logged: the order itself. */
export function orderSource(id: number): OutboxSource {
  return { collection: 'orders', id };
}

/**
 * Checks the order against the catalog and prices it: the user and every product exist, all in
 * one currency. Every problem in one 422; nothing is written, not even an id drawn.
 */
export async function priceOrder(deps: ResourceDeps, input: OrderCreate): Promise<PricedOrder> {
  const [user, products] = await Promise.all([deps.users.findById(input.user_id), deps.products.findByIds(input.items.map((i) => i.product_id))]);
  const byId = new Map(products.map((p) => [p._id, p]));
  const errors: FieldIssue[] = [];
  if (!user) errors.push({ field: ['user_id'], message: `no user ${input.user_id}` });
  input.items.forEach((item, index) => {
    if (!byId.has(item.product_id)) errors.push({ field: ['items', index, 'product_id'], message: `no product ${item.product_id}` });
  });
  if (errors.length) throw DomainError.unprocessable('The order refers to things that do not exist', errors);

  const currencies = [...new Set(products.map((p) => p.currency))];
  const currency = currencies[0];
  if (currency === undefined || currencies.length > 1) {
    throw DomainError.unprocessable(`The items are priced in different currencies (${currencies.join(', ')})`, [
      { field: ['items'], message: 'all products of an order must share one currency' },
    ]);
  }
  const items = input.items.map((item) => ({ product_id: item.product_id, quantity: item.quantity, unit_price: byId.get(item.product_id)!.price }));
  return { userId: input.user_id, items, currency };
}

/** Numbers the order (from this process's id block) and fixes its event and reservation ids. */
export async function draftOrder(deps: ResourceDeps, caller: Principal, priced: PricedOrder, requestId?: string): Promise<OrderDraft> {
  const at = now(deps);
  const createdEventId = newId('evt', at.getTime());
  return {
    ...priced,
    id: await deps.orders.nextId(),
    ownerId: caller.ownerId,
    at,
    requestId,
    createdEventId,
    // Its takes name the order's note: the note that announces their events.
    reservation: planReservation(priced.items, at, createdEventId),
  };
}

/** The order's dispatch note: where its events will be, their ids, and the units it holds until it is written. */
function orderNote(draft: OrderDraft): PlannedWrite {
  return {
    source: orderSource(draft.id),
    eventIds: [draft.createdEventId, ...draft.reservation.ids.flat()],
    reservation: { id: draft.reservation.id, items: heldUnits(draft.reservation), order_id: draft.id },
    at: draft.at,
    ownerId: draft.ownerId,
  };
}

/** Notes the order before anything of it is written: a crash from here on is finished or undone by the relay. */
export async function announceOrder(deps: ResourceDeps, draft: OrderDraft): Promise<void> {
  await deps.outbox.announcePlanned(orderNote(draft));
}

/**
 * Takes the order's units from stock, all or none. A shortfall gives back what was taken and
 * drops the note before it throws (409, nothing left); another failure leaves both to the relay.
 */
export async function holdStock(deps: ResourceDeps, draft: OrderDraft): Promise<Reservation> {
  try {
    return await reserveStock(deps.inventory, draft.reservation);
  } catch (err) {
    if (err instanceof InsufficientStock) await deps.outbox.withdraw([{ id: draft.createdEventId }]);
    throw err;
  }
}

/** The order as stored, with its `order.created` and its stock events: one document, so they exist together or not at all. */
function orderDoc(draft: OrderDraft, reservation: Reservation): OrderDoc {
  const order: OrderDoc = {
    _id: orderKey(draft.id),
    id: draft.id,
    owner_id: draft.ownerId,
    user_id: draft.userId,
    status: 'pending',
    items: draft.items,
    total: orderTotal(draft.items),
    currency: draft.currency,
    date: draft.at,
    updated_at: draft.at,
    outbox: [],
    reservation_id: reservation.id,
  };
  order.outbox.push(
    newOutboxEvent('order.created', createdEventData(order), { now: draft.at, id: draft.createdEventId, requestId: draft.requestId, ownerId: draft.ownerId, seq: 1 }),
    ...reservationEvents(reservation, draft.ownerId, draft.requestId),
  );
  return order;
}

/**
 * Writes the order under its id, within the reservation's lease. An id another process took
 * means the next id, and the note re-pointed to it before that try. Should the write fail, the
 * units go back unless the order got written after all (an error after the write).
 */
export async function writeOrder(deps: ResourceDeps, draft: OrderDraft, reservation: Reservation): Promise<OrderDoc> {
  let current = draft;
  try {
    for (let tries = 0; tries < maxIdTries; tries++) {
      assertLease(reservation, now(deps));
      const doc = orderDoc(current, reservation);
      if (await deps.orders.insertNew(doc)) return doc;
      current = { ...current, id: await deps.orders.nextId() };
      await deps.outbox.readdress(orderNote(current));
    }
    throw new Error(`no free order id after ${maxIdTries} tries`);
  } catch (err) {
    await settleUnwritten(deps, current, reservation);
    throw err;
  }
}

/**
 * After a failed write: the units stay taken if the order exists with the reservation (its
 * note stays for the relay to flush its events), and go back otherwise, with the note. A
 * failure here is only logged: the note stays, and the relay settles it the same way.
 */
async function settleUnwritten(deps: ResourceDeps, draft: OrderDraft, reservation: Reservation): Promise<void> {
  try {
    if (await reservationWritten(deps.inventory, { id: reservation.id, order_id: draft.id })) return;
    await releaseReservation(deps.inventory, reservation);
    await deps.outbox.withdraw([{ id: draft.createdEventId }]);
  } catch (err) {
    deps.logger.warn({ err, reservation: reservation.id }, 'reservation not settled; the relay will');
  }
}

/** Hands events just written with an order to delivery: logged now, their workflows started without waiting; a failure is only logged (the relay delivers them from the note). */
export async function handOver(deps: ResourceDeps, orderId: number, events: readonly OutboxEvent[]): Promise<void> {
  try {
    await deps.outbox.flush(orderSource(orderId), events);
  } catch (err) {
    deps.logger.warn({ err, order_id: orderId }, 'outbox flush failed; the relay will deliver the event');
  }
}
