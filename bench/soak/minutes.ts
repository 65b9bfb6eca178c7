/**
 * The soak's arithmetic and printout, pure so it is unit-tested: raw samples (sends, arrivals,
 * probes, per-minute ticks) into per-minute rows; lost and duplicate deliveries; the verdicts.
 */
import type { OrderSend } from '../../stack/harness/load';
import type { ArrivalRecord } from '../../stack/harness/receiver-protocol';
import { percentile } from '../../stack/harness/stats';
import type { SoakOptions } from './options';

/** The list endpoints probed, by short name. */
export const probeNames = ['attempts', 'events', 'orders', 'subscriptions', 'alerts'] as const;
export type ProbeName = (typeof probeNames)[number];

/** One list GET: sent at epoch ms `at`, answered in `ms` (the timeout's value when it timed out). */
export type ProbeSample = { name: ProbeName; at: number; ms: number; status: number; timedOut: boolean };

/** Taken at the start and the end of each minute: sizes (counted in `countMs`), CPU-seconds by process so far, load average. */
export type Tick = { at: number; countMs: number; docs: Record<string, number>; cpuSeconds: Record<string, number>; loadAverage1: number };

/** Everything the soak sampled; minute 1 starts at `startedAt` (epoch ms), `ticks[m]` ends minute m. */
export interface SoakSamples {
  startedAt: number;
  sends: readonly OrderSend[];
  notSentAt: readonly number[];
  arrivals: readonly ArrivalRecord[];
  probes: readonly ProbeSample[];
  ticks: readonly Tick[];
  /** Retention runs: without it, `removed` is only the noise of minute boundaries, so it is left out. */
  retention: boolean;
}

const round = (v: number) => Math.round(v * 10) / 10;

/** p50 and p99 (nearest rank, to 0.1 ms) of `values`, NaN when empty. */
export function p50p99(values: number[]): { n: number; p50: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: round(percentile(sorted, 0.5)), p99: round(percentile(sorted, 0.99)) };
}
export type P50P99 = ReturnType<typeof p50p99>;

/** Minute (from 1) of epoch ms `t` after `start`. */
export const minuteOf = (start: number, t: number) => Math.max(1, Math.floor((t - start) / 60_000) + 1);

/** One minute of the table (see bench/README.md, "Reading the table"). */
export type MinuteRow = ReturnType<typeof minuteRows>[number];

/**
 * Per minute from the start: orders sent and what became of them, deliveries that arrived (first
 * receipt) and their latency from the order POST's start, the probes, sizes, CPU and load; and
 * `removed` (with retention): attempts and events before, plus what the minute wrote (an attempt
 * per delivery, an event per accepted order), minus after.
 */
