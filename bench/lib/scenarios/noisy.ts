/**
 * Scenario `noisy` (issue 33, a fair share per owner): owner A bursts `--noisy-events` orders to
 * a receiver that answers in 2 s while owner B sends 10 orders/s to a fast one; B's first-attempt
 * latency with the burst against B alone before it.
 */
import { ApiClient, closedLoop, type OrderResult } from '../../../stack/harness/api-client';
import { createSubscription, newSecret } from '../../../stack/harness/subscribe';
import { ApiKeyRepository } from '../../../stack/harness/service';
import { ReceiverProcess } from '../../../stack/harness/receiver-client';
import { type Ctx, quiesce, r3 } from '../context';
import { loadAverage } from '../../../stack/harness/proc';
import { awaitDeliveries, breakdown, latencies } from '../outcome';
import { nowMs, sleep } from '../../../stack/harness/stats';

/** The quiet owner's steady rate, and how long the slow receiver takes to answer. */
const quietPerSecond = 10;
const slowAnswerMs = 2000;
/** Most quiet orders during the burst (5 min at 10/s): the run stays bounded if the burst never drains. */
const maxQuietDuring = 3000;

/** An API client with a key of its own for `owner`: its orders' events go to that owner's subscriptions only. */
async function ownerClient(ctx: Ctx, owner: string): Promise<ApiClient> {
  const { key } = await new ApiKeyRepository(ctx.stack.db).create({ ownerId: owner, name: owner, scopes: ['orders:write', 'resources:read', 'webhooks:read', 'webhooks:write'] });
  return new ApiClient(ctx.stack.apiUrl, key, Math.max(64, ctx.opts.concurrency));
}

/** Orders from `api` at `perSecond`, open loop, until `more(i)` says stop; their answers. */
async function steady(api: ApiClient, perSecond: number, more: (sent: number) => boolean): Promise<OrderResult[]> {
  const pending: Array<Promise<OrderResult>> = [];
  const t0 = nowMs();
  for (let i = 0; more(i); i++) {
    const wait = t0 + (i * 1000) / perSecond - nowMs();
    if (wait > 0) await sleep(wait);
    pending.push(api.createOrder());
  }
  return Promise.all(pending);
}

/** Awaits `orders`' deliveries to the one subscription `tag` → `id` at `receiver` (ctx's swapped for the check); with `split`, where B's time went. */
async function deliveredTo(ctx: Ctx, receiver: ReceiverProcess, tag: string, id: string, orders: OrderResult[], label: string, split = false) {
  const own = { subs: ctx.subs, receiver: ctx.receiver };
  Object.assign(ctx, { subs: new Map([[tag, id]]), receiver });
  try {
    const o = await awaitDeliveries(ctx, label, orders);
    return { ...o, breakdownMs: split ? await breakdown(ctx, o, true) : undefined };
  } finally {
    Object.assign(ctx, own);
  }
}

/** B's worst latency from POST in each 10 s (by when B posted, from `t0`): when in the burst the waits happened. */
function worstBy10s(o: { arrivals: Array<{ eventId: string; t: number }>; events: Map<string, { postStart: number }> }, t0: number): number[] {
  const worst: number[] = [];
  for (const a of o.arrivals) {
    const e = o.events.get(a.eventId);
    if (!e) continue;
    const k = Math.max(0, Math.floor((e.postStart - t0) / 10_000));
    worst[k] = Math.max(worst[k] ?? 0, Math.round(a.t - e.postStart));
  }
  return Array.from(worst, (w) => w ?? 0);
}

/**
 * B alone (`--noisy-baseline` orders at 10/s), then A's burst from C concurrent clients with B's
 * 10/s beside it until every burst delivery arrived. Deliveries are checked as in every run.
 */
