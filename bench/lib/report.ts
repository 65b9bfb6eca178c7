/** The report: one row per measure, the targets, and the ratios; printed and kept in the results. */
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import type { HistoryBreakdown } from './history';
import { loadAverage } from './proc';
import type { BenchResults } from './results';
import { r3 } from './context';
import type { Summary } from './stats';

type Row = [string, string, string];

function table(rows: Row[]): string {
  const w = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: Row) => `  ${r[0].padEnd(w[0]!)}  ${r[1].padStart(w[1]!)}  ${r[2]}`;
  return rows.map(line).join('\n');
}

const fmt = (v: number | undefined, digits = 1) => (v === undefined || Number.isNaN(v) ? '–' : v.toFixed(digits));
const hops = (h: HistoryBreakdown) =>
  `${h.workflowTasksPerWorkflow} workflow tasks each; ` +
  Object.entries(h.gaps)
    .slice(0, 4)
    .map(([k, v]) => `${k}: p50 ${fmt(v.p50)} ms (${fmt(v.sharePercent, 0)}%)`)
    .join('; ');
const lat = (s: Summary) => `p50 ${fmt(s.p50)}  p90 ${fmt(s.p90)}  p99 ${fmt(s.p99)}  max ${fmt(s.max)} ms (n=${s.count})`;

/** The commit measured, and whether the tree had local changes (others edit concurrently). */
export function gitDescribe(repoRoot: string): { commit?: string; dirtyFiles?: number } {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: repoRoot, encoding: 'utf8' }).split('\n').filter(Boolean).length;
    return { commit, dirtyFiles: dirty };
  } catch {
    return {};
  }
}

