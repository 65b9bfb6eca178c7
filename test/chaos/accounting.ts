/**
 * The run's arithmetic, pure so it is unit-tested: what was owed (every event of every accepted
 * order to every subscriber of its type), what arrived, what is lost, the duplicates, the drain
 * time, the refusals by reason and by fault, and the verdict.
 */
import type { OwedEvent } from './drain';
import type { LoadResult } from '../../stack/harness/load';
import { describeFault, type FaultRecord } from './faults';

export interface Deliveries {
  /** Owed (event, subscription) pairs: each accepted order's events × the subscriptions to their type. */
  expected: number;
  /** Unique (event, subscription) pairs of accepted orders that arrived. */
  delivered: number;
  lost: number;
  /** The missing pairs grouped by event: its order, the event (if any) and the subscriptions it did not reach. */
  lostByOrder: Array<{ orderId: number; eventId: string | undefined; subscriptionIds: string[] }>;
  /** Owed events not in the event log (a missing delivery of theirs counts as lost too). */
  notLogged: number;
  /** Logged events whose snapshot lacks one of the run's subscriptions to their type (all were active or holding throughout). */
  snapshotMismatches: number;
  /** Unique pairs that arrived for events of orders the client did not see accepted (a timeout after the write). */
  unconfirmedDelivered: number;
  /** Epoch ms of the last owed delivery's arrival. */
  lastArrival: number | undefined;
}

/** A subscription and the event types it gets. */
export interface Subscribed {
  subscriptionId: string;
  events: readonly string[];
}

/** Counts owed, delivered and lost pairs from the receivers' first arrivals (subscription → event → ms). */
export function countDeliveries(owed: readonly OwedEvent[], subscribers: readonly Subscribed[], firstArrival: ReadonlyMap<string, ReadonlyMap<string, number>>): Deliveries {
  const d: Deliveries = { expected: 0, delivered: 0, lost: 0, lostByOrder: [], notLogged: 0, snapshotMismatches: 0, unconfirmedDelivered: 0, lastArrival: undefined };
  const owedIds = new Set<string>();
  for (const o of owed) {
    const subscriptionIds = subscribers.filter((s) => s.events.includes(o.type)).map((s) => s.subscriptionId);
    if (!subscriptionIds.length) continue;
    if (o.eventId) owedIds.add(o.eventId);
    if (!o.snapshot) d.notLogged++;
    else if (subscriptionIds.some((s) => !o.snapshot!.includes(s))) d.snapshotMismatches++;
    const missing: string[] = [];
    for (const s of subscriptionIds) {
      d.expected++;
      const t = o.eventId ? firstArrival.get(s)?.get(o.eventId) : undefined;
      if (t === undefined) {
        missing.push(s);
        continue;
      }
      d.delivered++;
      d.lastArrival = Math.max(d.lastArrival ?? t, t);
    }
    d.lost += missing.length;
    if (missing.length) d.lostByOrder.push({ orderId: o.orderId, eventId: o.eventId, subscriptionIds: missing });
  }
  for (const [s, events] of firstArrival) if (subscribers.some((x) => x.subscriptionId === s)) for (const e of events.keys()) if (!owedIds.has(e)) d.unconfirmedDelivered++;
  return d;
}

export interface Refusals {
  total: number;
  byReason: Record<string, number>;
  /** Per fault (its description), the refusals sent while it was down or within `graceMs` of its recovery. */
  byFault: Record<string, number>;
  outsideFaults: number;
}

/** Counts the refused sends by reason and attributes each to the fault it happened under, if any. */
export function countRefusals(load: Pick<LoadResult, 'sends'>, faults: readonly FaultRecord[], graceMs = 5000): Refusals {
  const r: Refusals = { total: 0, byReason: {}, byFault: {}, outsideFaults: 0 };
  for (const f of faults) r.byFault[describeFault(f)] = 0;
  for (const s of load.sends) {
    if (!s.refused) continue;
    r.total++;
    r.byReason[s.refused] = (r.byReason[s.refused] ?? 0) + 1;
    const f = faults.find((x) => s.sentAt >= x.injectedAt && s.sentAt <= (x.recoveredAt ?? x.injectedAt + x.downS * 1000) + graceMs);
    if (f) r.byFault[describeFault(f)]! += 1;
    else r.outsideFaults++;
  }
  return r;
}

