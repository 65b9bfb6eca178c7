/** The one results object of a bench run: filled scenario by scenario, checked against the 1.0 targets, printed, written as JSON. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname } from 'node:path';
import type { FloorResult } from '../floor/floor';
import { type LedgerEntry, r3 } from './context';
import type { CostOfRun } from './cost';
import type { BenchOptions, Scenario } from './options';
import { loadAverage } from '../../stack/harness/proc';
import type { background, retention } from './scenarios/background';
import type { baseline } from './scenarios/baseline';
import type { ingest } from './scenarios/ingest';
import type { metricsCost } from './scenarios/metrics-cost';
import type { fixedRate, outageDrain } from './scenarios/latency';
import type { fanOut, slowReceiver, throughput } from './scenarios/throughput';
import type { brokerThroughput } from './scenarios/broker';
import type { noisyNeighbour } from './scenarios/noisy';
import type { Summary } from '../../stack/harness/stats';

type Result<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

export interface BenchResults {
  date: string;
  machine: { cpus: number; model: string | undefined; memoryGiB: number; node: string; loadAverageAtStart: number[]; loadAverageAtEnd?: number[] };
  options: BenchOptions;
  git: { commit?: string; dirtyFiles?: number };
  stack?: Record<string, unknown>;
  ingestNoSubscriptions?: Result<typeof ingest>;
  ingestWithSubscriptions?: Result<typeof ingest>;
  baseline?: Result<typeof baseline>;
  /** Throughput at M subscriptions per event. */
  throughput?: Result<typeof throughput>;
  /** Latency at the offered rate. */
  fixedRate?: Result<typeof fixedRate>;
  idle?: Result<typeof fixedRate>;
  /** Throughput at the other fan-outs (1 and 50), by subscriptions per event. */
  fanOuts?: Record<string, Result<typeof fanOut>>;
  /** Throughput and CPU per delivery to one broker destination (a Redis stream), the broker's CPU apart. */
  broker?: Result<typeof brokerThroughput>;
  slowReceiver?: Result<typeof slowReceiver>;
  /** One owner's burst to a 2 s receiver beside another owner's 10 events/s: the quiet owner's latency with and without it. */
  noisy?: Result<typeof noisyNeighbour>;
  outage?: Result<typeof outageDrain>;
  background?: Result<typeof background>;
  /** One retention pass over old attempts: its duration, rate and CPU, order latency before and during it. */
  retention?: Result<typeof retention>;
  /** Throughput and CPU per delivery with metrics off and on, alternated. */
  metricsCost?: Result<typeof metricsCost>;
  /** The floor of the service's shape at the same N × M and at the other fan-outs, and of the pre-1.0 shape. */
  floor?: { event: FloorResult; children?: FloorResult; fanOuts: Record<string, FloorResult> };
  /** Every checked run: deliveries owed, delivered, failed, duplicated. */
  accounting?: LedgerEntry[];
  /** Each target of 1.0 whose scenario ran, and whether this run met it. */
  targets?: Array<{ target: string; value: number; unit: string; pass: boolean }>;
  ratios?: Record<string, number>;
  /** Why the run does not count, when it does not. */
  void?: string;
  /** The scenarios that finished, in order (a VOID run stops at the first that did not). */
  completed: Scenario[];
  serviceOutput?: unknown;
}

/** A results object with what is known before anything runs. */
export function newResults(opts: BenchOptions, git: BenchResults['git']): BenchResults {
  return {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      loadAverageAtStart: loadAverage(),
    },
    options: opts,
    git,
    completed: [],
  };
}

/** Deliveries neither delivered nor failed, over every checked run. */
function unaccounted(ledger: readonly LedgerEntry[]): number {
  return ledger.reduce((sum, e) => sum + Math.abs(e.expected - e.delivered - e.failed), 0);
}

