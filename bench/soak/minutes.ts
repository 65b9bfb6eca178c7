/**
 * The soak's arithmetic, pure so it is unit-tested: raw samples (sends, arrivals, probes,
 * per-minute ticks) into per-minute rows; lost and duplicate deliveries; the threshold verdicts.
 */
import type { ArrivalRecord } from '../lib/receiver-protocol';
import { percentile } from '../lib/stats';
import type { OrderSend } from '../lib/load';

/** The list endpoints probed, by short name. */
export const probeNames = ['attempts', 'events', 'orders', 'subscriptions', 'alerts'] as const;
export type ProbeName = (typeof probeNames)[number];

export interface ProbeSample {
  name: ProbeName;
  /** Epoch ms when it was sent. */
  at: number;
  /** The timeout's value when it timed out. */
  ms: number;
  status: number;
  timedOut: boolean;
}

/** Taken at the end of each minute: sizes, CPU-seconds by process since the start, the load average. */
export interface Tick {
  at: number;
  /** How long the three counts took, ms. */
  countMs: number;
  docs: Record<string, number>;
  cpuSeconds: Record<string, number>;
  loadAverage1: number;
}

export interface P50P99 {
  n: number;
  p50: number;
  p99: number;
}

export interface MinuteRow {
  minute: number;
  sent: number;
  accepted: number;
  shed: number;
  timeouts: number;
  otherErrors: number;
  notSent: number;
  orderMs: P50P99;
  /** Deliveries that arrived in the minute (first receipt of a webhook-id at a subscription). */
  deliveries: number;
  /** Their order POST start → the receiver's first byte. */
  deliveryMs: P50P99;
  probes: Record<ProbeName, P50P99 & { timeouts: number }>;
  docs: Record<string, number>;
  /**
   * Attempts and events deleted in the minute (retention): their count before, plus what the minute
   * wrote (an attempt per delivery, an event per accepted order), minus their count after.
   */
  removed: number | undefined;
  /** CPU-ms per delivery of the minute, by process and in all. */
  cpuMsPerDelivery: Record<string, number>;
  loadAverage1: number | undefined;
}

export interface SoakSamples {
  /** Epoch ms of the load's start: minute 1 starts here. */
  startedAt: number;
  sends: readonly OrderSend[];
  notSentAt: readonly number[];
  arrivals: readonly ArrivalRecord[];
  probes: readonly ProbeSample[];
  /** tick[0] at the start, then one per minute. */
  ticks: readonly Tick[];
}

const round = (v: number) => Math.round(v * 10) / 10;

/** p50 and p99 (nearest rank) of `values`, NaN when empty. */
export function p50p99(values: number[]): P50P99 {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: round(percentile(sorted, 0.5)), p99: round(percentile(sorted, 0.99)) };
}

/** Minute (from 1) of epoch ms `t` after `start`. */
export const minuteOf = (start: number, t: number) => Math.max(1, Math.floor((t - start) / 60_000) + 1);

/** Per minute from the start: the load, the deliveries and their latency, the probes, sizes and CPU. */
export function minuteRows(s: SoakSamples): MinuteRow[] {
  const sentAt = new Map<number, number>();
  for (const x of s.sends) if (x.orderId !== undefined) sentAt.set(x.orderId, x.sentAt);
  // A loop, not Math.max(...): spreading 100k+ arrivals would overflow the call stack.
  let last = s.startedAt;
  for (const t of [...s.sends.map((x) => x.sentAt), ...s.probes.map((p) => p.at), ...s.arrivals.map((a) => a.t)]) last = Math.max(last, t);
  const count = Math.max(minuteOf(s.startedAt, last), s.ticks.length - 1);
  const rows: MinuteRow[] = [];
  for (let m = 1; m <= count; m++) {
    const inMinute = (t: number) => minuteOf(s.startedAt, t) === m;
    const sends = s.sends.filter((x) => inMinute(x.sentAt));
    const arrivals = s.arrivals.filter((a) => inMinute(a.t));
    const latencies = arrivals.flatMap((a) => {
      const t0 = a.orderId === undefined ? undefined : sentAt.get(a.orderId);
      return t0 === undefined ? [] : [a.t - t0];
    });
    const probes = Object.fromEntries(
      probeNames.map((name) => {
        const mine = s.probes.filter((p) => p.name === name && inMinute(p.at));
        return [name, { ...p50p99(mine.map((p) => p.ms)), timeouts: mine.filter((p) => p.timedOut).length }];
      }),
    ) as MinuteRow['probes'];
    const before = s.ticks[m - 1];
    const after = s.ticks[m];
    const cpuMsPerDelivery: Record<string, number> = {};
    const accepted = sends.filter((x) => x.orderId !== undefined).length;
    const logged = (t: Tick | undefined) => (t ? (t.docs.attempts ?? Number.NaN) + (t.docs.events ?? Number.NaN) : Number.NaN);
    const removed = logged(before) + arrivals.length + accepted - logged(after);
    if (before && after && arrivals.length) {
      let all = 0;
      for (const [role, v] of Object.entries(after.cpuSeconds)) {
        const ms = (v - (before.cpuSeconds[role] ?? 0)) * 1000;
        all += ms;
        cpuMsPerDelivery[role] = round(ms / arrivals.length);
      }
      cpuMsPerDelivery.all = round(all / arrivals.length);
    }
    rows.push({
      minute: m,
      sent: sends.length,
      accepted,
      shed: sends.filter((x) => x.refused === 'HTTP 503').length,
      timeouts: sends.filter((x) => x.refused === 'timeout').length,
      otherErrors: sends.filter((x) => x.refused !== undefined && x.refused !== 'HTTP 503' && x.refused !== 'timeout').length,
      notSent: s.notSentAt.filter(inMinute).length,
      orderMs: p50p99(sends.map((x) => x.latencyMs)),
      deliveries: arrivals.length,
      deliveryMs: p50p99(latencies),
      probes,
      docs: after?.docs ?? {},
      removed: Number.isFinite(removed) ? removed : undefined,
      cpuMsPerDelivery,
      loadAverage1: after?.loadAverage1,
    });
  }
  return rows;
}

