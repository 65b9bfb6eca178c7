import type { Principal } from '../auth/api-keys';
import { listingOwner, mayAccess } from '../auth/ownership';
import { newId } from '../db/ids';
import { newOutboxEvent, type OutboxEvent, type OutboxFlusher, type OutboxSource } from '../events/outbox';
import { DomainError } from '../errors/domain-error';
import type {
  FieldError,
  Order,
  OrderCreate,
  OrderStatus,
  OrderSummaryList,
  OrderUpdate,
  ProductList,
  User,
  QueryOf,
} from '../contract/types';
import {
  type InventoryDeps,
  assertLease,
  completeReservation,
  noteReservationOrder,
  noteReturn,
  reservationEvents,
  reserveStock,
  returnStock,
  settleFailedReservation,
} from '../inventory/use-cases';
import type { Logger } from '../logger';
import type { StoredEventData } from '../webhooks/envelopes';
import { type OrderDoc, type OrderRepository, type ProductRepository, type UserRepository, orderKey, toOrder, toProduct, toUser } from './repository';
import { canTransition, createdEventData, orderTotal, parseFields, parseProductFilter } from './rules';

export interface ResourceDeps {
  users: UserRepository;
  products: ProductRepository;
  orders: OrderRepository;
  /** Stock: orders reserve their units, cancellations return them. */
  inventory: InventoryDeps;
  logger: Logger;
  /** Announces an order's events before the write and dispatches them right after it; the relay catches up if that fails. */
  outbox: OutboxFlusher;
  now?: () => Date;
}

const defaultLimit = 20;

function userNotFound(id: number): DomainError {
  return DomainError.notFound(`No user ${id}`);
}

function orderNotFound(id: number): DomainError {
  return DomainError.notFound(`No order ${id}`);
}

function transitionConflict(detail: string, message: string): DomainError {
  return DomainError.conflict('Invalid Status Transition', detail, [{ path: '/body/status', message }]);
}

/** `data` of `order.updated` as stored: the contract's `OrderUpdatedEventData`, the order after the change and its `previous_status`. */
function updatedEventData(doc: OrderDoc, previous: OrderStatus): StoredEventData<'order.updated'> {
  return { ...createdEventData(doc), previous_status: previous };
}

function orderSource(id: number): OutboxSource {
  return { collection: 'orders', id };
}

/** Asks for the events just written with the order to be dispatched now; a failure is only logged. */
async function flushOutbox(deps: ResourceDeps, orderId: number, events: readonly OutboxEvent[]): Promise<void> {
  try {
    await deps.outbox.flush(orderSource(orderId), events);
  } catch (err) {
    deps.logger.warn({ err, order_id: orderId }, 'outbox flush failed; the relay will deliver the event');
  }
}

export async function getUser(deps: ResourceDeps, id: number): Promise<User> {
  const doc = await deps.users.findById(id);
  if (!doc) throw userNotFound(id);
  return toUser(doc);
}

/** Up to `limit` of the user's orders the caller may see, newest first, carrying only the selected `fields`. */
export async function listUserOrders(
  deps: ResourceDeps,
  caller: Principal,
  userId: number,
  query: QueryOf<'listUserOrders'>,
): Promise<OrderSummaryList> {
  const fields = parseFields(query.fields);
  if (!(await deps.users.findById(userId))) throw userNotFound(userId);
  return { data: await deps.orders.listSummariesOf(userId, fields, query.limit ?? defaultLimit, listingOwner(caller)) };
}

/** The order, when `caller` may see it; another owner's order is as absent as a missing one. */
async function findAccessible(deps: ResourceDeps, caller: Principal, id: number): Promise<OrderDoc> {
  const doc = await deps.orders.findById(id);
  if (!doc || !mayAccess(caller, doc.owner_id)) throw orderNotFound(id);
  return doc;
}

/** Up to `limit` products in id order, optionally matching one `filter` condition. */
export async function listProducts(deps: ResourceDeps, query: QueryOf<'listProducts'>): Promise<ProductList> {
  const filter = parseProductFilter(query.filter);
  const rows = await deps.products.list(filter, query.limit ?? defaultLimit);
  return { data: rows.map(toProduct) };
}

/**
 * Creates a `pending` order priced from the catalog. Everything is checked before anything is
 * written (not even an id is drawn); then its units are reserved (all or none: a shortfall is
 * InsufficientStock with nothing written), and the order with its `order.created` and stock
 * events is one insert. Should that insert fail, the units go back unless the order got written.
 */
