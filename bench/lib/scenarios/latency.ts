/** Scenario c: latency at a fixed offered rate (`rate`) and idle at 1 event/s (`idle`); and the drain after a receiver outage (`outage`). */
import type { OrderResult } from '../../../stack/harness/api-client';
import { type Ctx, quiesce, r3, rate, serviceCpu } from '../context';
import { awaitDeliveries, breakdown, latencies } from '../outcome';
import { CpuMeter } from '../../../stack/harness/proc';
import { nowMs, sleep, summarize } from '../../../stack/harness/stats';

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
  const { answers, lateMs } = await openLoop(ctx, t0, interval, count);
  const orders = await answers;
  const o = await awaitDeliveries(ctx, label, orders);
  const cpu = CpuMeter.diff(cpu0, ctx.meter.snapshot());
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
    serviceCpuMsPerDelivery: r3((serviceCpu(cpu) * 1000) / Math.max(1, o.delivered)),
    cpu,
  };
  await quiesce(ctx, label);
  return result;
}

/** Sends `count` orders at `t0 + i × intervalMs` whatever the service does; their answers, and the largest delay of a send behind its time. */
async function openLoop(ctx: Ctx, t0: number, intervalMs: number, count: number): Promise<{ answers: Promise<OrderResult[]>; lateMs: number }> {
  const pending: Array<Promise<OrderResult>> = [];
  let lateMs = 0;
  for (let i = 0; i < count; i++) {
    const wait = t0 + i * intervalMs - nowMs();
    if (wait > 0) await sleep(wait);
    lateMs = Math.max(lateMs, nowMs() - (t0 + i * intervalMs));
    pending.push(ctx.api.createOrder());
  }
  return { answers: Promise.all(pending), lateMs };
}

/**
 * For `--outage` seconds the receiver answers 503 to every POST while 2 orders/s arrive (each to
 * M subscriptions); then 200 again. How long after the outage the backlog's last delivery arrived.
 */
export async function outageDrain(ctx: Ctx) {
  const seconds = ctx.opts.outage;
  await ctx.receiver.request({ type: 'reset' });
  ctx.log(`outage: receiver answers 503 for ${seconds}s while 2 events/s × ${ctx.subs.size} subscriptions arrive`);
  await ctx.receiver.request({ type: 'answer', status: 503, hang: [] });
  const t0 = nowMs();
  let answers: Promise<OrderResult[]>;
  try {
    ({ answers } = await openLoop(ctx, t0, 500, Math.round(seconds * 2)));
    const rest = t0 + seconds * 1000 - nowMs();
    if (rest > 0) await sleep(rest);
  } finally {
    await ctx.receiver.request({ type: 'answer', status: 200, hang: [] });
  }
  const ended = nowMs();
  const orders = await answers;
  const o = await awaitDeliveries(ctx, 'outage', orders);
  const last = Math.max(...o.arrivals.map((a) => a.t));
  await quiesce(ctx, 'outage');
  return {
    outageSeconds: seconds,
    events: orders.length,
    delivered: o.delivered,
    failed: o.failed,
    duplicates: o.duplicates,
    failedAttemptsDuringOutage: o.retriedAttempts,
    /** From the receiver answering again to the backlog's last delivery. */
    drainSeconds: r3((last - ended) / 1000),
  };
}
