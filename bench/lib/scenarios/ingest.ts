/** Scenario a: order ingest, with and without subscriptions. */
import { eventWorkflowId } from '../service';
import type { OrderResult } from '../api-client';
import { closedLoop } from '../api-client';
import { type Ctx, quiesce, r3, rate } from '../context';
import { awaitDeliveries, checkComplete, eventsForOrders } from '../outcome';
import { CpuMeter } from '../proc';
import { nowMs, sleep, summarize } from '../stats';

/**
 * `--ingest` orders from C concurrent clients to the subscriptions of `ctx.subs` (none or M):
 * orders/s, latency and the API's CPU per order; with subscriptions, also the deliveries
 * meanwhile, checked like any run.
 */
export async function ingest(ctx: Ctx, label: string) {
  await ctx.receiver.request({ type: 'reset' });
  ctx.log(`${label}: ${ctx.opts.ingest} orders, ${ctx.opts.concurrency} concurrent clients, ${ctx.subs.size} subscriptions`);
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
  let stuck: Record<string, unknown> | undefined;
  if (!ctx.subs.size) stuck = await terminateStuckEventWorkflows(ctx, orders);
  if (ctx.subs.size) {
    const o = await awaitDeliveries(ctx, orders.length, orders);
    checkComplete(ctx, label, o, false);
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
  return { ...result, ...(deliveries ? { deliveries } : {}), ...(stuck ? { stuckEventWorkflows: stuck } : {}) };
}

/**
 * Guard for the 0-subscription run: events logged with no subscriber used to lose their empty
 * `subscription_ids` on FerretDB v1 (it drops empty arrays from a `$setOnInsert` upsert; fixed in
 * 3a381b4 by a plain insert), which made every such event workflow fail its task forever. The
 * bench counts events stored without the field, waits briefly for the healthy workflows, and
 * terminates any stuck ones so they cannot load the later scenarios.
 */
export async function terminateStuckEventWorkflows(ctx: Ctx, orders: OrderResult[]): Promise<Record<string, unknown>> {
  const events = await eventsForOrders(ctx, orders);
  const ids = [...events.keys()];
  const missing = await ctx.stack.db
    .collection<{ _id: string }>('events')
    .find({ _id: { $in: ids }, subscription_ids: { $exists: false } }, { projection: { _id: 1 } })
    .toArray();
  const client = await ctx.stack.temporal.client();
  const deadline = nowMs() + 15_000;
  let running = 0;
  let terminated = 0;
  for (;;) {
    running = (await client.workflow.count('ExecutionStatus="Running"')).count;
    if (running <= missing.length || nowMs() > deadline) break;
    await sleep(250);
  }
  if (running > 0) {
    for (const e of missing) {
      try {
        await client.workflow.getHandle(eventWorkflowId(e._id)).terminate('bench: event workflow stuck (subscription_ids missing)');
        terminated++;
      } catch {
        // already closed
      }
    }
  }
  if (missing.length) ctx.log(`${missing.length} of ${ids.length} events were stored without subscription_ids; ${terminated} stuck event workflows terminated`);
  return { events: ids.length, storedWithoutSubscriptionIds: missing.length, runningAfterIngest: running, terminated };
}
