/** The one results object of a bench run: filled scenario by scenario, printed, written as JSON. */
import type { BenchOptions } from './options';
import type { background } from './scenarios/background';
import type { baseline } from './scenarios/baseline';
import type { fanOut } from './scenarios/fan-outs';
import type { fixedRate } from './scenarios/fixed-rate';
import type { floor } from './scenarios/floor';
import type { ingest } from './scenarios/ingest';
import type { outageDrain } from './scenarios/outage';
import type { slowReceiver } from './scenarios/slow-receiver';
import type { throughput } from './scenarios/throughput';

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
  throughput?: Result<typeof throughput>;
  fixedRate?: Result<typeof fixedRate>;
  idle?: Result<typeof fixedRate>;
  /** Throughput at other fan-outs, by subscriptions per event. */
  fanOuts?: Record<string, Result<typeof fanOut>>;
  slowReceiver?: Result<typeof slowReceiver>;
  outage?: Result<typeof outageDrain>;
  /** The floor of the shape at the same N × M, and of the pre-1.0 shape. */
  floor?: { event: Result<typeof floor>; children: Result<typeof floor>; fanOuts: Record<string, Result<typeof floor>> };
  background?: Result<typeof background>;
  targets?: { target: string; value: number; pass: boolean; unit: string }[];
  ratios?: Record<string, number>;
  /** Why the run does not count, when it does not. */
  void?: string;
  serviceOutput?: unknown;
}