/** Adds the targets and ratios to `results`, and prints the table. */
export function report(results: BenchResults, run: { repoRoot?: string; dbDescription: string; externalTemporal: string | undefined; outFile: string }): void {
  const { ingestNoSubscriptions: ing0, ingestWithSubscriptions: ingM, throughput: tp, fixedRate: fr, idle, baseline: base, floor: fl } = results;
  const m50 = results.fanOuts?.['50'];

  const targets = [
    // The 1.0 targets (issue 8) for M=5; M=50 aims at 500 deliveries/s.
    ...(tp ? [{ target: 'throughput ≥ 150 deliveries/s', value: tp.deliveriesPerSecond, pass: tp.deliveriesPerSecond >= 150, unit: 'deliveries/s' }] : []),
    ...(tp ? [{ target: 'CPU per delivery ≤ 10 ms', value: tp.serviceCpuMsPerDelivery, pass: tp.serviceCpuMsPerDelivery <= 10, unit: 'ms' }] : []),
    ...(idle ? [{ target: 'idle p50 ≤ 60 ms', value: idle.latencyFromPostMs.p50, pass: idle.latencyFromPostMs.p50 <= 60, unit: 'ms' }] : []),
    ...(ing0 ? [{ target: 'ingest with 0 subscriptions ≥ 200 orders/s', value: ing0.requestsPerSecond, pass: ing0.requestsPerSecond >= 200, unit: 'orders/s' }] : []),
    ...(ing0 ? [{ target: 'API CPU ≤ 4 ms per order', value: ing0.apiCpuMsPerRequest, pass: ing0.apiCpuMsPerRequest <= 4, unit: 'ms' }] : []),
    ...(ingM ? [{ target: 'ingest with M subscriptions ≥ 80 orders/s', value: ingM.requestsPerSecond, pass: ingM.requestsPerSecond >= 80, unit: 'orders/s' }] : []),
    ...(tp && fl ? [{ target: 'throughput ≥ 0.6 × the floor', value: tp.deliveriesPerSecond / fl.event.deliveriesPerSecond, pass: tp.deliveriesPerSecond >= 0.6 * fl.event.deliveriesPerSecond, unit: '× floor' }] : []),
    ...(m50 ? [{ target: 'throughput with 50 subscriptions ≥ 500 deliveries/s', value: m50.deliveriesPerSecond, pass: m50.deliveriesPerSecond >= 500, unit: 'deliveries/s' }] : []),
    ...(fr ? [{ target: `p99 ≤ 1 s at ${results.options.rate} deliveries/s`, value: fr.latencyFromPostMs.p99, pass: fr.latencyFromPostMs.p99 <= 1000, unit: 'ms' }] : []),
  ];
  results.targets = targets;
  const ratios = {
    ...(tp && base ? { throughputServiceOverBaseline: r3(tp.deliveriesPerSecond / base.deliveriesPerSecond) } : {}),
    ...(idle && base ? { idleP50ServiceOverBaselineSingle: r3(idle.latencyFromPostMs.p50 / base.singleDeliveryLatencyMs.p50) } : {}),
    ...(tp && base ? { cpuPerDeliveryServiceOverBaseline: r3(tp.serviceCpuMsPerDelivery / base.benchCpuMsPerDelivery) } : {}),
    ...(tp && fl ? { throughputServiceOverFloor: r3(tp.deliveriesPerSecond / fl.event.deliveriesPerSecond) } : {}),
  };
  results.ratios = ratios;

  const rows: Row[] = [['Scenario', 'Value', 'Detail']];
  if (ing0) {
    rows.push(['a. ingest, 0 subs', `${fmt(ing0.requestsPerSecond)} req/s`, `${ing0.ok}/${ing0.orders} orders, C=${results.options.concurrency}; latency ${lat(ing0.latencyMs)}; API CPU ${fmt(ing0.apiCpuMsPerRequest, 2)} ms/req; HTTP 500 retried ${ing0.http500Retried}`]);
  }
  if (ingM) {
    const d = ingM.deliveries as { deliveriesPerSecond: number } | undefined;
    rows.push(['a. ingest, M subs', `${fmt(ingM.requestsPerSecond)} req/s`, `${ingM.ok}/${ingM.orders} orders × ${results.options.subs} subs; latency ${lat(ingM.latencyMs)}; HTTP 500 retried ${ingM.http500Retried}; deliveries meanwhile ${fmt(d?.deliveriesPerSecond)}/s`]);
  }
  if (tp) {
    rows.push(['b. throughput', `${fmt(tp.deliveriesPerSecond)} del/s`, `${tp.events} events × ${tp.subscriptions} subs = ${tp.emitted}; delivered ${tp.delivered}, failed ${tp.failed}, dups ${tp.duplicates}, retried attempts ${tp.retriedAttempts}; first event → last delivery ${fmt(tp.firstEventToLastDeliverySeconds, 2)} s`]);
    rows.push(['b. latency in throughput run', `p50 ${fmt(tp.latencyFromPostMs.p50, 0)} ms`, lat(tp.latencyFromPostMs)]);
    rows.push(['b. event workflow time', `p50 ${fmt(tp.temporalHops.delivery.total.p50, 0)} ms`, hops(tp.temporalHops.delivery)]);
  }
  if (fr) {
    rows.push(['c. latency at fixed rate', `p99 ${fmt(fr.latencyFromPostMs.p99, 0)} ms`, `${fmt(fr.offeredDeliveriesPerSecond)} del/s offered (${fmt(fr.achievedOfferedDeliveriesPerSecond)} sent, ${fmt(fr.completedDeliveriesPerSecond)} completed) for ${results.options.duration}s; ${lat(fr.latencyFromPostMs)}; HTTP 500 retried ${fr.http500Retried}, orders rejected after 60 s of retries ${fr.ordersRejected}`]);
    rows.push(['c. event workflow time', `p50 ${fmt(fr.temporalHops.delivery.total.p50, 0)} ms`, hops(fr.temporalHops.delivery)]);
    rows.push(['c. fixed-rate breakdown (p50)', '', `${Object.entries(fr.breakdownMs).map(([k, v]) => `${k} ${fmt(v.p50)}`).join(', ')} ms`]);
  }
  if (idle) {
    rows.push(['c. idle latency', `p50 ${fmt(idle.latencyFromPostMs.p50, 0)} ms`, `${idle.events} events 1 s apart × ${idle.subscriptions} subs; ${lat(idle.latencyFromPostMs)}; POST ${lat(idle.postLatencyMs)}`]);
    rows.push(['c. idle breakdown (p50)', '', `${Object.entries(idle.breakdownMs).map(([k, v]) => `${k} ${fmt(v.p50)}`).join(', ')} ms`]);
  }
  if (tp) {
    rows.push(['d. CPU per delivery', `${fmt(tp.serviceCpuMsPerDelivery, 2)} ms`, `worker+API+Temporal+DB over the throughput run: ${Object.entries(tp.cpuMsPerDeliveryByRole).map(([k, v]) => `${k} ${fmt(v, 2)}`).join(', ')} ms; other processes on the machine ${fmt(tp.otherProcessesCpuSeconds)} CPU-s of ${fmt(tp.cpu.machineTotalSeconds)}`]);
  }
  if (base) {
    rows.push(['e. baseline throughput', `${fmt(base.deliveriesPerSecond)} del/s`, `in-process sign+POST, concurrency ${base.concurrency}; latency ${lat(base.latencyMs)}; ${fmt(base.benchCpuMsPerDelivery, 3)} CPU-ms/delivery`]);
    rows.push(['e. baseline single delivery', `p50 ${fmt(base.singleDeliveryLatencyMs.p50, 2)} ms`, lat(base.singleDeliveryLatencyMs)]);
  }
  const bg = results.background;
  for (const [m, f] of Object.entries(results.fanOuts ?? {})) {
    rows.push([`b. throughput, ${m} subs`, `${fmt(f.deliveriesPerSecond)} del/s`, `${f.events} events × ${f.subscriptions} subs; delivered ${f.delivered}, failed ${f.failed}, dups ${f.duplicates}; ${fmt(f.serviceCpuMsPerDelivery, 2)} CPU-ms/delivery${fl?.fanOuts[m] ? `; floor ${fmt(fl.fanOuts[m].deliveriesPerSecond)} del/s` : ''}`]);
  }
  const slow = results.slowReceiver;
  if (slow) {
    rows.push(['b. slow receiver', `${fmt(slow.ratio, 2)}×`, `healthy ${slow.healthySubscriptions} subs: ${fmt(slow.without.deliveriesPerSecond)} del/s alone, ${fmt(slow.withSlow.deliveriesPerSecond)} del/s beside one that never answers; p99 ${fmt(slow.without.latencyFromPostMs.p99, 0)} → ${fmt(slow.withSlow.latencyFromPostMs.p99, 0)} ms`]);
  }
  const out = results.outage;
  if (out) {
    rows.push(['b. drain after an outage', `${fmt(out.drainSeconds)} s`, `receiver 503 for ${out.outageSeconds} s while ${out.events} events arrived; delivered ${out.delivered}, failed ${out.failed}, dups ${out.duplicates}; ${out.failedAttemptsDuringOutage} attempts failed meanwhile`]);
  }
  if (fl) {
    rows.push(['f. Temporal floor', `${fmt(fl.event.deliveriesPerSecond)} del/s`, `the 1.0 shape alone, ${fl.event.events} × ${fl.event.subs}: ${fmt(fl.event.cpuMsPerDelivery, 2)} CPU-ms/delivery; pre-1.0 shape (child per subscription) ${fmt(fl.children.deliveriesPerSecond)} del/s, ${fmt(fl.children.cpuMsPerDelivery, 2)} CPU-ms${tp ? `; service/floor ${fmt(tp.deliveriesPerSecond / fl.event.deliveriesPerSecond, 2)}×` : ''}`]);
  }
  if (bg) {
    rows.push(['background CPU, no load', `${fmt(['worker', 'api', 'temporal', 'db'].reduce((a, k) => a + (bg.cpuMsPerSecondByRole[k] ?? 0), 0), 0)} ms/s`, `${Object.entries(bg.cpuMsPerSecondByRole).map(([k, v]) => `${k} ${fmt(v, 0)}`).join(', ')} CPU-ms per second, with ${bg.orders} orders and ${bg.events} events stored; relay query ${fmt(bg.dbProbeMs.relayNotes)} ms, order by id ${fmt(bg.dbProbeMs.orderById)} ms, event by id ${fmt(bg.dbProbeMs.eventById)} ms, update by id ${fmt(bg.dbProbeMs.eventUpdateById)} ms`]);
  }
  if (Object.keys(ratios).length) {
    rows.push([
      'e. ratios service/baseline',
      ratios.throughputServiceOverBaseline !== undefined ? `${fmt(ratios.throughputServiceOverBaseline, 4)}×` : '',
      [
        ratios.throughputServiceOverBaseline !== undefined ? `throughput ${fmt(ratios.throughputServiceOverBaseline, 4)}×` : '',
        ratios.idleP50ServiceOverBaselineSingle !== undefined ? `idle p50 ${fmt(ratios.idleP50ServiceOverBaselineSingle, 0)}×` : '',
        ratios.cpuPerDeliveryServiceOverBaseline !== undefined ? `CPU/delivery ${fmt(ratios.cpuPerDeliveryServiceOverBaseline, 0)}×` : '',
      ].filter(Boolean).join(', '),
    ]);
  }
  process.stdout.write(
    `\nWebhook service bench — ${new Date().toISOString()} — ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, commit ${results.git.commit?.slice(0, 7) ?? '?'}${results.git.dirtyFiles ? ` + ${results.git.dirtyFiles} changed files` : ''}\n` +
      `Stack: ${run.dbDescription.replace(/, data in .*/, '')}; ${run.externalTemporal ? `external Temporal at ${run.externalTemporal} (TEMPORAL_ADDRESS; its CPU is not counted)` : `Temporal dev server SQLite fastSqlite=${results.options.fastSqlite}`}; LOG_LEVEL=${results.options.logLevel}, RELAY_INTERVAL=${results.options.relayInterval}\n` +
      `Load average at start ${results.machine.loadAverageAtStart.join(' ')}, at end ${loadAverage().join(' ')}\n\n` +
      `${table(rows)}\n\nTargets (informational):\n` +
      targets.map((t) => `  ${t.pass ? 'PASS' : 'MISS'}  ${t.target}: ${fmt(t.value)} ${t.unit}`).join('\n') +
      `\n\nJSON: ${run.outFile}\n`,
  );
}