export interface Accounting {
  /** Accepted orders × subscriptions. */
  expected: number;
  delivered: number;
  lost: number;
  /** Receipts beyond the first per webhook-id and subscription, plus extra webhook-ids per order and subscription. */
  duplicates: number;
  /** Epoch ms of the last owed delivery. */
  lastArrival: number | undefined;
}

/** Every accepted order owes one delivery per subscription tag; what arrived, what did not, what came twice. */
export function account(sends: readonly OrderSend[], tags: readonly string[], arrivals: readonly ArrivalRecord[]): Accounting {
  const got = new Map<string, { events: number; t: number }>();
  let duplicates = 0;
  for (const a of arrivals) {
    duplicates += a.n - 1;
    if (a.orderId === undefined) continue;
    const k = `${a.orderId}|${a.tag}`;
    const seen = got.get(k);
    if (seen) {
      duplicates++;
      seen.t = Math.min(seen.t, a.t);
    } else got.set(k, { events: 1, t: a.t });
  }
  const acc: Accounting = { expected: 0, delivered: 0, lost: 0, duplicates, lastArrival: undefined };
  for (const s of sends) {
    if (s.orderId === undefined) continue;
    for (const tag of tags) {
      acc.expected++;
      const hit = got.get(`${s.orderId}|${tag}`);
      if (!hit) acc.lost++;
      else {
        acc.delivered++;
        acc.lastArrival = Math.max(acc.lastArrival ?? hit.t, hit.t);
      }
    }
  }
  return acc;
}

export interface Thresholds {
  maxListP99Ms?: number | undefined;
  maxDeliveryP99Ms?: number | undefined;
  minAccepted?: number | undefined;
  maxDrift?: number | undefined;
}

/** One checked threshold (or the lost count, always checked). */
export interface Verdict {
  check: string;
  pass: boolean;
  detail: string;
}

/** Last row with samples ÷ first row with samples, for a p99 read from each row. */
export function drift(rows: readonly MinuteRow[], p99: (r: MinuteRow) => P50P99): number | undefined {
  const withData = rows.filter((r) => p99(r).n > 0);
  const first = withData[0];
  const last = withData[withData.length - 1];
  if (!first || !last || withData.length < 2 || !(p99(first).p99 > 0)) return undefined;
  return Math.round((p99(last).p99 / p99(first).p99) * 100) / 100;
}

/** Lost deliveries and every threshold that was set, each with PASS or FAIL and why. */
export function verdicts(rows: readonly MinuteRow[], acc: Accounting, due: number, t: Thresholds): Verdict[] {
  const out: Verdict[] = [{ check: 'no delivery lost', pass: acc.lost === 0, detail: `${acc.lost} of ${acc.expected} lost` }];
  const worst = (pick: (r: MinuteRow) => P50P99) => rows.reduce<{ v: number; m: number } | undefined>((w, r) => (pick(r).n && (!w || pick(r).p99 > w.v) ? { v: pick(r).p99, m: r.minute } : w), undefined);
  if (t.maxListP99Ms !== undefined) {
    for (const name of probeNames) {
      const w = worst((r) => r.probes[name]);
      out.push({ check: `${name} list p99 ≤ ${t.maxListP99Ms} ms`, pass: !!w && w.v <= t.maxListP99Ms, detail: w ? `worst ${w.v} ms in minute ${w.m}` : 'no probe answered' });
    }
  }
  if (t.maxDeliveryP99Ms !== undefined) {
    const w = worst((r) => r.deliveryMs);
    out.push({ check: `delivery p99 ≤ ${t.maxDeliveryP99Ms} ms`, pass: !!w && w.v <= t.maxDeliveryP99Ms, detail: w ? `worst ${w.v} ms in minute ${w.m}` : 'no delivery' });
  }
  if (t.minAccepted !== undefined) {
    const accepted = rows.reduce((s, r) => s + r.accepted, 0);
    const ratio = due ? accepted / due : 0;
    out.push({ check: `accepted ≥ ${t.minAccepted} of due`, pass: ratio >= t.minAccepted, detail: `${accepted} of ${due} (${ratio.toFixed(4)})` });
  }
  if (t.maxDrift !== undefined) {
    const max = t.maxDrift;
    const series: Array<[string, (r: MinuteRow) => P50P99]> = [['delivery', (r) => r.deliveryMs], ...probeNames.map((n): [string, (r: MinuteRow) => P50P99] => [n, (r) => r.probes[n]])];
    for (const [name, pick] of series) {
      const d = drift(rows, pick);
      out.push({ check: `${name} p99 drift ≤ ${max}×`, pass: d === undefined || d <= max, detail: d === undefined ? 'fewer than two minutes with samples' : `last ÷ first minute ${d}×` });
    }
  }
  return out;
}
