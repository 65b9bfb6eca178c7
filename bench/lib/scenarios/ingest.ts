/** Scenario a: order ingest, with and without subscriptions. */
import { closedLoop } from '../../../stack/harness/api-client';
import { type Ctx, quiesce, r3, rate } from '../context';
import { CostMeter } from '../cost';
import { awaitDeliveries } from '../outcome';
import { CpuMeter } from '../../../stack/harness/proc';
import { nowMs, summarize } from '../../../stack/harness/stats';

/**
 * `--ingest` orders from C concurrent clients to the subscriptions of `ctx.subs` (none or M):
 * orders/s, latency and the API's CPU per order; with subscriptions, also the deliveries
 * meanwhile, checked like any run.
 */
export async function ingest(ctx: Ctx, label: string) {
  await ctx.receiver.request({ type: 'reset' });
  ctx.log(`${label}: ${ctx.opts.ingest} orders, ${ctx.opts.concurrency} concurrent clients, ${ctx.subs.size} subscriptions`);
  const cost0 = await ctx.cost.snapshot();
  const cpu0 = ctx.meter.snapshot();
  const t0 = nowMs();
  const orders = await closedLoop(ctx.opts.ingest, ctx.opts.concurrency, () => ctx.api.createOrder());
  const wall = nowMs() - t0;
  const cpu = CpuMeter.diff(cpu0, ctx.meter.snapshot());
  const ok = orders.filter((o) => o.ok);
  const result = {
    orders: orders.length,
    ok: ok.length,
    errors: orders.length - ok.length,
    http500Retried: orders.reduce((sum, o) => sum + o.retries, 0),
    firstError: orders.find((o) => !o.ok)?.error,
    wallSeconds: r3(wall / 1000),
    requestsPerSecond: rate(ok.length, wall),
    latencyMs: summarize(ok.map((o) => o.latencyMs)),
    cpu,
    apiCpuMsPerRequest: r3(((cpu.perRole.api ?? 0) * 1000) / Math.max(1, ok.length)),
  };
  let deliveries: Record<string, unknown> | undefined;
  if (ctx.subs.size) {
    const o = await awaitDeliveries(ctx, label, orders);
    const last = Math.max(...o.arrivals.map((a) => a.t));
    deliveries = {
      emitted: o.emitted,
      ordersRejected: o.ordersFailed,
      delivered: o.delivered,
      failed: o.failed,
      duplicates: o.duplicates,
      retriedAttempts: o.retriedAttempts,
      deliveriesPerSecond: rate(o.delivered, last - t0),
      drainAfterIngestSeconds: r3((last - t0 - wall) / 1000),
    };
  }
  await quiesce(ctx, label);
  // After the deliveries and the workflows' ends, so the worker's share of each order is in.
  const dbCost = CostMeter.diff(cost0, await ctx.cost.snapshot(), ok.length, typeof deliveries?.delivered === 'number' ? deliveries.delivered : 0);
  return { ...result, ...(deliveries ? { deliveries } : {}), dbCost };
}
