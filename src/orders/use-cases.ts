import type { Principal } from '../auth/api-keys';
import { listingOwner, mayAccess } from '../auth/ownership';
import { newOutboxEvent, type OutboxFlusher } from '../events/outbox';
import { DomainError } from '../errors/domain-error';
import { RetryLater, retryAfterSeconds } from '../errors/retry-later';
import type {
  Order,
  OrderCreate,
  OrderStatus,
  OrderSummaryList,
  OrderUpdate,
  ProductList,
  User,
  QueryOf,
} from '../contract/types';
import { type InventoryDeps, checkStock, noteReturn, returnStock } from '../inventory/use-cases';
import type { Logger } from '../logger';
import type { StoredEventData } from '../webhooks/envelopes';
import { announceOrder, draftOrder, handOver, holdStock, orderSource, priceOrder, writeOrder } from './order-placement';
import type { TransitionBusy } from './claim-lease';
import { type OrderDoc, type OrderRepository, type ProductRepository, type UserRepository, toOrder, toProduct, toUser } from './repository';
import { canTransition, createdEventData, parseFields, parseProductFilter } from './rules';

/** What the orders module reads and writes: orders, and the users and catalog they are placed from. */
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
  return DomainError.conflict('Invalid Status Transition', detail, [{ field: ['status'], message }]);
}

/** A change that lost its place to slowness, its own or another change's that has not landed: nothing changed the order. */
function orderBusy(id: number, from: OrderStatus, to: OrderStatus, busy: TransitionBusy): RetryLater {
  const seconds = retryAfterSeconds(busy.retryAfterMs);
  return busy.cause === 'too_slow'
    ? new RetryLater('Change Not Applied In Time', `The service was too slow to apply ${from} → ${to} to order ${id}; nothing was written. Retry after ${seconds} s`, seconds)
    : new RetryLater('Order Change In Progress', `Another change of order ${id} has claimed it and not landed yet; nothing was written. Retry after ${seconds} s`, seconds);
}

/** `data` of `order.updated` as stored: the contract's `OrderUpdatedEventData`, the order after the change and its `previous_status`. */
function updatedEventData(doc: OrderDoc, previous: OrderStatus): StoredEventData<'order.updated'> {
  return { ...createdEventData(doc), previous_status: previous };
}

/** The place of an order's next event among its own (order.*) events: the stock events in its outbox have keys of their own. */
export function nextOrderSeq(order: Pick<OrderDoc, 'outbox'>): number {
  return order.outbox.filter((e) => e.type.startsWith('order.')).length + 1;
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
  // Both at once: the page is returned only for a user that exists.
  const page = deps.orders.listSummariesOf(userId, fields, query.limit ?? defaultLimit, listingOwner(caller));
  page.catch(() => undefined);
  if (!(await deps.users.findById(userId))) throw userNotFound(userId);
  return { data: await page };
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
 * Places a `pending` order priced from the catalog. Everything is checked before anything is
 * written (422, or 409 for stock visibly short: not even an id is drawn). Then the order is
 * noted (its dispatch note, holding the reservation), its units are taken (all or none: a
 * shortfall is 409 with nothing left), and the order with its `order.created` and stock events
 * is one insert; its events go to delivery right after. A crash anywhere is finished or undone by
 * the relay from the note (src/inventory/use-cases.ts says how).
 */
export async function createOrder(deps: ResourceDeps, caller: Principal, input: OrderCreate, requestId?: string): Promise<Order> {
  const priced = await priceOrder(deps, input);
  await checkStock(deps.inventory, priced.items);
  const draft = await draftOrder(deps, caller, priced, requestId);
  await announceOrder(deps, draft);
  const reservation = await holdStock(deps, draft);
  const order = await writeOrder(deps, draft, reservation);
  await handOver(deps, order.id, order.outbox);
  return toOrder(order);
}

export async function getOrder(deps: ResourceDeps, caller: Principal, id: number): Promise<Order> {
  return toOrder(await findAccessible(deps, caller, id));
}

/**
 * Moves an order to a new status along the contract's transitions. The same status is a no-op
 * without an event; a change and its `order.updated` event are one conditional update, which
 * gives 409 when the order changed between the read and the write: of concurrent changes of one
 * order exactly one lands (the repository makes them claim the order's next place first). When
 * the place is held by a change that has not landed (this one, too slow to write in time, or
 * another), nothing changed the order: `RetryLater` (503) until the place can be had.
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
  // Its place after the order's events so far: the transition below only lands on the order as read (a status is never left twice).
  const event = newOutboxEvent('order.updated', updatedEventData(updated, from), { now, requestId, ownerId: current.owner_id, seq: nextOrderSeq(current) });
  let announced = false;
  // Of concurrent changes only the one that wins the order's next place notes anything: the others write nothing.
  const outcome = await deps.orders.transition(id, from, to, event, now, async () => {
    // Noted before the change: a crash right after it still gets the units back (the sweeper).
    if (to === 'cancelled') await noteReturn(deps.inventory, current);
    await deps.outbox.announce([event], orderSource(id));
    announced = true;
  });
  if (outcome.kind !== 'written') {
    // Best effort: a note left behind is dropped by the relay once it is old.
    if (announced) await deps.outbox.withdraw([event]).catch((err: unknown) => deps.logger.warn({ err, event_id: event.id }, 'dispatch note not withdrawn'));
    if (outcome.kind === 'busy') throw orderBusy(id, from, to, outcome);
    if (!(await deps.orders.findById(id))) throw orderNotFound(id);
    throw transitionConflict(
      `The order changed while moving ${from} → ${to}; read it again and retry`,
      `${from} → ${to} conflicts with a concurrent change`,
    );
  }
  await handOver(deps, id, [event]);
  // Once per order however often it is cancelled: each product's return is a unique move.
  if (to === 'cancelled') await returnStock(deps.inventory, current, requestId);
  return toOrder(updated);
}
