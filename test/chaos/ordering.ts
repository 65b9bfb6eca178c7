/**
 * The ordered subscription's check, pure so it is unit-tested: per ordering key, did its events
 * first arrive in the order they were emitted? An event's place is its `seq` in the order's
 * outbox (read after the run); receivers do not see it, so the envelope gives it too, as a
 * cross-check and for an event not found there: `order.created` is first, and each
 * `order.updated` comes right after the status it left (`previous_status`), a status never being
 * left twice.
 */

/** One first arrival at the ordered subscription's receiver. */
export interface OrderedArrival {
  eventId: string;
  /** Epoch ms. */
  t: number;
  /** The `webhook-ordering-key` header. */
  key?: string;
  /** The envelope's event type. */
  event?: string;
  previousStatus?: string;
}

/** What the ordering check found. */
export interface OrderCheck {
  /** Keys seen, and those with more than one event. */
  keys: number;
  keysWithSeveral: number;
  /** Pairs of one key's events whose first arrivals are the reverse of their emission. */
  outOfOrderPairs: number;
  /** Arrivals without a key header or whose place cannot be read (counted, not placed). */
  unplaced: number;
  /** Arrivals whose envelope places them elsewhere than their outbox `seq`. */
  seqMismatches: number;
  /** The first few out-of-order pairs: key, the later-emitted event that came first, then the earlier one. */
  examples: string[];
}

/** Each status's place among an order's events; `order.updated` from status s comes at rank(s) + 1. */
const statusRank: Record<string, number> = { pending: 1, paid: 2, shipped: 3, delivered: 4 };

/** The event's place in its key (1: order.created), or undefined when the envelope does not say. */
export function placeOf(a: Pick<OrderedArrival, 'event' | 'previousStatus'>): number | undefined {
  if (a.event === 'order.created') return 1;
  if (a.event === 'order.updated' && a.previousStatus !== undefined && statusRank[a.previousStatus] !== undefined) return statusRank[a.previousStatus]! + 1;
  return undefined;
}

/** Counts, per key, the pairs that first arrived in the reverse of their emission order (`seqOf`: event id → outbox `seq`). */
export function checkOrder(arrivals: readonly OrderedArrival[], seqOf: ReadonlyMap<string, number> = new Map(), maxExamples = 10): OrderCheck {
  const byKey = new Map<string, Array<{ a: OrderedArrival; place: number }>>();
  const c: OrderCheck = { keys: 0, keysWithSeveral: 0, outOfOrderPairs: 0, unplaced: 0, seqMismatches: 0, examples: [] };
  for (const a of arrivals) {
    const fromEnvelope = placeOf(a);
    const seq = seqOf.get(a.eventId);
    if (seq !== undefined && fromEnvelope !== undefined && seq !== fromEnvelope) c.seqMismatches++;
    const place = seq ?? fromEnvelope;
    if (a.key === undefined || place === undefined) {
      c.unplaced++;
      continue;
    }
    const list = byKey.get(a.key) ?? [];
    list.push({ a, place });
    byKey.set(a.key, list);
  }
  const iso = (t: number) => new Date(t).toISOString().slice(11, 23);
  for (const [key, list] of byKey) {
    c.keys++;
    if (list.length > 1) c.keysWithSeveral++;
    list.sort((x, y) => x.a.t - y.a.t);
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        if (list[i]!.place <= list[j]!.place) continue;
        c.outOfOrderPairs++;
        if (c.examples.length < maxExamples) {
          const [late, early] = [list[i]!, list[j]!];
          c.examples.push(`${key}: ${late.a.eventId} (place ${late.place}) at ${iso(late.a.t)} before ${early.a.eventId} (place ${early.place}) at ${iso(early.a.t)}`);
        }
      }
    }
  }
  return c;
}
