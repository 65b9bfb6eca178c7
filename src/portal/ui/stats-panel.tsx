import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import type { WebhookServiceClient } from '../../client';
import { outcome } from './api';
import { chartColumns, statsSummary } from './chart-data';
import type { SubscriptionStats } from './types';

const hours = 24;

type Loaded = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; stats: SubscriptionStats };

/** Success rate and latency per hour over the last 24 hours: a uPlot chart and its text summary. */
export function StatsPanel({ client, subscriptionId, refresh }: { client: WebhookServiceClient; subscriptionId: string; refresh: number }) {
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  useEffect(() => {
    void outcome(client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/stats', { params: { path: { subscription_id: subscriptionId }, query: { hours } } })).then((r) =>
      setLoaded(r.ok ? { kind: 'ready', stats: r.data } : { kind: 'error', message: r.message }),
    );
  }, [client, subscriptionId, refresh]);

  return (
    <section aria-labelledby="stats-heading" data-testid="stats-panel">
      <h2 id="stats-heading">Last {hours} hours</h2>
      {loaded.kind === 'loading' && <p aria-busy="true">Loading statistics…</p>}
      {loaded.kind === 'error' && (
        <p role="alert" class="error">
          Could not load the statistics: {loaded.message}
        </p>
      )}
      {loaded.kind === 'ready' && (
        <div class="stats">
          <Chart stats={loaded.stats} />
          <p data-testid="stats-summary">{statsSummary(loaded.stats.totals, hours)}</p>
        </div>
      )}
    </section>
  );
}

function Chart({ stats }: { stats: SubscriptionStats }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // The whole width of the panel (no cap: on a desktop the chart spans the page like the lists below it).
    const width = () => Math.max(200, Math.floor(el.clientWidth));
    let drawn = width();
    const plot = new uPlot(
      {
        width: drawn,
        height: 220,
        series: [
          {},
          // Points always drawn: an hour with attempts between empty hours is a lone point, no line.
          { label: 'Success %', scale: '%', stroke: '#2e7d32', width: 2, spanGaps: false, points: { show: true, size: 6, fill: '#2e7d32' } },
          { label: 'Latency p50 (ms)', scale: 'ms', stroke: '#1565c0', width: 1.5, points: { show: true, size: 5, fill: '#1565c0' } },
          { label: 'Latency p95 (ms)', scale: 'ms', stroke: '#ef6c00', width: 1.5, dash: [4, 4], points: { show: true, size: 5, fill: '#ef6c00' } },
        ],
        scales: {
          // Half an hour past the current hour's start: its point is not cut in half by the chart's edge.
          x: { time: true, range: (_u, min, max) => [min ?? 0, (max ?? 0) + stats.bucket_seconds / 2] },
          '%': { range: [0, 100] },
          ms: { range: (_u, _min, max) => [0, Math.max(10, max ?? 10)] },
        },
        axes: [{}, { scale: '%', label: '%', size: 40 }, { scale: 'ms', side: 1, label: 'ms', size: 50, grid: { show: false } }],
        legend: { show: true },
      },
      chartColumns(stats.buckets),
      el,
    );
    // Follows the container's width so the chart fits a phone and a desktop alike.
    const observer = new ResizeObserver(() => {
      // Only on a width change: the legend wrapping changes the height, which must not loop.
      if (width() === drawn) return;
      drawn = width();
      plot.setSize({ width: drawn, height: 220 });
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [stats]);
  return <div ref={box} class="chart" role="img" aria-label={`Success rate and latency per hour over the last ${hours} hours`} data-testid="stats-chart" />;
}
