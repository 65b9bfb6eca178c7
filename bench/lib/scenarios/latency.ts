/** Scenario c: latency at a fixed offered rate (`rate`), and idle latency at 1 event/s (`idle`). */
import type { OrderResult } from '../api-client';
import { type Ctx, quiesce, r3, rate, serviceCpu } from '../context';
import { awaitDeliveries, breakdown, checkComplete, latencies, sampleHistories } from '../outcome';
import { CpuMeter } from '../proc';
import { nowMs, sleep, summarize } from '../stats';

/**
 * Open loop: `count` orders at fixed times, `eventsPerSecond` apart, whatever the service does;
 * latency from each order POST's start to the receiver's first byte, and where it goes.
 */
export async function fixedRate(ctx: Ctx, eventsPerSecond: number, count: number, label: string) {
  await ctx.receiver.request({ type: 'reset' });
  const interval = 1000 / eventsPerSecond;
  ctx.log(`${label}: ${count} events at ${eventsPerSecond.toFixed(2)} events/s × ${ctx.subs.size} subscriptions`);
  const cpu0 = ctx.meter.snapshot();
  const t0 = nowMs() + 20;
  const pending: Array<Promise<OrderResult>> = [];
  let lateMs = 0;
  for (let i = 0; i < count; i++) {
    const at = t0 + i * interval;
    const wait = at - nowMs();
    if (wait > 0) await sleep(wait);
    lateMs = Math.max(lateMs, nowMs() - at);
    pending.push(ctx.api.createOrder());
  }
  const orders = await Promise.all(pending);
  const o = await awaitDeliveries(ctx, count, orders);
  const cpu = CpuMeter.diff(cpu0, ctx.meter.snapshot());
  checkComplete(ctx, label, o, false);
  const lat = latencies(o);
  const first = Math.min(...orders.map((x) => x.startedAt));
  const lastPost = Math.max(...orders.map((x) => x.startedAt));
  const result = {
    events: count,
    subscriptions: ctx.subs.size,
    offeredEventsPerSecond: r3(eventsPerSecond),
    offeredDeliveriesPerSecond: r3(eventsPerSecond * ctx.subs.size),
    achievedOfferedDeliveriesPerSecond: count > 1 ? rate((count - 1) * ctx.subs.size, lastPost - first) : undefined,
    /** Deliveries/s actually completed, first POST to last arrival (below the offered rate when overloaded). */
    completedDeliveriesPerSecond: rate(o.delivered, Math.max(...o.arrivals.map((a) => a.t)) - first),
    maxSendLagMs: Math.round(lateMs),
    ordersRejected: o.ordersFailed,
    http500Retried: orders.reduce((sum, x) => sum + x.retries, 0),
    emitted: o.emitted,
    delivered: o.delivered,
    failed: o.failed,
    duplicates: o.duplicates,
    retriedAttempts: o.retriedAttempts,
    postLatencyMs: summarize(orders.filter((x) => x.ok).map((x) => x.latencyMs)),
    latencyFromPostMs: lat.fromPost,
    latencyFromCreatedAtMs: lat.fromCreated,
    breakdownMs: await breakdown(ctx, o),
    temporalHops: await sampleHistories(ctx, o),
    serviceCpuMsPerDelivery: r3((serviceCpu(cpu) * 1000) / Math.max(1, o.delivered)),
    cpu,
  };
  await quiesce(ctx, label);
  return result;
}
