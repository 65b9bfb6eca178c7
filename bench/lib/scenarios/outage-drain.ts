/** A receiver outage: events keep coming while every POST gets 503; how long the backlog takes to drain once it is back. */
import { type Ctx, quiesce, r3 } from '../context';
import { awaitDeliveries, checkComplete } from '../outcome';
import { nowMs, sleep } from '../stats';

/**
 * For `--outage` seconds the receiver answers 503 to every POST while orders arrive at 2 per
 * second (each to M subscriptions); then it answers 200 again. Reports how long after the
 * outage ended the last of those deliveries arrived (bounded by the retry schedule's waits).
 */
export async function outageDrain(ctx: Ctx) {
  const seconds = ctx.opts.outage;
  const eventsPerSecond = 2;
  await ctx.receiver.request({ type: 'reset' });
  ctx.log(`outage: receiver answers 503 for ${seconds}s while ${eventsPerSecond} events/s × ${ctx.subs.size} subscriptions arrive`);
  await ctx.receiver.request({ type: 'answer', status: 503, hang: [] });
  const t0 = nowMs();
  const pending: Array<ReturnType<typeof ctx.api.createOrder>> = [];
  let ended = t0;
  try {
    const count = Math.round(seconds * eventsPerSecond);
    for (let i = 0; i < count; i++) {
      const wait = t0 + (i * 1000) / eventsPerSecond - nowMs();
      if (wait > 0) await sleep(wait);
      pending.push(ctx.api.createOrder());
    }
    const rest = t0 + seconds * 1000 - nowMs();
    if (rest > 0) await sleep(rest);
  } finally {
    await ctx.receiver.request({ type: 'answer', status: 200, hang: [] });
    ended = nowMs();
  }
  const orders = await Promise.all(pending);
  const o = await awaitDeliveries(ctx, orders.length, orders);
  checkComplete(ctx, 'outage', o, false);
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
