import type { EventDoc } from '../src/events/repository';
import { withTimeout } from '../src/lib/timing';

/** The part of a logged event deliveries read; it never changes once the event is logged. */
export type CachedEvent = Readonly<Pick<EventDoc, '_id' | 'type' | 'data' | 'created_at' | 'subscription_ids' | 'owner_id' | 'data_owner'>>;

/** Events by id, read once per worker while they stay among the most recently used. */
export interface EventCache {
  /** The event, from memory or else from `load`; undefined (and not remembered) when it is not logged. */
  get(eventId: string): Promise<CachedEvent | undefined>;
  /** Keeps an event that arrived by other means (a workflow's input), so later gets need no read. */
  put(event: CachedEvent): void;
  /** How many events are held. */
  readonly size: number;
}

/** About 4k small order events: a few MB, hours of fan-outs at the service's rates. */
export const DEFAULT_EVENT_CACHE_ENTRIES = 4096;

/** Longest a read may take before it counts as failed, so one stuck read cannot hold every round of its event. */
export const DEFAULT_EVENT_READ_TIMEOUT_MS = 30_000;

/**
 * A bounded least-recently-used cache over `load`. Concurrent gets of one id share one read;
 * misses and failed reads are not kept, so an event logged later (or a database back up) is
 * found by the next get. A read unanswered after `readTimeoutMs` fails, and the next get reads again.
 */
export function createEventCache(
  load: (eventId: string) => Promise<CachedEvent | undefined>,
  maxEntries = DEFAULT_EVENT_CACHE_ENTRIES,
  readTimeoutMs = DEFAULT_EVENT_READ_TIMEOUT_MS,
): EventCache {
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`event cache size must be a positive integer, got ${maxEntries}`);
  // A Map iterates in insertion order: re-inserting on a hit keeps the oldest first.
  const entries = new Map<string, CachedEvent>();
  const reading = new Map<string, Promise<CachedEvent | undefined>>();

  function remember(event: CachedEvent): void {
    entries.set(event._id, event);
    if (entries.size > maxEntries) {
      const oldest = entries.keys().next();
      if (!oldest.done) entries.delete(oldest.value);
    }
  }

  return {
    get(eventId) {
      const hit = entries.get(eventId);
      if (hit) {
        entries.delete(eventId);
        entries.set(eventId, hit);
        return Promise.resolve(hit);
      }
      const pending = reading.get(eventId);
      if (pending) return pending;
      const read = withTimeout(load(eventId), readTimeoutMs, `reading event ${eventId}`)
        .then((doc) => {
          if (!doc) return undefined;
          // Only the fields deliveries read, all fixed once the event is logged.
          const event: CachedEvent = Object.freeze({
            _id: doc._id,
            type: doc.type,
            data: doc.data,
            created_at: doc.created_at,
            subscription_ids: doc.subscription_ids,
            ...(doc.owner_id !== undefined ? { owner_id: doc.owner_id } : {}),
            ...(doc.data_owner !== undefined ? { data_owner: doc.data_owner } : {}),
          });
          remember(event);
          return event;
        })
        .finally(() => reading.delete(eventId));
      reading.set(eventId, read);
      return read;
    },
    put(event) {
      if (!entries.has(event._id)) remember(Object.freeze({ ...event }));
    },
    get size() {
      return entries.size;
    },
  };
}

