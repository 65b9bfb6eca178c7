import { newId } from '../db/ids';
import type { EventType } from '../contract/types';
import type { StoredEventData } from '../webhooks/envelopes';

/**
 * An event in its source document's `outbox` array. Written in the same single-document write as
 * the change that caused it (FerretDB v1 has no transactions; one document is atomic), so the
 * change and its event exist together or not at all. Entries stay after dispatch (at most one
 * per status change): removing them would be a write that FerretDB v1 makes scan the collection.
 */
export interface OutboxEvent {
  id: string;
  type: EventType;
  data: Record<string, unknown>;
  created_at: Date;
  /** The API request that caused it (its X-Request-Id): one id from the request log to the workflow. */
  request_id?: string;
  /** Whose data it carries: only that owner's subscriptions, and those made with admin keys, get it. */
  owner_id?: string;
  /**
   * Its place among the events of its ordering key (src/webhooks/ordering-key.ts), fixed in the
   * same write as the event: what ordered subscriptions are delivered by. Absent: not ordered.
   */
  seq?: number;
}

/** A document whose `outbox` may hold events: an order (by its number) or a stock move (by its operation key). */
export type OutboxSource = { collection: 'orders'; id: number } | { collection: 'stock_moves'; id: string };

/** How a new event came about: when, under which id (when the caller had to know it beforehand), from which request. */
export interface EventOrigin {
  now?: Date;
  id?: string;
  requestId?: string | undefined;
  ownerId?: string;
  /** Its place among the events of its ordering key (see OutboxEvent.seq). */
  seq?: number;
}

/** A new event with a unique `evt_` id unless given one; its data has the contract's shape for its type. */
export function newOutboxEvent<T extends EventType>(type: T, data: StoredEventData<T>, origin: EventOrigin = {}): OutboxEvent {
  const now = origin.now ?? new Date();
  return {
    id: origin.id ?? newId('evt', now.getTime()),
    type,
    data,
    created_at: now,
    ...(origin.requestId ? { request_id: origin.requestId } : {}),
    ...(origin.ownerId !== undefined ? { owner_id: origin.ownerId } : {}),
    ...(origin.seq !== undefined ? { seq: origin.seq } : {}),
  };
}

/** Units held for an order about to be written: given back by the relay if that order never is. */
export interface HeldReservation {
  id: string;
  /** The units per product. */
  items: Array<{ product_id: number; quantity: number }>;
  /** The order id it is being written under. */
  order_id: number;
}

/**
 * A write announced before its events are built: where they will be, the ids they will have
 * (the first keys the note and is always among the written ones), and the units it holds.
 */
export interface PlannedWrite {
  source: OutboxSource;
  eventIds: readonly string[];
  reservation?: HeldReservation;
  at: Date;
  /** Whose events they will be: a held-back owner's note is due later (see OwnerAdmission). */
  ownerId?: string;
}

/**
 * What a write that puts events in an outbox needs: `announce` before the write, `flush` after
 * it (or `withdraw` when the write did not happen). One note per write, whatever its events.
 */
export interface OutboxFlusher {
  /**
   * Notes, before the write that puts `events` into `source`'s outbox, where they will be: a
   * crash after the write leaves the note, and the relay finds the events through it without
   * scanning the source collection. Idempotent per write (keyed by the first event's id).
   */
  announce(events: readonly OutboxEvent[], source: OutboxSource): Promise<void>;
  /** `announce` for a write whose events are not built yet, with the reservation it holds. */
  announcePlanned(write: PlannedWrite): Promise<void>;
  /** The planned write moved to another source (its order id was taken): its note follows it. */
  readdress(write: PlannedWrite): Promise<void>;
  /** The announced write did not happen (e.g. a conflict): drops the notes keyed by these events. */
  withdraw(events: ReadonlyArray<Pick<OutboxEvent, 'id'>>): Promise<void>;
  /**
   * Moves `events`, just written into `source`'s outbox, to the event log and dispatches them;
   * resolves once they are logged (their workflows may still be starting, their note in place).
   * Callers invoke it right after their write, and ignore (log) its failure: the relay
   * flushes whatever is left behind. The outbox keeps its entries as the document's event record.
   */
  flush(source: OutboxSource, events: readonly OutboxEvent[]): Promise<void>;
}
