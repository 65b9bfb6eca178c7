/** One subscriber that never answers must not slow down the others: their throughput with and without it. */
import { type Ctx, createSubscription, newSecret, quiesce } from '../context';
import { throughput } from './throughput';

/**
 * Throughput of the M healthy subscriptions, then again with one more subscription whose
 * receiver never answers (each POST to it runs into DELIVERY_TIMEOUT and is retried). Its own
 * deliveries are not waited for: it is paused afterwards, which ends them at their next attempt.
 */
export async function slowReceiver(ctx: Ctx) {
  const without = await throughput(ctx, ctx.opts.events, 'slow receiver: healthy subscriptions alone');
  const tag = 'slow';
  await ctx.receiver.request({ type: 'configure', secrets: { [tag]: newSecret() }, sampleEvery: ctx.opts.sampleEvery });
  await ctx.receiver.request({ type: 'answer', status: 200, hang: [tag] });
  const slowId = await createSubscription(ctx, tag, newSecret());
  let withSlow: Awaited<ReturnType<typeof throughput>>;
  try {
    // ctx.subs stays the healthy ones: only their deliveries are awaited and counted; the slow
    // one's retries are still pending when it ends, so it does not wait for quiet.
    withSlow = await throughput(ctx, ctx.opts.events, 'slow receiver: with one that never answers', false);
  } finally {
    await ctx.api.request('PATCH', `/api/webhooks/v1/subscriptions/${slowId}`, { status: 'paused' });
    await ctx.receiver.request({ type: 'answer', status: 200, hang: [] });
  }
  await quiesce(ctx, 'slow receiver');
  await ctx.api.request('DELETE', `/api/webhooks/v1/subscriptions/${slowId}`);
  return {
    healthySubscriptions: ctx.subs.size,
    without: { deliveriesPerSecond: without.deliveriesPerSecond, latencyFromPostMs: without.latencyFromPostMs },
    withSlow: { deliveriesPerSecond: withSlow.deliveriesPerSecond, latencyFromPostMs: withSlow.latencyFromPostMs },
    /** Healthy throughput with the slow subscriber over without it (1 = unaffected). */
    ratio: Math.round((withSlow.deliveriesPerSecond / without.deliveriesPerSecond) * 1000) / 1000,
  };
}