export function minuteRows(s: SoakSamples) {
  const sentAt = new Map(s.sends.flatMap((x) => (x.orderId === undefined ? [] : [[x.orderId, x.sentAt] as const])));
  // A loop, not Math.max(...): spreading 100k+ arrivals would overflow the call stack.
  let last = s.startedAt;
  for (const t of [...s.sends.map((x) => x.sentAt), ...s.probes.map((p) => p.at), ...s.arrivals.map((a) => a.t)]) last = Math.max(last, t);
  const logged = (t: Tick | undefined) => (t ? (t.docs.attempts ?? NaN) + (t.docs.events ?? NaN) : NaN);
  return Array.from({ length: Math.max(minuteOf(s.startedAt, last), s.ticks.length - 1) }, (_, i) => {
    const minute = i + 1;
    const inMinute = (t: number) => minuteOf(s.startedAt, t) === minute;
    const sends = s.sends.filter((x) => inMinute(x.sentAt));
    const arrivals = s.arrivals.filter((a) => inMinute(a.t));
    const [before, after] = [s.ticks[i], s.ticks[minute]];
    const accepted = sends.filter((x) => x.orderId !== undefined).length;
    const removed = logged(before) + arrivals.length + accepted - logged(after);
    const cpuMsPerDelivery: Record<string, number> = {};
    if (before && after && arrivals.length) {
      const ms = Object.entries(after.cpuSeconds).map(([role, v]) => [role, (v - (before.cpuSeconds[role] ?? 0)) * 1000] as const);
      for (const [role, v] of [...ms, ['all', ms.reduce((sum, [, v]) => sum + v, 0)] as const]) cpuMsPerDelivery[role] = round(v / arrivals.length);
    }
    return {
      minute,
      sent: sends.length,
      accepted,
      shed: sends.filter((x) => x.refused === 'HTTP 503').length,
      timeouts: sends.filter((x) => x.refused === 'timeout').length,
      otherErrors: sends.filter((x) => x.refused !== undefined && x.refused !== 'HTTP 503' && x.refused !== 'timeout').length,
      notSent: s.notSentAt.filter(inMinute).length,
      orderMs: p50p99(sends.map((x) => x.latencyMs)),
      deliveries: arrivals.length,
      deliveryMs: p50p99(arrivals.flatMap((a) => (a.orderId !== undefined && sentAt.has(a.orderId) ? [a.t - sentAt.get(a.orderId)!] : []))),
      probes: Object.fromEntries(
        probeNames.map((name) => {
          const mine = s.probes.filter((p) => p.name === name && inMinute(p.at));
          return [name, { ...p50p99(mine.map((p) => p.ms)), timeouts: mine.filter((p) => p.timedOut).length }];
        }),
      ) as Record<ProbeName, P50P99 & { timeouts: number }>,
      docs: after?.docs ?? {},
      removed: s.retention && Number.isFinite(removed) ? removed : undefined,
      cpuMsPerDelivery,
      loadAverage1: after?.loadAverage1,
    };
  });
}

/** Accepted orders × subscriptions owed, delivered and lost; duplicates; the last owed arrival (epoch ms). */
export type Accounting = ReturnType<typeof account>;

/**
 * Every accepted order owes one delivery per subscription tag. Duplicates: receipts beyond the
 * first per webhook-id and subscription, plus extra webhook-ids per order and subscription.
 */
export function account(sends: readonly OrderSend[], tags: readonly string[], arrivals: readonly ArrivalRecord[]) {
  const got = new Map<string, number>();
  let duplicates = 0;
  for (const a of arrivals) {
    duplicates += a.n - 1;
    if (a.orderId === undefined) continue;
    const k = `${a.orderId}|${a.tag}`;
    if (got.has(k)) duplicates++;
    got.set(k, Math.min(got.get(k) ?? a.t, a.t));
  }
  const acc = { expected: 0, delivered: 0, lost: 0, duplicates, lastArrival: undefined as number | undefined };
  for (const s of sends.filter((x) => x.orderId !== undefined)) {
    for (const tag of tags) {
      const t = got.get(`${s.orderId}|${tag}`);
      acc.expected++;
      if (t === undefined) acc.lost++;
      else {
        acc.delivered++;
        acc.lastArrival = Math.max(acc.lastArrival ?? t, t);
      }
    }
  }
  return acc;
}

/** One checked threshold (or the lost count, always checked). */
export type Verdict = { check: string; pass: boolean; detail: string };

