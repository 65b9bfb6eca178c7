/** The one results object of a bench run: filled scenario by scenario, printed, written as JSON. */
import { cpus, totalmem } from 'node:os';
import type { FloorResult } from '../floor/floor';
import type { LedgerEntry } from './context';
import type { BenchOptions } from './options';
import { loadAverage } from './proc';
import type { background } from './scenarios/background';
import type { baseline } from './scenarios/baseline';
import type { fanOut } from './scenarios/fan-outs';
import type { ingest } from './scenarios/ingest';
import type { metricsCost } from './scenarios/metrics-cost';
import type { fixedRate } from './scenarios/latency';
import type { outageDrain } from './scenarios/outage-drain';
import type { retention } from './scenarios/retention';
import type { slowReceiver } from './scenarios/slow-receiver';
import type { throughput } from './scenarios/throughput';

type Result<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

/** One target of 1.0 and whether this run met it. */
export interface Target {
  target: string;
  value: number;
  unit: string;
  pass: boolean;
}

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
  slowReceiver?: Result<typeof slowReceiver>;
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
  targets?: Target[];
  ratios?: Record<string, number>;
  /** Why the run does not count, when it does not. */
  void?: string;
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
  };
}