export async function noisyNeighbour(ctx: Ctx) {
  const n = ctx.opts.noisyEvents;
  const [apiA, apiB] = [await ownerClient(ctx, 'noisy-a'), await ownerClient(ctx, 'noisy-b')];
  // B's receiver is a process (an origin) of its own: the worker's HTTP agent pools sockets per origin, and owners do not share receivers.
  const quietReceiver = await ReceiverProcess.start();
  const secrets = { burst: newSecret(), quiet: newSecret() };
  await ctx.receiver.request({ type: 'configure', secrets: { burst: secrets.burst }, sampleEvery: ctx.opts.sampleEvery });
  await quietReceiver.request({ type: 'configure', secrets: { quiet: secrets.quiet }, sampleEvery: ctx.opts.sampleEvery });
  await ctx.receiver.request({ type: 'answer', status: 200, hang: [], delayMs: { burst: slowAnswerMs } });
  const burstId = await createSubscription({ api: apiA, receiver: ctx.receiver }, 'burst', secrets.burst);
  const quietId = await createSubscription({ api: apiB, receiver: quietReceiver }, 'quiet', secrets.quiet);
  try {
    await quietReceiver.request({ type: 'reset' });
    ctx.log(`noisy: owner B alone, ${ctx.opts.noisyBaseline} events at ${quietPerSecond}/s`);
    const aloneOrders = await steady(apiB, quietPerSecond, (i) => i < ctx.opts.noisyBaseline);
    const alone = await deliveredTo(ctx, quietReceiver, 'quiet', quietId, aloneOrders, 'noisy: B alone', true);
    await quiesce(ctx, 'noisy: B alone');

    await ctx.receiver.request({ type: 'reset' });
    await quietReceiver.request({ type: 'reset' });
    ctx.log(`noisy: owner A bursts ${n} events (${ctx.opts.concurrency} concurrent clients) to a receiver answering in ${slowAnswerMs} ms; owner B ${quietPerSecond}/s beside it`);
    const load0 = loadAverage();
    const t0 = nowMs();
    let burstPosted = 0;
    const burst = closedLoop(n, ctx.opts.concurrency, () => apiA.createOrder()).then((orders) => {
      burstPosted = nowMs();
      return orders;
    });
    // B keeps sending until A's every accepted burst order reached its receiver.
    let aAccepted = n;
    void burst.then((orders) => (aAccepted = orders.filter((o) => o.ok).length));
    let burstArrived = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        burstArrived = (await ctx.receiver.request({ type: 'progress' })).byTag.burst ?? 0;
        await sleep(250);
      }
    })();
    const during = await steady(apiB, quietPerSecond, (i) => i < maxQuietDuring && (i < 20 || !burstPosted || burstArrived < aAccepted));
    watching = false;
    await watch;
    const burstOrders = await burst;
    const quiet = await deliveredTo(ctx, quietReceiver, 'quiet', quietId, during, 'noisy: B beside the burst', true);
    const noisy = await deliveredTo(ctx, ctx.receiver, 'burst', burstId, burstOrders, 'noisy: A\'s burst');
    const burstLast = Math.max(...noisy.arrivals.map((a) => a.t));
    await quiesce(ctx, 'noisy: burst');
    const aloneLat = latencies(alone).fromPost;
    const withLat = latencies(quiet).fromPost;
    return {
      burstEvents: n,
      burstAccepted: burstOrders.filter((o) => o.ok).length,
      slowAnswerMs,
      quietEventsPerSecond: quietPerSecond,
      burstPostsSeconds: r3((burstPosted - t0) / 1000),
      /** First burst POST to its last delivery's arrival. */
      burstDeliveredSeconds: r3((burstLast - t0) / 1000),
      burstDelivered: noisy.delivered,
      quietAlone: { events: aloneOrders.length, delivered: alone.delivered, latencyFromPostMs: aloneLat, breakdownMs: alone.breakdownMs },
      quietWithBurst: { events: during.length, delivered: quiet.delivered, failed: quiet.failed, latencyFromPostMs: withLat, breakdownMs: quiet.breakdownMs, worstMsBy10s: worstBy10s(quiet, t0) },
      /** B's p99 with the burst over alone (target ≤ 2). */
      p99Ratio: r3(withLat.p99 / Math.max(1, aloneLat.p99)),
      p50Ratio: r3(withLat.p50 / Math.max(1, aloneLat.p50)),
      loadAverageAtBurst: load0,
    };
  } finally {
    await ctx.receiver.request({ type: 'answer', status: 200, hang: [] });
    for (const [api, id] of [[apiA, burstId], [apiB, quietId]] as const) await api.request('DELETE', `/api/webhooks/v1/subscriptions/${id}`);
    apiA.close();
    apiB.close();
    await quietReceiver.stop();
  }
}
