import type { StatsBucket, StatsTotals } from './types';

/** uPlot's aligned columns: x in Unix seconds, then success %, p50 ms, p95 ms (null: no attempts that hour). */
export type ChartColumns = [number[], (number | null)[], (number | null)[], (number | null)[]];

/** Shapes hourly buckets into uPlot columns; an hour with no attempts is a gap, not 0 %. */
export function chartColumns(buckets: readonly StatsBucket[]): ChartColumns {
  return [
    buckets.map((b) => Math.floor(Date.parse(b.start) / 1000)),
    buckets.map((b) => (b.attempts ? Math.round((b.delivered / b.attempts) * 1000) / 10 : null)),
    buckets.map((b) => b.latency_p50_ms ?? null),
    buckets.map((b) => b.latency_p95_ms ?? null),
  ];
}

/** The text beside the chart (what a screen reader gets instead of the picture). */
export function statsSummary(totals: StatsTotals, hours: number): string {
  if (!totals.attempts) return `No delivery attempts in the last ${hours} hours.`;
  const rate = totals.success_rate ?? totals.delivered / totals.attempts;
  const pct = `${(Math.round(rate * 1000) / 10).toString()} %`;
  const latency =
    totals.latency_p50_ms !== undefined ? ` Latency: median ${totals.latency_p50_ms} ms, 95th percentile ${totals.latency_p95_ms ?? totals.latency_p50_ms} ms.` : '';
  return `In the last ${hours} hours: ${totals.attempts} ${totals.attempts === 1 ? 'attempt' : 'attempts'}, ${totals.delivered} delivered, ${totals.failed} failed (success rate ${pct}).${latency}`;
}
