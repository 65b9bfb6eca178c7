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
}

/** A document whose `outbox` may hold events: an order (by its number) or a stock move (by its operation key). */
export type OutboxSource = { collection: 'orders'; id: number } | { collection: 'stock_moves'; id: string };

/** How a new event came about: when, under which id (when the caller had to know it beforehand), from which request. */
export interface EventOrigin {
  now?: Date;
  id?: string;
  requestId?: string | undefined;
  ownerId?: string;
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
  };
}

/**
 * What a write that puts events in an outbox needs: `announce` before the write, `flush` after
 * it (or `withdraw` when the write did not happen).
 */
export interface OutboxFlusher {
  /**
   * Notes, before the write that puts `events` into `source`'s outbox, where they will be: a
   * crash after the write leaves the note, and the relay finds the events through it without
   * scanning the source collection. Idempotent per event.
   */
  announce(events: readonly OutboxEvent[], source: OutboxSource): Promise<void>;
  /** The announced write did not happen (e.g. a conflict): drops the notes. */
  withdraw(events: readonly OutboxEvent[]): Promise<void>;
  /**
   * Moves `events`, just written into `source`'s outbox, to the event log and dispatches them.
   * Callers invoke it right after their write, and ignore (log) its failure: the relay
   * flushes whatever is left behind. The outbox keeps its entries as the document's event record.
   */
  flush(source: OutboxSource, events: readonly OutboxEvent[]): Promise<void>;
}
