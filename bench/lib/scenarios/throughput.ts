/** Scenario b: N events × M subscriptions as fast as they go (d: CPU per delivery), at other fan-outs, beside a slow receiver; and the warm-up. */
import { closedLoop } from '../../../stack/harness/api-client';
import { type Ctx, isServiceRole, quiesce, r3, rate, serviceCpu } from '../context';
import { createSubscription, newSecret } from '../../../stack/harness/subscribe';
import { CostMeter } from '../cost';
import { VoidRun } from '../../../stack/harness/lifecycle';
import { awaitDeliveries, latencies } from '../outcome';
import { CpuMeter } from '../../../stack/harness/proc';
import { nowMs, sleep } from '../../../stack/harness/stats';

/**
 * `n` events (default --events) to every subscription of `ctx.subs`, from C concurrent clients;
 * then, unless `settle` is false, waits until no workflow runs any more.
 */
export async function throughput(ctx: Ctx, n = ctx.opts.events, label = 'throughput', settle = true) {
  await ctx.receiver.request({ type: 'reset' });
  ctx.log(`${label}: ${n} events × ${ctx.subs.size} subscriptions = ${n * ctx.subs.size} deliveries (${ctx.opts.concurrency} concurrent clients)`);
  const cost0 = await ctx.cost.snapshot();
  const cpu0 = ctx.meter.snapshot();
  const t0 = nowMs();
  const orders = await closedLoop(n, ctx.opts.concurrency, () => ctx.api.createOrder());
  const postsDone = nowMs();
  const o = await awaitDeliveries(ctx, label, orders, true);
  const cpu = CpuMeter.diff(cpu0, ctx.meter.snapshot());
  const first = Math.min(...orders.map((x) => x.startedAt));
  const last = Math.max(...o.arrivals.map((a) => a.t));
  const svc = serviceCpu(cpu);
  const ours = Object.values(cpu.perRole).reduce((a, b) => a + b, 0);
  if (settle) await quiesce(ctx, label);
  const dbCost = CostMeter.diff(cost0, await ctx.cost.snapshot(), orders.filter((x) => x.ok).length, o.delivered);
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
    latencyFromPostMs: latencies(o).fromPost,
    cpu,
    serviceCpuSeconds: r3(svc),
    serviceCpuMsPerDelivery: r3((svc * 1000) / Math.max(1, o.delivered)),
    /** The service's processes (PostgreSQL's backends included); then the receiver and the bench apart. */
    cpuMsPerDeliveryByRole: Object.fromEntries(Object.entries(cpu.perRole).filter(([k]) => isServiceRole(k)).map(([k, v]) => [k, r3((v * 1000) / Math.max(1, o.delivered))])),
    cpuMsPerDeliveryApart: Object.fromEntries(Object.entries(cpu.perRole).filter(([k]) => !isServiceRole(k)).map(([k, v]) => [k, r3((v * 1000) / Math.max(1, o.delivered))])),
    /** Database commands and SQL statements of the run (with settle: until every workflow ended). */
    dbCost,
    /** Machine CPU used by processes that are not part of this bench (other jobs on the box). */
    otherProcessesCpuSeconds: r3(Math.max(0, cpu.machineBusySeconds - ours)),
  };
}

/** Events of the throughput run at `m` subscriptions per event: `--wide-events` for wide fan-outs, else `--events`. */
export const fanOutEvents = (ctx: Pick<Ctx, 'opts'>, m: number) => (m >= 20 ? ctx.opts.wideEvents : ctx.opts.events);

/** The throughput run on `m` subscriptions of its own while the scenario's own are set aside; then those are deleted and these restored. */
export async function fanOut(ctx: Ctx, m: number) {
  const secrets = Object.fromEntries(Array.from({ length: m }, (_, i) => [`m${m}_${i}`, newSecret()]));
  await ctx.receiver.request({ type: 'configure', secrets, sampleEvery: ctx.opts.sampleEvery });
  return onSubscriptionsOfItsOwn(
    ctx,
    async (add) => {
      for (const [tag, secret] of Object.entries(secrets)) add(tag, await createSubscription(ctx, tag, secret));
    },
    () => throughput(ctx, fanOutEvents(ctx, m), `throughput, ${m} subscriptions`),
  );
}

