import { describe, expect, it } from 'vitest';
import { chartColumns, statsSummary } from '../../../src/portal/ui/chart-data';

describe('the portal\'s 24-hour chart data', () => {
  it('shapes buckets into uPlot columns: seconds, success %, p50, p95; an empty hour is a gap', () => {
    const columns = chartColumns([
      { start: '2025-01-15T08:00:00Z', attempts: 3, delivered: 2, failed: 1, latency_p50_ms: 40, latency_p95_ms: 90 },
      { start: '2025-01-15T09:00:00Z', attempts: 0, delivered: 0, failed: 0 },
      { start: '2025-01-15T10:00:00Z', attempts: 4, delivered: 4, failed: 0, latency_p50_ms: 12, latency_p95_ms: 15 },
    ]);
    expect(columns).toEqual([
      [1736928000, 1736931600, 1736935200],
      [66.7, null, 100],
      [40, null, 12],
      [90, null, 15],
    ]);
  });

  it('summarises the window in words beside the chart', () => {
    expect(statsSummary({ attempts: 0, delivered: 0, failed: 0 }, 24)).toBe('No delivery attempts in the last 24 hours.');
    expect(statsSummary({ attempts: 8, delivered: 6, failed: 2, success_rate: 0.75, latency_p50_ms: 20, latency_p95_ms: 300 }, 24)).toBe(
      'In the last 24 hours: 8 attempts, 6 delivered, 2 failed (success rate 75 %). Latency: median 20 ms, 95th percentile 300 ms.',
    );
    expect(statsSummary({ attempts: 1, delivered: 1, failed: 0, success_rate: 1 }, 24)).toBe('In the last 24 hours: 1 attempt, 1 delivered, 0 failed (success rate 100 %).');
  });
});
