/** The one results object of a bench run: filled scenario by scenario, printed, written as JSON. */
import type { BenchOptions } from './options';
import type { background } from './scenarios/background';
import type { baseline } from './scenarios/baseline';
import type { fixedRate } from './scenarios/fixed-rate';
import type { ingest } from './scenarios/ingest';
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
  background?: Result<typeof background>;
  targets?: { target: string; value: number; pass: boolean; unit: string }[];
  ratios?: Record<string, number>;
  /** Why the run does not count, when it does not. */
  void?: string;
  serviceOutput?: unknown;
}