/**
 * Runs `run` on the subscriptions `create` makes (passing each to `add` with its receiver tag)
 * while the scenario's own are set aside (subscribed to a type the bench never emits: a pause would
 * hold their events and drain them afterwards); then deletes them and restores those.
 */
export async function onSubscriptionsOfItsOwn<T>(ctx: Ctx, create: (add: (tag: string, id: string) => void) => Promise<void>, run: () => Promise<T>): Promise<T> {
  const own = ctx.subs;
  for (const id of own.values()) await setEvents(ctx, id, [SET_ASIDE_TYPE]);
  ctx.subs = new Map();
  try {
    await create((tag, id) => ctx.subs.set(tag, id));
    return await run();
  } finally {
    for (const id of ctx.subs.values()) await ctx.api.request('DELETE', `/api/webhooks/v1/subscriptions/${id}`);
    ctx.subs = own;
    for (const id of own.values()) await setEvents(ctx, id, ['order.created']);
  }
}

/** An event type no scenario emits: a subscription to it alone receives nothing and holds nothing. */
const SET_ASIDE_TYPE = 'order.updated';

async function setEvents(ctx: Ctx, id: string, events: string[]): Promise<void> {
  const res = await ctx.api.request('PATCH', `/api/webhooks/v1/subscriptions/${id}`, { events });
  if (res.status !== 200) throw new Error(`setting subscription ${id} to ${events.join(', ')} failed: HTTP ${res.status}`);
}

/**
 * A receiver that never answers must not slow down the others: throughput of the M healthy
 * subscriptions alone, then beside one more whose every POST runs into DELIVERY_TIMEOUT. Only the
 * healthy ones' deliveries are awaited; the slow one is deleted afterwards, which ends its retries.
 */
export async function slowReceiver(ctx: Ctx) {
  const without = await throughput(ctx, ctx.opts.events, 'slow receiver: healthy subscriptions alone');
  await ctx.receiver.request({ type: 'configure', secrets: { slow: newSecret() }, sampleEvery: ctx.opts.sampleEvery });
  await ctx.receiver.request({ type: 'answer', status: 200, hang: ['slow'] });
  const slowId = await createSubscription(ctx, 'slow', newSecret());
  let withSlow: typeof without;
  try {
    withSlow = await throughput(ctx, ctx.opts.events, 'slow receiver: with one that never answers', false);
  } finally {
    await ctx.api.request('DELETE', `/api/webhooks/v1/subscriptions/${slowId}`);
    await ctx.receiver.request({ type: 'answer', status: 200, hang: [] });
  }
  await quiesce(ctx, 'slow receiver');
  const pick = (r: typeof without) => ({ deliveriesPerSecond: r.deliveriesPerSecond, latencyFromPostMs: r.latencyFromPostMs });
  /** `ratio`: healthy throughput with the slow subscriber over without it (1 = unaffected). */
  return { healthySubscriptions: ctx.subs.size, without: pick(without), withSlow: pick(withSlow), ratio: r3(withSlow.deliveriesPerSecond / without.deliveriesPerSecond) };
}

/** Pushes a few orders through a throw-away subscription until they arrive: JIT, the worker's workflow bundle, pools. */
export async function warmUp(ctx: Ctx): Promise<void> {
  const secret = newSecret();
  await ctx.receiver.request({ type: 'configure', secrets: { warmup: secret }, sampleEvery: 1 });
  await ctx.receiver.request({ type: 'reset' });
  const id = await createSubscription(ctx, 'warmup', secret);
  const orders = await closedLoop(5, 5, () => ctx.api.createOrder());
  const bad = orders.find((o) => !o.ok);
  if (bad) throw new Error(`warm-up order failed: HTTP ${bad.status} ${bad.error}`);
  const deadline = nowMs() + 180_000;
  while ((await ctx.receiver.request({ type: 'progress' })).unique < orders.length) {
    if (nowMs() > deadline) throw new Error('warm-up: the deliveries did not arrive within 180 s; the worker may not be polling');
    await sleep(100);
  }
  const del = await ctx.api.request('DELETE', `/api/webhooks/v1/subscriptions/${id}`);
  if (del.status !== 204) throw new Error(`deleting the warm-up subscription failed: HTTP ${del.status}`);
  const dump = await ctx.receiver.request({ type: 'dump' });
  if (dump.badSignatures.length) throw new VoidRun(`warm-up: signatures did not verify: ${dump.badSignatures.join('; ')}`);
  await quiesce(ctx, 'warm-up');
}
