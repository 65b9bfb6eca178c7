import { newId } from '../db/ids';
import type { EventType } from '../http/schemas';

/**
 * An event waiting in its source document's `outbox` array. Written in the same single-document
 * write as the change that caused it (FerretDB v1 has no transactions; one document is atomic),
 * so the change and its event exist together or not at all.
 */
export interface OutboxEvent {
  id: string;
  type: EventType;
  data: Record<string, unknown>;
  created_at: Date;
}

/** A new event with a unique `evt_` id. */
export function newOutboxEvent(type: EventType, data: Record<string, unknown>, now = new Date()): OutboxEvent {
  return { id: newId('evt', now.getTime()), type, data, created_at: now };
}

/** Moves a document's pending outbox events into the event log and dispatches them. */
export interface OutboxFlusher {
  /**
   * Flushes the outbox of one document. Callers invoke it right after their write, and
   * ignore (log) its failure: the relay flushes whatever is left behind.
   */
  flush(collection: 'orders', id: number): Promise<void>;
}