/** Each target whose scenario ran, with its value and pass or miss. */
function targets(r: BenchResults): NonNullable<BenchResults['targets']> {
  const out: NonNullable<BenchResults['targets']> = [];
  const add = (target: string, value: number | undefined, unit: string, pass: (v: number) => boolean) => {
    if (value !== undefined && !Number.isNaN(value)) out.push({ target, value: r3(value), unit, pass: pass(value) });
  };
  const { throughput: tp, floor: fl, idle, fixedRate: fr, ingestNoSubscriptions: ing0, ingestWithSubscriptions: ingM } = r;
  const m = r.options.subs;
  add(`throughput at M=${m} ≥ 150 deliveries/s`, tp?.deliveriesPerSecond, 'deliveries/s', (v) => v >= 150);
  add(`throughput at M=${m} ≥ 0.6 × the floor in this run`, tp && fl ? tp.deliveriesPerSecond / fl.event.deliveriesPerSecond : undefined, '× floor', (v) => v >= 0.6);
  add('CPU per delivery (Temporal + worker + API + FerretDB + PostgreSQL) ≤ 10 ms', tp?.serviceCpuMsPerDelivery, 'ms', (v) => v <= 10);
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
  add('noisy neighbour: quiet owner\'s p99 with the burst ≤ 2 × alone (issue 33)', r.noisy?.p99Ratio, '× alone', (v) => v <= 2);
  add('slow receiver: healthy throughput ≥ 0.9 × alone (issue 33)', r.slowReceiver?.ratio, '× alone', (v) => v >= 0.9);
  if (r.accounting?.length) add('zero deliveries unaccounted', unaccounted(r.accounting), 'deliveries', (v) => v === 0);
  return out;
}

/** The HTTP throughput run at one subscription per event: `fanouts`' M=1, or `throughput` itself with `--subs 1`. */
const httpAtM1 = (r: BenchResults) => r.fanOuts?.['1'] ?? (r.options.subs === 1 ? r.throughput : undefined);

/** Service over baseline and service over floor, each where both ran. */
function ratios(r: BenchResults): Record<string, number> {
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
  // A broker destination beside an HTTP one at the same N × 1.
  set('throughputBrokerOverHttpM1', r.broker?.deliveriesPerSecond, httpAtM1(r)?.deliveriesPerSecond);
  set('cpuPerDeliveryBrokerOverHttpM1', r.broker?.serviceCpuMsPerDelivery, httpAtM1(r)?.serviceCpuMsPerDelivery);
  return out;
}

type Row = [string, string, string];

/** Writes the results as JSON (the bench: after every scenario, so a crash keeps what was measured). */
export function writeResults(file: string, results: BenchResults | object): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

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

function table(rows: Row[]): string {
  const w = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => `  ${r[0].padEnd(w[0]!)}  ${r[1].padStart(w[1]!)}  ${r[2]}`).join('\n');
}

const fmt = (v: number | undefined, digits = 1) => (v === undefined || Number.isNaN(v) ? '–' : v.toFixed(digits));
const lat = (s: Summary) => `p50 ${fmt(s.p50)}  p90 ${fmt(s.p90)}  p99 ${fmt(s.p99)}  max ${fmt(s.max)} ms (n=${s.count})`;
const segments = (b: Record<string, Summary>) => `${Object.entries(b).map(([k, v]) => `${k} ${fmt(v.p50)}`).join(', ')} ms`;
const roles = (perRole: Record<string, number>, digits: number) => Object.entries(perRole).map(([k, v]) => `${k} ${fmt(v, digits)}`).join(', ');
/** A run's database cost in one line: commands per order (API) and per delivery (worker), SQL statements per order. */
const dbCost = (c: CostOfRun | undefined, counted: boolean) => {
  if (!c) return 'DB commands –';
  const sql = `SQL ${fmt(c.sqlStatementsPerOrder, 1)} statements, ${fmt(c.sqlCommitsPerOrder, 1)} commits/order`;
  // Command monitoring costs CPU: counted only when asked for, so the other runs' CPU figures stay comparable.
  if (!counted) return `DB commands not counted (--db-commands); ${sql}`;
  return `DB commands ${fmt(c.apiCommandsPerOrder, 1)}/order (API), ${c.deliveries ? `${fmt(c.workerCommandsPerDelivery, 1)}/delivery` : `${fmt(c.workerCommands, 0)} in all, no deliveries`} (worker); ${sql}`;
};
/** Commands per order or delivery, or – when they were not counted. */
const perCmd = (v: number | undefined, counted: boolean) => (counted ? fmt(v, 1) : '–');

