/** What every scenario gets, and the small helpers they share. */
import type { ApiClient } from '../../stack/harness/api-client';
import type { CostMeter } from './cost';
import type { BenchOptions } from './options';
import type { CpuMeter, CpuUsage } from '../../stack/harness/proc';
import type { ReceiverProcess } from '../../stack/harness/receiver-client';
import type { Stack } from '../../stack/harness/stack';
import type { StreamBroker } from '../../stack/harness/stream-broker';
import { nowMs, sleep } from '../../stack/harness/stats';

export interface Ctx {
  stack: Stack;
  api: ApiClient;
  receiver: ReceiverProcess;
  /** Receiver tag (path segment) → subscription id, for the scenario's subscriptions. */
  subs: Map<string, string>;
  meter: CpuMeter;
  /** Database commands and SQL statements, read before and after a run. */
  cost: CostMeter;
  opts: BenchOptions;
  log: (line: string) => void;
  /** Every checked run's count, for the "zero deliveries unaccounted" target. */
  ledger: LedgerEntry[];
  /** The Redis of the `broker` scenario, started when it is to run (its CPU is the `broker` role). */
  broker?: StreamBroker | undefined;
}

/** What one run emitted and what became of it. */
export interface LedgerEntry {
  run: string;
  /** Deliveries owed: accepted orders × subscriptions. */
  expected: number;
  delivered: number;
  failed: number;
  duplicates: number;
}

/** Waits until no workflow is running, so one scenario's tail does not load the next. */
export async function quiesce(ctx: Ctx, label: string): Promise<void> {
  const client = await ctx.stack.temporal.client();
  let deadline = nowMs() + ctx.opts.drainTimeout * 1000;
  let last = Infinity;
  for (;;) {
    const { count } = await client.workflow.count('ExecutionStatus="Running"');
    if (count === 0) return;
    if (count < last) {
      last = count;
      deadline = nowMs() + ctx.opts.drainTimeout * 1000;
    }
    if (nowMs() > deadline) throw new Error(`${label}: ${count} workflows still running, none finished for ${ctx.opts.drainTimeout}s`);
    await sleep(250);
  }
}

/** Whether a CPU-accounting role is one of the service's own processes (not the receiver nor the bench). */
export const isServiceRole = (role: string) => /^(worker|api|temporal|db|postgres)$|^(worker|api|temporal)-\d$/.test(role);

/**
 * CPU-seconds of the service's own processes: Temporal + worker + API + the database, which is
 * FerretDB (`db`) and, on the embedded default, PostgreSQL with every backend (`postgres`, the
 * postmaster's tree); every one of several, e.g. `worker-1`, `temporal-2`.
 */
export function serviceCpu(u: CpuUsage): number {
  return Object.entries(u.perRole).reduce((s, [r, v]) => s + (isServiceRole(r) ? v : 0), 0);
}

/** Per second, one decimal. */
export const rate = (count: number, ms: number) => Math.round((count / (ms / 1000)) * 10) / 10;
/** Three decimals. */
export const r3 = (v: number) => Math.round(v * 1000) / 1000;
