/** Warm-up: JIT, the worker's workflow bundle, connection pools. */
import { closedLoop } from '../api-client';
import { type Ctx, createSubscription, newSecret, quiesce } from '../context';
import { VoidRun } from '../lifecycle';
import { nowMs, sleep } from '../stats';

/** Pushes a few orders through a throw-away subscription until they arrive: JIT, worker bundle, pools. */
export async function warmUp(ctx: Ctx): Promise<void> {
  const secret = newSecret();
  await ctx.receiver.request({ type: 'configure', secrets: { warmup: secret }, sampleEvery: 1 });
  await ctx.receiver.request({ type: 'reset' });
  const id = await createSubscription(ctx, 'warmup', secret);
  const orders = await closedLoop(5, 5, () => ctx.api.createOrder());
  const bad = orders.find((o) => !o.ok);
  if (bad) throw new Error(`warm-up order failed: HTTP ${bad.status} ${bad.error}`);
  const deadline = nowMs() + 180_000;
  for (;;) {
    const p = await ctx.receiver.request({ type: 'progress' });
    if (p.unique >= orders.length) break;
    if (nowMs() > deadline) throw new Error(`warm-up: ${p.unique}/${orders.length} deliveries arrived within 180 s; the worker may not be polling`);
    await sleep(100);
  }
  const del = await ctx.api.request('DELETE', `/api/webhooks/v1/subscriptions/${id}`);
  if (del.status !== 204) throw new Error(`deleting the warm-up subscription failed: HTTP ${del.status}`);
  const dump = await ctx.receiver.request({ type: 'dump' });
  if (dump.badSignatures.length) throw new VoidRun(`warm-up: signatures did not verify: ${dump.badSignatures.join('; ')}`);
  await quiesce(ctx, 'warm-up');
}