/** One row per measure that ran, in scenario order. */
function rows(r: BenchResults, ratio: Record<string, number>): Row[] {
  const out: Row[] = [['Scenario', 'Value', 'Detail']];
  const { ingestNoSubscriptions: ing0, ingestWithSubscriptions: ingM, throughput: tp, fixedRate: fr, idle, baseline: base, floor: fl } = r;
  const o = r.options;
  if (ing0) {
    out.push(['a. ingest, 0 subs', `${fmt(ing0.requestsPerSecond)} orders/s`, `${ing0.ok}/${ing0.orders} orders, C=${o.concurrency}; latency ${lat(ing0.latencyMs)}; API CPU ${fmt(ing0.apiCpuMsPerRequest, 2)} ms/order; HTTP 500 retried ${ing0.http500Retried}`]);
    out.push(['a. database cost, 0 subs', `${perCmd(ing0.dbCost.apiCommandsPerOrder, o.dbCommands)} cmd/order`, dbCost(ing0.dbCost, o.dbCommands)]);
  }
  if (ingM) {
    const d = ingM.deliveries as { deliveriesPerSecond: number } | undefined;
    out.push(['a. ingest, M subs', `${fmt(ingM.requestsPerSecond)} orders/s`, `${ingM.ok}/${ingM.orders} orders × ${o.subs} subs; latency ${lat(ingM.latencyMs)}; API CPU ${fmt(ingM.apiCpuMsPerRequest, 2)} ms/order; HTTP 500 retried ${ingM.http500Retried}; deliveries meanwhile ${fmt(d?.deliveriesPerSecond)}/s`]);
    out.push(['a. database cost, M subs', `${perCmd(ingM.dbCost.apiCommandsPerOrder, o.dbCommands)} cmd/order`, dbCost(ingM.dbCost, o.dbCommands)]);
  }
  if (tp) {
    out.push([`b. throughput, M=${tp.subscriptions}`, `${fmt(tp.deliveriesPerSecond)} del/s`, `${tp.events} events × ${tp.subscriptions} subs = ${tp.emitted}; delivered ${tp.delivered}, failed ${tp.failed}, dups ${tp.duplicates}, retried attempts ${tp.retriedAttempts}; first event → last delivery ${fmt(tp.firstEventToLastDeliverySeconds, 2)} s`]);
    out.push([`b. database cost, M=${tp.subscriptions}`, `${perCmd(tp.dbCost.workerCommandsPerDelivery, o.dbCommands)} cmd/del`, `${dbCost(tp.dbCost, o.dbCommands)}, ${fmt(tp.dbCost.sqlStatementsPerDelivery, 1)} statements/delivery`]);
    out.push(['b. latency in throughput run', `p50 ${fmt(tp.latencyFromPostMs.p50, 0)} ms`, lat(tp.latencyFromPostMs)]);
  }
  for (const [m, f] of Object.entries(r.fanOuts ?? {})) {
    const floorHere = fl?.fanOuts[m];
    out.push([`b. throughput, M=${m}`, `${fmt(f.deliveriesPerSecond)} del/s`, `${f.events} events × ${f.subscriptions} subs; delivered ${f.delivered}, failed ${f.failed}, dups ${f.duplicates}; ${fmt(f.serviceCpuMsPerDelivery, 2)} CPU-ms/delivery${floorHere ? `; floor ${fmt(floorHere.deliveriesPerSecond)} del/s, service/floor ${fmt(ratio[`throughputServiceOverFloorM${m}`], 2)}×` : ''}`]);
  }
  const br = r.broker;
  if (br) {
    const http = httpAtM1(r);
    const beside = http
      ? `; HTTP at M=1 ${fmt(http.deliveriesPerSecond)} del/s, ${fmt(http.serviceCpuMsPerDelivery, 2)} CPU-ms/delivery: broker/HTTP ${fmt(ratio.throughputBrokerOverHttpM1, 2)}× del/s, ${fmt(ratio.cpuPerDeliveryBrokerOverHttpM1, 2)}× CPU`
      : '';
    out.push([
      'b. broker (Redis Streams), 1 sub',
      `${fmt(br.deliveriesPerSecond)} del/s`,
      `${br.events} events × 1 Redis stream; delivered ${br.delivered}, failed ${br.failed}, dups ${br.duplicates}, retried attempts ${br.retriedAttempts}; ${fmt(br.serviceCpuMsPerDelivery, 2)} CPU-ms/delivery (${roles(br.cpuMsPerDeliveryByRole, 2)}); apart: redis-server ${fmt(br.brokerCpuMsPerDelivery, 3)}, its consumer ${fmt(br.consumerCpuMsPerDelivery, 3)} ms; latency ${lat(br.latencyFromPostMs)}${beside}`,
    ]);
  }
  if (fr) {
    out.push(['c. latency at fixed rate', `p99 ${fmt(fr.latencyFromPostMs.p99, 0)} ms`, `${fmt(fr.offeredDeliveriesPerSecond)} del/s offered (${fmt(fr.achievedOfferedDeliveriesPerSecond)} sent, ${fmt(fr.completedDeliveriesPerSecond)} completed) for ${o.duration}s; ${lat(fr.latencyFromPostMs)}; HTTP 500 retried ${fr.http500Retried}, orders rejected ${fr.ordersRejected}`]);
    out.push(['c. fixed-rate breakdown (p50)', '', segments(fr.breakdownMs)]);
  }
  if (idle) {
    out.push(['c. idle latency', `p50 ${fmt(idle.latencyFromPostMs.p50, 0)} ms`, `${idle.events} events 1 s apart × ${idle.subscriptions} subs; ${lat(idle.latencyFromPostMs)}; POST ${lat(idle.postLatencyMs)}`]);
    out.push(['c. idle breakdown (p50)', '', segments(idle.breakdownMs)]);
  }
  if (tp) {
    out.push([
      'd. CPU per delivery',
      `${fmt(tp.serviceCpuMsPerDelivery, 2)} ms`,
      `worker+API+Temporal+FerretDB (db)+PostgreSQL (postgres, every backend) over the throughput run: ${roles(tp.cpuMsPerDeliveryByRole, 2)} ms; apart, not counted: ${roles(tp.cpuMsPerDeliveryApart, 2)} ms; other processes on the machine ${fmt(tp.otherProcessesCpuSeconds)} CPU-s of ${fmt(tp.cpu.machineTotalSeconds)}`,
    ]);
  }
  if (base) {
    out.push(['e. baseline throughput', `${fmt(base.deliveriesPerSecond)} del/s`, `in-process sign+POST, concurrency ${base.concurrency}; latency ${lat(base.latencyMs)}; ${fmt(base.benchCpuMsPerDelivery, 3)} CPU-ms/delivery`]);
    out.push(['e. baseline single delivery', `p50 ${fmt(base.singleDeliveryLatencyMs.p50, 2)} ms`, lat(base.singleDeliveryLatencyMs)]);
  }
  const slow = r.slowReceiver;
  if (slow) out.push(['b. slow receiver', `${fmt(slow.ratio, 2)}×`, `healthy ${slow.healthySubscriptions} subs: ${fmt(slow.without.deliveriesPerSecond)} del/s alone, ${fmt(slow.withSlow.deliveriesPerSecond)} del/s beside one that never answers; p99 ${fmt(slow.without.latencyFromPostMs.p99, 0)} → ${fmt(slow.withSlow.latencyFromPostMs.p99, 0)} ms`]);
  const noisy = r.noisy;
  if (noisy) {
    out.push([
      'b. noisy neighbour',
      `${fmt(noisy.p99Ratio, 2)}× p99`,
      `owner B at ${noisy.quietEventsPerSecond}/s: p50/p99 ${fmt(noisy.quietAlone.latencyFromPostMs.p50, 0)}/${fmt(noisy.quietAlone.latencyFromPostMs.p99, 0)} ms alone → ${fmt(noisy.quietWithBurst.latencyFromPostMs.p50, 0)}/${fmt(noisy.quietWithBurst.latencyFromPostMs.p99, 0)} ms beside owner A's ${noisy.burstAccepted} events to a ${noisy.slowAnswerMs} ms receiver (posted in ${fmt(noisy.burstPostsSeconds)} s, delivered in ${fmt(noisy.burstDeliveredSeconds)} s)`,
    ]);
  }
  const outage = r.outage;
  if (outage) out.push(['b. drain after an outage', `${fmt(outage.drainSeconds)} s`, `receiver 503 for ${outage.outageSeconds} s while ${outage.events} events arrived; delivered ${outage.delivered}, failed ${outage.failed}, dups ${outage.duplicates}; ${outage.failedAttemptsDuringOutage} attempts failed meanwhile`]);
  if (fl) {
    const pre = fl.children ? `; pre-1.0 shape (a child per subscription) ${fmt(fl.children.deliveriesPerSecond)} del/s, ${fmt(fl.children.cpuMsPerDelivery, 2)} CPU-ms` : '';
    out.push(['f. Temporal floor', `${fmt(fl.event.deliveriesPerSecond)} del/s`, `the service's shape alone, ${fl.event.events} × ${fl.event.subs}: ${fmt(fl.event.cpuMsPerDelivery, 2)} CPU-ms/delivery (Temporal ${fmt(fl.event.temporalCpuMsPerDelivery, 2)}, worker ${fmt(fl.event.workerCpuMsPerDelivery, 2)})${pre}`]);
  }
  const bg = r.background;
  if (bg) {
    const total = ['worker', 'api', 'temporal', 'db', 'postgres'].reduce((a, k) => a + (bg.cpuMsPerSecondByRole[k] ?? 0), 0);
    out.push(['background CPU, no load', `${fmt(total, 0)} ms/s`, `${roles(bg.cpuMsPerSecondByRole, 0)} CPU-ms per second, with ${bg.orders} orders and ${bg.events} events stored; relay query ${fmt(bg.dbProbeMs.relayNotes)} ms, order by id ${fmt(bg.dbProbeMs.orderById)} ms, event by id ${fmt(bg.dbProbeMs.eventById)} ms, update by id ${fmt(bg.dbProbeMs.eventUpdateById)} ms`]);
  }
  const ret = r.retention;
  if (ret) {
    out.push([
      'retention pass',
      `${fmt(ret.docsPerSecond, 0)} docs/s`,
      `${ret.deleted.attempts} old attempts (of ${ret.attemptsStored}) and ${ret.deleted.events} events deleted in ${ret.batches} rounds, ${fmt(ret.passSeconds)} s; CPU-s ${roles(ret.cpuSecondsByRole, 2)}; order p50/p99 ${fmt(ret.orderLatencyBeforeMs.p50)}/${fmt(ret.orderLatencyBeforeMs.p99)} ms before, ${fmt(ret.orderLatencyDuringMs.p50)}/${fmt(ret.orderLatencyDuringMs.p99)} ms during (${ret.orderLatencyDuringMs.count} orders)`,
    ]);
  }
  const mc = r.metricsCost;
  if (mc) {
    out.push([
      'metrics cost (on ÷ off)',
      `${fmt(mc.throughputRatio, 3)}× del/s, ${fmt(mc.cpuPerDeliveryRatio, 3)}× CPU`,
      `${mc.runs.length / 2} pairs (A-B B-A) of ${mc.events} events × ${mc.subscriptions} subs, pairs' on ÷ off ${mc.throughputRatios.join(', ')} del/s and ${mc.cpuPerDeliveryRatios.join(', ')} CPU; medians off ${fmt(mc.off.deliveriesPerSecond)} del/s ${fmt(mc.off.serviceCpuMsPerDelivery, 2)} CPU-ms, on (scraped every 5 s) ${fmt(mc.on.deliveriesPerSecond)} del/s ${fmt(mc.on.serviceCpuMsPerDelivery, 2)} CPU-ms; spread among the off runs ${fmt((mc.noiseOffThroughput ?? 0) * 100, 0)} % del/s, ${fmt((mc.noiseOffCpu ?? 0) * 100, 0)} % CPU`,
    ]);
    out.push(['metrics: one scrape of both', `${fmt(mc.scrape.serviceCpuMsPerScrape, 1)} CPU-ms`, `at no load, ${mc.scrape.scrapes} scrapes: ${roles(mc.scrape.cpuMsPerScrapeByRole, 2)} ms; ${fmt(mc.scrape.bytesPerScrape / 1024, 0)} KiB per scrape`]);
  }
  const x = (name: string, label: string, digits: number) => (ratio[name] !== undefined ? `${label} ${fmt(ratio[name], digits)}×` : '');
  const baselineRatios = [x('throughputServiceOverBaseline', 'throughput', 4), x('idleP50ServiceOverBaselineSingle', 'idle p50', 0), x('cpuPerDeliveryServiceOverBaseline', 'CPU/delivery', 0)].filter(Boolean);
  if (baselineRatios.length) out.push(['e. ratios service/baseline', '', baselineRatios.join(', ')]);
  const floorRatios = [
    x('throughputServiceOverFloor', `throughput M=${o.subs}`, 2),
    ...Object.keys(r.fanOuts ?? {}).map((m) => x(`throughputServiceOverFloorM${m}`, `M=${m}`, 2)),
    x('cpuPerDeliveryServiceOverFloor', 'CPU/delivery', 1),
  ].filter(Boolean);
  if (floorRatios.length) out.push(['f. ratios service/floor', fmt(ratio.throughputServiceOverFloor, 2) === '–' ? '' : `${fmt(ratio.throughputServiceOverFloor, 2)}×`, floorRatios.join(', ')]);
  if (r.accounting?.length) {
    const dups = r.accounting.reduce((s, e) => s + e.duplicates, 0);
    const owed = r.accounting.reduce((s, e) => s + e.expected, 0);
    out.push(['deliveries unaccounted', String(unaccounted(r.accounting)), `of ${owed} owed in ${r.accounting.length} checked runs; ${dups} duplicates`]);
  }
  return out;
}