/** Lost deliveries and every threshold that was set, each with PASS or FAIL and why; drift is the last minute with samples ÷ the first. */
export function verdicts(rows: readonly MinuteRow[], acc: Accounting, due: number, t: Partial<Pick<SoakOptions, 'maxListP99Ms' | 'maxDeliveryP99Ms' | 'minAccepted' | 'maxDrift'>>): Verdict[] {
  const out: Verdict[] = [{ check: 'no delivery lost', pass: acc.lost === 0, detail: `${acc.lost} of ${acc.expected} lost` }];
  type Series = [string, (r: MinuteRow) => P50P99];
  const lists = probeNames.map((n): Series => [n, (r) => r.probes[n]]);
  const delivery: Series = ['delivery', (r) => r.deliveryMs];
  const ceiling = (check: string, max: number, pick: Series[1], none: string) => {
    const w = rows.reduce<MinuteRow | undefined>((w, r) => (pick(r).n && (!w || pick(r).p99 > pick(w).p99) ? r : w), undefined);
    out.push({ check, pass: !!w && pick(w).p99 <= max, detail: w ? `worst ${pick(w).p99} ms in minute ${w.minute}` : none });
  };
  if (t.maxListP99Ms !== undefined) for (const [name, pick] of lists) ceiling(`${name} list p99 ≤ ${t.maxListP99Ms} ms`, t.maxListP99Ms, pick, 'no probe answered');
  if (t.maxDeliveryP99Ms !== undefined) ceiling(`delivery p99 ≤ ${t.maxDeliveryP99Ms} ms`, t.maxDeliveryP99Ms, delivery[1], 'no delivery');
  if (t.minAccepted !== undefined) {
    const accepted = rows.reduce((s, r) => s + r.accepted, 0);
    const ratio = due ? accepted / due : 0;
    out.push({ check: `accepted ≥ ${t.minAccepted} of due`, pass: ratio >= t.minAccepted, detail: `${accepted} of ${due} (${ratio.toFixed(4)})` });
  }
  for (const [name, pick] of t.maxDrift === undefined ? [] : [delivery, ...lists]) {
    const withData = rows.filter((r) => pick(r).n > 0);
    const [first, last] = [withData[0], withData[withData.length - 1]];
    const d = first && last && withData.length > 1 && pick(first).p99 > 0 ? Math.round((pick(last).p99 / pick(first).p99) * 100) / 100 : undefined;
    out.push({ check: `${name} p99 drift ≤ ${t.maxDrift}×`, pass: d === undefined || d <= t.maxDrift!, detail: d === undefined ? 'fewer than two minutes with samples' : `last ÷ first minute ${d}×` });
  }
  return out;
}

/** Order latency before retention started (at epoch ms `startedAt`) and with it, and their ratio: what retention costs the load. */
export function retentionCost(sends: readonly OrderSend[], startedAt: number): string {
  const before = p50p99(sends.filter((x) => x.orderId !== undefined && x.sentAt < startedAt).map((x) => x.latencyMs));
  const after = p50p99(sends.filter((x) => x.orderId !== undefined && x.sentAt >= startedAt).map((x) => x.latencyMs));
  if (before.n === 0 || after.n === 0) return 'Order latency before and with retention: not enough orders on one side';
  return `Order p50/p99 before retention ${before.p50.toFixed(0)}/${before.p99.toFixed(0)} ms, with it ${after.p50.toFixed(0)}/${after.p99.toFixed(0)} ms: ${(after.p50 / before.p50).toFixed(2)}× / ${(after.p99 / before.p99).toFixed(2)}×`;
}

const f = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '–' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
const pp = (x: P50P99) => (x.n ? `${f(x.p50)}/${f(x.p99)}` : '–');
const p99 = (x: P50P99 & { timeouts: number }) => (x.n ? `${f(x.p99)}${x.timeouts ? ` (${x.timeouts} t/o)` : ''}` : '–');
const k = (v: number | undefined) => (v === undefined ? '–' : v >= 10_000 ? `${Math.round(v / 1000)}k` : String(v));

/** The table's header, printed before the first live row. */
export const tableHeader =
  '| min | sent/acc/shed | t/o, err, not sent | order p50/p99 ms | deliv | deliv p50/p99 ms | attempts p99 | events p99 | orders p99 | subs p99 | alerts p99 | docs att/evt/ord | removed | CPU-ms/deliv | load |\n' +
  '|---:|---|---|---|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|';

/** One minute as a markdown table row. */
export function tableRow(r: MinuteRow): string {
  const lists = probeNames.map((n) => p99(r.probes[n])).join(' | ');
  return `| ${r.minute} | ${r.sent}/${r.accepted}/${r.shed} | ${r.timeouts}, ${r.otherErrors}, ${r.notSent} | ${pp(r.orderMs)} | ${r.deliveries} | ${pp(r.deliveryMs)} | ${lists} | ${k(r.docs.attempts)}/${k(r.docs.events)}/${k(r.docs.orders)} | ${k(r.removed)} | ${f(r.cpuMsPerDelivery.all)} | ${f(r.loadAverage1)} |`;
}
