import { groupByEvent, type AttemptLike } from './group-attempts';

/** The fields of a listed event (`SubscriptionEvent`) the list logic reads. */
export interface EventLike {
  id: string;
  delivery_state: string;
  /** Attempts made so far, redeliveries included. */
  attempts: number;
}

/** One event of the list with the attempts the page has of it, newest first. */
export interface EventRow<E extends EventLike, A extends AttemptLike> {
  event: E;
  attempts: A[];
  /** Attempts the event has that the page has not loaded (older than the latest attempts it fetched). */
  missing: number;
}

// Where a delivery may still change by itself: the page keeps polling while one is in such a state.
const unsettledStates = new Set(['pending', 'retrying']);

/**
 * A fresh first page merged into a newest-first list: its events replace their older copies, the
 * events loaded beyond it (by "Load more") stay after it, so a refresh never shortens the list.
 */
export function mergeFirstPage<E extends { id: string }>(loaded: readonly E[], fresh: readonly E[]): E[] {
  const ids = new Set(fresh.map((e) => e.id));
  return [...fresh, ...loaded.filter((e) => !ids.has(e.id))];
}

/** An older page appended to a newest-first list, events already in it skipped. */
export function appendPage<E extends { id: string }>(loaded: readonly E[], page: readonly E[]): E[] {
  const ids = new Set(loaded.map((e) => e.id));
  return [...loaded, ...page.filter((e) => !ids.has(e.id))];
}

/** A list without repeats: one item per id (the later copy), in the order ids first appear. */
export function uniqueById<T extends { id: string }>(items: readonly T[]): T[] {
  return [...new Map(items.map((x) => [x.id, x] as const)).values()];
}

/** Each event with its attempts found in `attempts` (any order; the same attempt twice counts once). */
export function eventRows<E extends EventLike, A extends AttemptLike & { id: string }>(events: readonly E[], attempts: readonly A[]): EventRow<E, A>[] {
  const byEvent = new Map(groupByEvent(uniqueById(attempts)).map((g) => [g.eventId, g.attempts]));
  return events.map((event) => {
    const list = byEvent.get(event.id) ?? [];
    return { event, attempts: list, missing: Math.max(0, event.attempts - list.length) };
  });
}

/** The events whose attempts are not all loaded: the page fetches those events' attempts one by one. */
export function eventsMissingAttempts(rows: readonly EventRow<EventLike, AttemptLike>[]): string[] {
  return rows.filter((r) => r.missing > 0).map((r) => r.event.id);
}

/** Whether some event's delivery is still pending or retrying. */
export function anyUnsettled(events: readonly { delivery_state: string }[]): boolean {
  return events.some((e) => unsettledStates.has(e.delivery_state));
}

/** An event's payload as indented JSON for the collapsible view. */
export function payloadText(data: unknown): string {
  return JSON.stringify(data, null, 2) ?? 'null';
}