/** Adds the targets and ratios to `results`, and prints the report. */
export function report(results: BenchResults, run: { dbDescription: string; externalTemporal: string | undefined; rateLimits: string; outFile: string }): void {
  const ratio = ratios(results);
  results.ratios = ratio;
  results.targets = targets(results);
  const m = results.machine;
  const o = results.options;
  const stack =
    (run.externalTemporal
      ? `external Temporal at ${run.externalTemporal} (TEMPORAL_ADDRESS; its CPU is not counted)`
      : o.stack === 'cluster'
        ? `Temporal cluster profile: ${(typeof results.stack?.temporal === 'string' ? results.stack.temporal : '').replace(/^.*?: /, '')}`
        : `Temporal dev server SQLite fastSqlite=${o.fastSqlite}`) + `; ${o.apis} API, ${o.workers} worker process${o.workers > 1 ? 'es' : ''}`;
  process.stdout.write(
    `\nWebhook service bench — ${results.date} — commit ${results.git.commit?.slice(0, 7) ?? '?'}${results.git.dirtyFiles ? ` + ${results.git.dirtyFiles} changed files` : ''}${o.quick ? ' — QUICK (smoke run, not for figures)' : ''}\n` +
      `Machine: ${m.cpus} cores (${m.model ?? 'CPU'}), ${m.memoryGiB} GiB, Node ${m.node}; load average ${m.loadAverageAtStart.join(' ')} at start${m.loadAverageAtEnd ? `, ${m.loadAverageAtEnd.join(' ')} at end` : ''}\n` +
      `Stack: ${run.dbDescription.replace(/, data in .*/, '')}; ${stack}; LOG_LEVEL=${o.logLevel}, RELAY_INTERVAL=${o.relayInterval}\n` +
      `Database: ${o.prefill.orders + o.prefill.events + o.prefill.attempts ? `prefilled with ${o.prefill.attempts} attempts, ${o.prefill.events} events, ${o.prefill.orders} orders (--prefill)` : 'empty at the start'}\n` +
      `Rate limits: ${run.rateLimits}\n` +
      `Scenarios: ${results.completed.length} of ${o.scenarios.length} completed (${results.completed.join(', ')})\n` +
      (results.void ? `\nVOID: ${results.void}\n` : '') +
      `\n${table(rows(results, ratio))}\n\nTargets (1.0; informational, the exit code only says VOID):\n` +
      results.targets.map((t) => `  ${t.pass ? 'PASS' : 'MISS'}  ${t.target}: ${fmt(t.value, t.unit.startsWith('×') ? 2 : t.unit === 'deliveries' ? 0 : 1)} ${t.unit}`).join('\n') +
      `\n\nJSON: ${run.outFile}\n`,
  );
}
