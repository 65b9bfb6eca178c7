/** Scenario b: N events × M subscriptions, as fast as they go; d: CPU per delivery. */
import { closedLoop } from '../api-client';
import { type Ctx, quiesce, r3, rate, serviceCpu } from '../context';
import { awaitDeliveries, checkComplete, latencies, sampleHistories } from '../outcome';
import { CpuMeter } from '../proc';
import { nowMs } from '../stats';

/**
 * `n` events (default --events) to every subscription of `ctx.subs`, from C concurrent clients;
 * then, unless `settle` is false, waits until no workflow runs any more.
 */
export async function throughput(ctx: Ctx, n = ctx.opts.events, label = 'throughput', settle = true) {
  await ctx.receiver.request({ type: 'reset' });
  ctx.log(`${label}: ${n} events × ${ctx.subs.size} subscriptions = ${n * ctx.subs.size} deliveries (${ctx.opts.concurrency} concurrent clients)`);
  const cpu0 = ctx.meter.snapshot();
  const t0 = nowMs();
  const orders = await closedLoop(n, ctx.opts.concurrency, () => ctx.api.createOrder());
  const postsDone = nowMs();
  const o = await awaitDeliveries(ctx, n, orders);
  const cpu = CpuMeter.diff(cpu0, ctx.meter.snapshot());
  checkComplete(ctx, label, o, true);
  const first = Math.min(...orders.map((x) => x.startedAt));
  const last = Math.max(...o.arrivals.map((a) => a.t));
  const svc = serviceCpu(cpu);
  const ours = Object.values(cpu.perRole).reduce((a, b) => a + b, 0);
  const lat = latencies(o);
  const temporalHops = await sampleHistories(ctx, o);
  if (settle) await quiesce(ctx, label);
  return {
    events: n,
    subscriptions: ctx.subs.size,
    emitted: o.emitted,
    delivered: o.delivered,
    failed: o.failed,
    duplicates: o.duplicates,
    retriedAttempts: o.retriedAttempts,
    signaturesVerified: o.verified,
    postsSeconds: r3((postsDone - t0) / 1000),
    http500Retried: orders.reduce((sum, x) => sum + x.retries, 0),
    firstEventToLastDeliverySeconds: r3((last - first) / 1000),
    deliveriesPerSecond: rate(o.delivered, last - first),
    latencyFromPostMs: lat.fromPost,
    cpu,
    serviceCpuSeconds: r3(svc),
    serviceCpuMsPerDelivery: r3((svc * 1000) / Math.max(1, o.delivered)),
    cpuMsPerDeliveryByRole: Object.fromEntries(Object.entries(cpu.perRole).map(([k, v]) => [k, r3((v * 1000) / Math.max(1, o.delivered))])),
    temporalHops,
    /** Machine CPU used by processes that are not part of this bench (other jobs on the box). */
    otherProcessesCpuSeconds: r3(Math.max(0, cpu.machineBusySeconds - ours)),
  };
}
