/** Latency summaries (nearest-rank percentiles over milliseconds), time and durations. */
import { parseDuration } from './service';

export interface Summary {
  count: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of an ascending array (`q` in [0, 1]). */
export function percentile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1]!;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (v: number) => Math.round(v * 10) / 10;
  return {
    count: sorted.length,
    min: round(sorted[0] ?? Number.NaN),
    p50: round(percentile(sorted, 0.5)),
    p90: round(percentile(sorted, 0.9)),
    p99: round(percentile(sorted, 0.99)),
    max: round(sorted[sorted.length - 1] ?? Number.NaN),
    mean: round(sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1)),
  };
}

/** Epoch milliseconds with sub-millisecond resolution, comparable across processes on one machine. */
export const nowMs = (): number => performance.timeOrigin + performance.now();

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The nearest-rank median. */
export const median = (values: readonly number[]): number => percentile([...values].sort((a, b) => a - b), 0.5);

/** Seconds from `60s`, `3m`, `500ms` or a plain number of seconds; throws naming the flag. */
export function seconds(name: string, text: string): number {
  const ms = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) * 1000 : parseDuration(text);
  if (ms === undefined || !Number.isFinite(ms) || ms <= 0) throw new Error(`--${name}: "${text}" is not a duration like 60s or 3m`);
  return ms / 1000;
}
