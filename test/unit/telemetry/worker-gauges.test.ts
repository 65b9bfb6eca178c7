import { describe, expect, it } from 'vitest';
import { createWorkerMetrics } from '../../../src/telemetry/metrics';

describe('worker gauges read from durable state', () => {
  it('reads each gauge from its source when scraped', async () => {
    const metrics = createWorkerMetrics({ retrying: () => Promise.resolve(7), relayBacklog: () => Promise.resolve(2) });
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^webhook_deliveries_retrying\{component="worker"\} 7$/m);
    expect(text).toMatch(/^webhook_relay_backlog\{component="worker"\} 2$/m);
  });

  it('still answers the scrape when a source is away: that gauge is NaN and the failure is counted', async () => {
    let temporalUp = false;
    const metrics = createWorkerMetrics({
      retrying: () => (temporalUp ? Promise.resolve(3) : Promise.reject(new Error('Failed to connect to Temporal server'))),
      relayBacklog: () => Promise.resolve(1),
    });
    metrics.attempts.inc({ outcome: 'delivered', status_class: '2xx' });
    const down = await metrics.registry.metrics();
    // prom-client writes NaN as "Nan", which Prometheus parses (Go's ParseFloat ignores case).
    expect(down).toMatch(/^webhook_deliveries_retrying\{component="worker"\} NaN$/im);
    expect(down).toMatch(/^webhook_relay_backlog\{component="worker"\} 1$/m);
    expect(down).toContain('webhook_delivery_attempts_total{outcome="delivered",status_class="2xx",component="worker"} 1');

    temporalUp = true;
    const up = await metrics.registry.metrics();
    expect(up).toMatch(/^webhook_deliveries_retrying\{component="worker"\} 3$/m);
    // Counted while the gauge was read, so it shows from the next scrape on.
    expect(up).toMatch(/^webhook_metrics_read_failures_total\{gauge="webhook_deliveries_retrying",component="worker"\} 1$/m);
  });
});
