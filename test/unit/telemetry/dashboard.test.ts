import { readFileSync } from 'node:fs';
import { parser } from '@prometheus-io/lezer-promql';
import { describe, expect, it } from 'vitest';
import { createApiMetrics, createWorkerMetrics } from '../../../src/telemetry/metrics';

interface Panel {
  title: string;
  targets: { expr: string }[];
}
const dashboard = JSON.parse(readFileSync(new URL('../../../ops/grafana/dashboards/webhook-service.json', import.meta.url), 'utf8')) as { panels: Panel[] };
const expressions = dashboard.panels.flatMap((p) => p.targets.map((t) => ({ panel: p.title, expr: t.expr })));

/** The metric names a PromQL expression selects, and whether it parsed cleanly. */
function selected(expr: string): { metrics: string[]; errors: number } {
  // Grafana substitutes its range variable before the query reaches Prometheus.
  const promql = expr.replaceAll('$__rate_interval', '5m');
  const metrics: string[] = [];
  let errors = 0;
  parser.parse(promql).iterate({
    enter(node) {
      if (node.type.isError) errors++;
      if (node.name === 'VectorSelector') {
        const name = node.node.getChild('Identifier');
        if (name) metrics.push(promql.slice(name.from, name.to));
      }
    },
  });
  return { metrics, errors };
}

describe('the Grafana dashboard', () => {
  const ours = new Set(
    [createApiMetrics().registry, createWorkerMetrics({ retrying: () => Promise.resolve(0), relayBacklog: () => Promise.resolve(0) }).registry].flatMap((r) =>
      r.getMetricsAsArray().map((m) => m.name),
    ),
  );

  it('has the panels operators ask for', () => {
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(8);
  });

  it.each(expressions)('$panel: $expr parses and selects only metrics the service exports', ({ expr }) => {
    const { metrics, errors } = selected(expr);
    expect(errors).toBe(0);
    expect(metrics.length).toBeGreaterThan(0);
    // Histograms are selected by their series suffixes; temporal_* come from the SDK's exporter.
    const unknown = metrics.map((m) => m.replace(/_(bucket|count|sum)$/, '')).filter((m) => !ours.has(m) && !m.startsWith('temporal_'));
    expect(unknown).toEqual([]);
  });
});
