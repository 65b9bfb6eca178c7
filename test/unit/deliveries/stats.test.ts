import { describe, expect, it } from 'vitest';
import { hourlyStats, statsWindowStart } from '../../../src/deliveries/stats';

const now = new Date('2026-03-01T12:30:00Z');
const at = (iso: string, duration_ms: number, outcome = 'delivered') => ({ started_at: new Date(iso), duration_ms, outcome });

describe('hourlyStats', () => {
  it('has one bucket per hour, oldest first, ending with the current hour', () => {
    const stats = hourlyStats('sub_1', [], now, 24);
    expect(stats.buckets).toHaveLength(24);
    expect(stats.from).toBe('2026-02-28T13:00:00.000Z');
    expect(stats.buckets[0]).toEqual({ start: '2026-02-28T13:00:00.000Z', attempts: 0, delivered: 0, failed: 0 });
    expect(stats.buckets[23]?.start).toBe('2026-03-01T12:00:00.000Z');
    expect(stats.totals).toEqual({ attempts: 0, delivered: 0, failed: 0 });
    expect(statsWindowStart(now, 1).toISOString()).toBe('2026-03-01T12:00:00.000Z');
  });

  it('counts outcomes and latency percentiles per hour and over the window, ignoring samples outside it', () => {
    const samples = [
      at('2026-03-01T12:01:00Z', 10),
      at('2026-03-01T12:02:00Z', 20),
      at('2026-03-01T12:03:00Z', 30, 'http_error'),
      at('2026-03-01T12:04:00Z', 1000, 'timeout'),
      at('2026-03-01T11:59:59Z', 40),
      at('2026-02-28T12:59:59Z', 5), // before the window
      at('2026-03-01T12:31:00Z', 5), // after now
    ];
    const stats = hourlyStats('sub_1', samples, now, 24);
    expect(stats.buckets[23]).toEqual({ start: '2026-03-01T12:00:00.000Z', attempts: 4, delivered: 2, failed: 2, latency_p50_ms: 20, latency_p95_ms: 1000 });
    expect(stats.buckets[22]).toMatchObject({ attempts: 1, delivered: 1, latency_p50_ms: 40 });
    expect(stats.totals).toEqual({ attempts: 5, delivered: 3, failed: 2, success_rate: 0.6, latency_p50_ms: 30, latency_p95_ms: 1000 });
  });
});
