/** The 1.0 targets (issue 8) and the ratios against the baseline and the floor, from the results. */
import type { LedgerEntry } from './context';
import { r3 } from './context';
import type { BenchResults, Target } from './results';

/** Deliveries neither delivered nor failed, over every checked run. */
export function unaccounted(ledger: readonly LedgerEntry[]): number {
  return ledger.reduce((sum, e) => sum + Math.abs(e.expected - e.delivered - e.failed), 0);
}

/** Each target whose scenario ran, with its value and pass or miss. */
export function targets(r: BenchResults): Target[] {
  const out: Target[] = [];
  const add = (target: string, value: number | undefined, unit: string, pass: (v: number) => boolean) => {
    if (value !== undefined && !Number.isNaN(value)) out.push({ target, value: r3(value), unit, pass: pass(value) });
  };
  const { throughput: tp, floor: fl, idle, fixedRate: fr, ingestNoSubscriptions: ing0, ingestWithSubscriptions: ingM } = r;
  const m = r.options.subs;
  add(`throughput at M=${m} ≥ 150 deliveries/s`, tp?.deliveriesPerSecond, 'deliveries/s', (v) => v >= 150);
  add(`throughput at M=${m} ≥ 0.6 × the floor in this run`, tp && fl ? tp.deliveriesPerSecond / fl.event.deliveriesPerSecond : undefined, '× floor', (v) => v >= 0.6);
  add('CPU per delivery (Temporal + worker + DB + API) ≤ 10 ms', tp?.serviceCpuMsPerDelivery, 'ms', (v) => v <= 10);
  add(`idle p50, order POST → receiver, M=${m} ≤ 60 ms`, idle?.latencyFromPostMs.p50, 'ms', (v) => v <= 60);
  add(`p99 ≤ 1 s at ${r.options.rate} deliveries/s offered`, fr?.latencyFromPostMs.p99, 'ms', (v) => v <= 1000);
  add('ingest with 0 subscriptions ≥ 200 orders/s', ing0?.requestsPerSecond, 'orders/s', (v) => v >= 200);
  add(`ingest with ${m} subscriptions ≥ 80 orders/s`, ingM?.requestsPerSecond, 'orders/s', (v) => v >= 80);
  add('API CPU per order, 0 subscriptions ≤ 4 ms', ing0?.apiCpuMsPerRequest, 'ms', (v) => v <= 4);
  add(`API CPU per order, ${m} subscriptions ≤ 4 ms`, ingM?.apiCpuMsPerRequest, 'ms', (v) => v <= 4);
  add('throughput at M=50 ≥ 500 deliveries/s', r.fanOuts?.['50']?.deliveriesPerSecond, 'deliveries/s', (v) => v >= 500);
  // Within noise: the larger of 10 % and the spread the runs without metrics showed among themselves.
  const mc = r.metricsCost;
  const noise = (spread: number | undefined) => Math.max(0.1, spread ?? 0);
  add('metrics on: throughput within noise of metrics off', mc?.throughputRatio, '× off', (v) => v >= 1 - noise(mc?.noiseOffThroughput));
  add('metrics on: CPU per delivery within noise of metrics off', mc?.cpuPerDeliveryRatio, '× off', (v) => v <= 1 + noise(mc?.noiseOffCpu));
  if (r.accounting?.length) add('zero deliveries unaccounted', unaccounted(r.accounting), 'deliveries', (v) => v === 0);
  return out;
}

/** Service over baseline and service over floor, each where both ran. */
export function ratios(r: BenchResults): Record<string, number> {
  const out: Record<string, number> = {};
  const set = (name: string, a: number | undefined, b: number | undefined) => {
    if (a !== undefined && b !== undefined && b > 0) out[name] = r3(a / b);
  };
  const { throughput: tp, baseline: base, idle, floor: fl } = r;
  set('throughputServiceOverBaseline', tp?.deliveriesPerSecond, base?.deliveriesPerSecond);
  set('idleP50ServiceOverBaselineSingle', idle?.latencyFromPostMs.p50, base?.singleDeliveryLatencyMs.p50);
  set('cpuPerDeliveryServiceOverBaseline', tp?.serviceCpuMsPerDelivery, base?.benchCpuMsPerDelivery);
  set('throughputServiceOverFloor', tp?.deliveriesPerSecond, fl?.event.deliveriesPerSecond);
  set('cpuPerDeliveryServiceOverFloor', tp?.serviceCpuMsPerDelivery, fl?.event.cpuMsPerDelivery);
  for (const [m, f] of Object.entries(r.fanOuts ?? {})) set(`throughputServiceOverFloorM${m}`, f.deliveriesPerSecond, fl?.fanOuts[m]?.deliveriesPerSecond);
  return out;
}
