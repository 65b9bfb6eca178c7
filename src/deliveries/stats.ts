import type { components } from '../../generated/api';

type SubscriptionStats = components['schemas']['SubscriptionStats'];
type StatsBucket = components['schemas']['StatsBucket'];

const HOUR_MS = 3_600_000;

/** What the statistics read of an attempt. */
export interface AttemptSample {
  started_at: Date;
  duration_ms: number;
  outcome: string;
}

/** The value below which `q` of the sorted durations fall (nearest rank). */
function percentile(sorted: number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

function summarise(samples: AttemptSample[]) {
  const delivered = samples.filter((s) => s.outcome === 'delivered').length;
  const durations = samples.map((s) => s.duration_ms).sort((a, b) => a - b);
  return {
    attempts: samples.length,
    delivered,
    failed: samples.length - delivered,
    ...(durations.length ? { latency_p50_ms: percentile(durations, 0.5), latency_p95_ms: percentile(durations, 0.95) } : {}),
  };
}

/** The start of the window: `hours` whole hours back, so the current (partial) hour is the last bucket. */
export function statsWindowStart(now: Date, hours: number): Date {
  return new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - (hours - 1) * HOUR_MS);
}

/**
 * Hourly buckets of a subscription's attempts from `statsWindowStart(now, hours)` to `now`,
 * oldest first, every hour present; samples outside the window are ignored.
 */
export function hourlyStats(subscriptionId: string, samples: AttemptSample[], now: Date, hours: number): SubscriptionStats {
  const from = statsWindowStart(now, hours);
  const perHour: AttemptSample[][] = Array.from({ length: hours }, () => []);
  const inWindow: AttemptSample[] = [];
  for (const s of samples) {
    const i = Math.floor((s.started_at.getTime() - from.getTime()) / HOUR_MS);
    if (i < 0 || i >= hours || s.started_at > now) continue;
    perHour[i]!.push(s);
    inWindow.push(s);
  }
  const buckets: StatsBucket[] = perHour.map((hour, i) => ({ start: new Date(from.getTime() + i * HOUR_MS).toISOString(), ...summarise(hour) }));
  const totals = summarise(inWindow);
  return {
    subscription_id: subscriptionId,
    from: from.toISOString(),
    to: now.toISOString(),
    bucket_seconds: 3600,
    buckets,
    totals: { ...totals, ...(totals.attempts ? { success_rate: totals.delivered / totals.attempts } : {}) },
  };
}
