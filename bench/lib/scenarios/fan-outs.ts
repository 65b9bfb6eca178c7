/** Throughput at other fan-outs than M (1 and 50 subscriptions per event), with their own subscriptions. */
import { type Ctx, createSubscription, newSecret } from '../context';
import { throughput } from './throughput';

/** Events of the throughput run at `m` subscriptions per event: `--wide-events` for wide fan-outs, else `--events`. */
export const fanOutEvents = (ctx: Pick<Ctx, 'opts'>, m: number) => (m >= 20 ? ctx.opts.wideEvents : ctx.opts.events);

/**
 * Runs the throughput scenario with `m` subscriptions per event of their own (the scenario's
 * own are paused meanwhile), then deletes them and makes the scenario's own active again.
 */
export async function fanOut(ctx: Ctx, m: number) {
  const own = ctx.subs;
  const secrets: Record<string, string> = {};
  for (let i = 0; i < m; i++) secrets[`m${m}_${i}`] = newSecret();
  await ctx.receiver.request({ type: 'configure', secrets, sampleEvery: ctx.opts.sampleEvery });
  // Only these m subscriptions for the run: the others are paused meanwhile.
  for (const id of own.values()) await setStatus(ctx, id, 'paused');
  const subs = new Map<string, string>();
  for (const [tag, secret] of Object.entries(secrets)) subs.set(tag, await createSubscription(ctx, tag, secret));
  ctx.subs = subs;
  try {
    return await throughput(ctx, fanOutEvents(ctx, m), `throughput, ${m} subscriptions`);
  } finally {
    ctx.subs = own;
    for (const id of subs.values()) await ctx.api.request('DELETE', `/api/webhooks/v1/subscriptions/${id}`);
    for (const id of own.values()) await setStatus(ctx, id, 'active');
  }
}

/** Pauses or resumes one subscription. */
async function setStatus(ctx: Ctx, id: string, status: 'active' | 'paused'): Promise<void> {
  const res = await ctx.api.request('PATCH', `/api/webhooks/v1/subscriptions/${id}`, { status });
  if (res.status !== 200) throw new Error(`setting subscription ${id} ${status} failed: HTTP ${res.status}`);
}
