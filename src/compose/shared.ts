import type { Db } from 'mongodb';
import type { Config } from '../config/config';
import { DispatchNotes } from '../events/dispatch-notes';
import { type DispatcherDeps, EventDispatcher } from '../events/dispatcher';
import type { OutboxFlusher } from '../events/outbox';
import { OwnerLanes } from '../events/lanes';
import { OwnerAdmission } from '../events/admission';
import { EventRepository } from '../events/repository';
import type { RelayDeps } from '../events/relay';
import type { DeliverySettings } from '../events/start-options';
import { StockIntents, StockLedger } from '../inventory/repository';
import { type InventoryDeps, intentGraceMs, releaseReservation, reservationWritten } from '../inventory/use-cases';
import type { Logger } from '../logger';
import { OrderRepository } from '../orders/repository';
import { SecretBox } from '../subscriptions/secret-box';
import type { WorkerMetrics } from '../telemetry/metrics';

/** The delivery settings every event workflow starts with. */
export function deliverySettings(config: Pick<Config, 'delivery' | 'temporal'>): DeliverySettings {
  return { taskQueue: config.temporal.taskQueue, policy: config.delivery.policy, batchSize: config.delivery.batchSize };
}

/** This process's lane choice per owner (OWNER_FAIR_RATE, OWNER_FAIR_BURST), for its dispatcher. */
export function ownerLanes(config: Pick<Config, 'delivery'>): OwnerLanes {
  return new OwnerLanes(config.delivery.fairShare);
}

/** How recently another owner must have started on the default lane for a bulk-lane owner to be held back. */
const CONTENDED_WINDOW_MS = 2000;

/** The API's holding back of bulk-lane owners while others send (BULK_LANE_START_RATE), over its lanes. */
export function ownerAdmission(config: Pick<Config, 'delivery'>, lanes: OwnerLanes, logger: Logger): OwnerAdmission {
  return new OwnerAdmission({
    ratePerSecond: config.delivery.fairShare.bulkStartsPerSecond,
    contended: (owner) => lanes.othersActive(owner, CONTENDED_WINDOW_MS),
    onError: (err, owner) => logger.warn({ err, owner }, 'dispatch deferred to the relay'),
  });
}

/** The box sealing signing secrets at rest with the configured keys (none: plaintext). */
export function secretBox(config: Partial<Pick<Config, 'secretKeys'>>): SecretBox {
  return new SecretBox(config.secretKeys?.current, config.secretKeys?.previous);
}

/** A process's event log and dispatch notes, and the dispatcher writing them: the use cases and the relay get these same instances. */
export interface EventDispatch {
  dispatcher: EventDispatcher;
  events: EventRepository;
  notes: DispatchNotes;
}

/** The event log and dispatch notes over `db`, and the dispatcher over them. */
export function eventDispatch(db: Db, deps: Omit<DispatcherDeps, 'events' | 'notes'>): EventDispatch {
  const events = new EventRepository(db);
  const notes = new DispatchNotes(db, (err) => deps.logger.warn({ err }, 'dispatch notes not removed; the relay will'));
  return { dispatcher: new EventDispatcher({ ...deps, events, notes }), events, notes };
}

/**
 * The relay's view of the database: the dispatcher with its event log and notes, and each source
 * collection's outbox; `stock` is the process's orders and inventory (absent: built over `db` for the relay alone).
 */
export function relayDeps(db: Db, { dispatcher, events, notes }: EventDispatch, logger: Logger, metrics?: WorkerMetrics, stock?: ProcessStock): RelayDeps {
  const { orders, inventory } = stock ?? processStock(db, dispatcher, logger);
  return {
    dispatcher,
    events,
    notes,
    outboxes: { orders: (id) => orders.outboxOf(id), stock_moves: (op) => inventory.ledger.outboxOf(op) },
    reservations: {
      written: (reservation) => reservationWritten(inventory, reservation),
      release: (reservation) => releaseReservation(inventory, reservation),
      graceMs: intentGraceMs,
    },
    logger,
    ...(metrics ? { metrics } : {}),
  };
}

/** A process's order repository and inventory, shared by whatever in it moves stock, so it keeps one head cache. */
export interface ProcessStock {
  orders: OrderRepository;
  inventory: InventoryDeps;
}

/** The orders and inventory over `db`, their events going out through `outbox`. */
export function processStock(db: Db, outbox: OutboxFlusher, logger: Logger): ProcessStock {
  const orders = new OrderRepository(db);
  return { orders, inventory: inventoryDeps(db, orders, outbox, logger) };
}

/** The inventory's dependencies: its repositories, the orders it settles reservations against, and the outbox of its events. */
export function inventoryDeps(db: Db, orders: OrderRepository, outbox: OutboxFlusher, logger: Logger): InventoryDeps {
  const ledger = new StockLedger(db, (err) => logger.warn({ err }, 'stock levels not copied; the next move of each product copies again'));
  return { ledger, intents: new StockIntents(db), orders, outbox, logger };
}