/** One slice of the load: what was sent in it and what became of it. */
export interface Slice {
  /** Seconds from the load's start to the slice's start. */
  fromS: number;
  sent: number;
  accepted: number;
  refused: number;
  /** Median and largest latency of the accepted ones, ms. */
  p50Ms: number | undefined;
  maxMs: number | undefined;
}

/** The load in `sliceS`-second slices, to see when refusals and slow answers happened. */
export function timeline(load: Pick<LoadResult, 'sends' | 'startedAt'>, sliceS: number): Slice[] {
  const slices: Array<{ sent: number; refused: number; latencies: number[] }> = [];
  for (const s of load.sends) {
    const i = Math.max(0, Math.floor((s.sentAt - load.startedAt) / 1000 / sliceS));
    for (let k = slices.length; k <= i; k++) slices.push({ sent: 0, refused: 0, latencies: [] });
    const slice = slices[i]!;
    slice.sent++;
    if (s.refused) slice.refused++;
    else slice.latencies.push(s.latencyMs);
  }
  return slices.map((x, i) => {
    const sorted = x.latencies.sort((a, b) => a - b);
    return { fromS: i * sliceS, sent: x.sent, accepted: sorted.length, refused: x.refused, p50Ms: sorted[Math.ceil(sorted.length / 2) - 1], maxMs: sorted.at(-1) };
  });
}

export interface LoadHeld {
  askedRate: number;
  /** Sends per second over the load window. */
  sentRate: number;
  /** Accepted orders per second over the load window. */
  acceptedRate: number;
  held: boolean;
}

/** Held when the generator sent (within 5 %) what was asked and skipped nothing. */
export function loadHeld(load: LoadResult, askedRate: number, accepted: number): LoadHeld {
  const windowS = Math.max(1e-3, (load.endedAt - load.startedAt) / 1000 + 1 / askedRate);
  const sentRate = load.sends.length / windowS;
  const round1 = (v: number) => Math.round(v * 10) / 10;
  return { askedRate, sentRate: round1(sentRate), acceptedRate: round1(accepted / windowS), held: load.skipped === 0 && sentRate >= askedRate * 0.95 };
}

/** Why the run fails (empty: it passed). */
export function verdict(x: { deliveries: Deliveries; load: LoadHeld; faults: readonly FaultRecord[]; badSignatures: number; drained: boolean; minAccepted: number; outOfOrderPairs?: number }): string[] {
  const reasons: string[] = [];
  if (x.deliveries.lost > 0) reasons.push(`${x.deliveries.lost} deliveries lost (events of accepted orders that did not reach every subscriber of their type${x.drained ? '' : ' within the drain window'})`);
  if (x.outOfOrderPairs) reasons.push(`${x.outOfOrderPairs} pairs of one key's events reached the ordered subscription out of emission order`);
  if (!x.load.held) reasons.push(`the load was not held: ${x.load.sentRate}/s sent of ${x.load.askedRate}/s asked (the load generator fell behind)`);
  else if (x.load.acceptedRate < x.load.askedRate * x.minAccepted) {
    reasons.push(`the service accepted only ${x.load.acceptedRate}/s of ${x.load.askedRate}/s asked (under --min-accepted ${x.minAccepted}): the load was not held`);
  }
  for (const f of x.faults) if (f.error) reasons.push(`${describeFault(f)}: did not recover (${f.error})`);
  if (x.badSignatures > 0) reasons.push(`${x.badSignatures} signatures did not verify`);
  return reasons;
}