export async function createOrder(deps: ResourceDeps, caller: Principal, input: OrderCreate, requestId?: string): Promise<Order> {
  const [user, products] = await Promise.all([
    deps.users.findById(input.user_id),
    deps.products.findByIds(input.items.map((i) => i.product_id)),
  ]);
  const byId = new Map(products.map((p) => [p._id, p]));
  const errors: FieldError[] = [];
  if (!user) errors.push({ path: '/body/user_id', message: `no user ${input.user_id}` });
  input.items.forEach((item, index) => {
    if (!byId.has(item.product_id)) {
      errors.push({ path: `/body/items/${index}/product_id`, message: `no product ${item.product_id}` });
    }
  });
  if (errors.length) throw DomainError.unprocessable('The order refers to things that do not exist', errors);

  const currencies = [...new Set(products.map((p) => p.currency))];
  const currency = currencies[0];
  if (currency === undefined || currencies.length > 1) {
    throw DomainError.unprocessable(`The items are priced in different currencies (${currencies.join(', ')})`, [
      { path: '/body/items', message: 'all products of an order must share one currency' },
    ]);
  }

  const items = input.items.map((item) => ({
    product_id: item.product_id,
    quantity: item.quantity,
    unit_price: byId.get(item.product_id)!.price,
  }));
  const now = deps.now?.() ?? new Date();
  // One event id across id-allocation retries, so they all refresh the same dispatch note.
  const eventId = newId('evt', now.getTime());
  const reservation = await reserveStock(deps.inventory, input.items);
  let orderId: number | undefined;
  let doc: OrderDoc;
  try {
    doc = await deps.orders.insertWithNextId(
      (id) => {
        const order: OrderDoc = {
          _id: orderKey(id),
          id,
          owner_id: caller.ownerId,
          user_id: input.user_id,
          status: 'pending',
          items,
          total: orderTotal(items),
          currency,
          date: now,
          updated_at: now,
          outbox: [],
          reservation_id: reservation.id,
        };
        // The events go in with the order, in one single-document write: stock events only for orders that exist.
        order.outbox.push(
          newOutboxEvent('order.created', createdEventData(order), { now, id: eventId, requestId, ownerId: order.owner_id }),
          ...reservationEvents(reservation, order.owner_id, requestId),
        );
        return order;
      },
      async (order) => {
        orderId = order.id;
        await noteReservationOrder(deps.inventory, reservation, order.id);
        assertLease(reservation, deps.now?.() ?? new Date());
        await deps.outbox.announce(order.outbox, orderSource(order.id));
      },
    );
  } catch (err) {
    await settleFailedReservation(deps.inventory, reservation, orderId);
    throw err;
  }
  await completeReservation(deps.inventory, reservation);
  await flushOutbox(deps, doc.id, doc.outbox);
  return toOrder(doc);
}

export async function getOrder(deps: ResourceDeps, caller: Principal, id: number): Promise<Order> {
  return toOrder(await findAccessible(deps, caller, id));
}

/**
 * Moves an order to a new status along the contract's transitions. The same status is a no-op
 * without an event; a change and its `order.updated` event are one conditional update, which
 * gives 409 when the order changed between the read and the write.
 */
export async function updateOrder(deps: ResourceDeps, caller: Principal, id: number, input: OrderUpdate, requestId?: string): Promise<Order> {
  const current = await findAccessible(deps, caller, id);
  const from = current.status;
  const to = input.status;
  if (from === to) return toOrder(current);
  if (!canTransition(from, to)) {
    throw transitionConflict(`An order in status ${from} cannot move to ${to}`, `${from} → ${to} is not allowed`);
  }
  const now = deps.now?.() ?? new Date();
  const updated: OrderDoc = { ...current, status: to, updated_at: now };
  const event = newOutboxEvent('order.updated', updatedEventData(updated, from), { now, requestId, ownerId: current.owner_id });
  // Noted before the change: a crash right after it still gets the units back (the sweeper).
  if (to === 'cancelled') await noteReturn(deps.inventory, current);
  await deps.outbox.announce([event], orderSource(id));
  if (!(await deps.orders.transition(id, from, to, event, now))) {
    // Best effort: a note left behind is dropped by the relay once it is old.
    await deps.outbox.withdraw([event]).catch((err: unknown) => deps.logger.warn({ err, event_id: event.id }, 'dispatch note not withdrawn'));
    if (!(await deps.orders.findById(id))) throw orderNotFound(id);
    throw transitionConflict(
      `The order changed while moving ${from} → ${to}; read it again and retry`,
      `${from} → ${to} conflicts with a concurrent change`,
    );
  }
  await flushOutbox(deps, id, [event]);
  // Once per order however often it is cancelled: each product's return is a unique move.
  if (to === 'cancelled') await returnStock(deps.inventory, current, requestId);
  return toOrder(updated);
}
