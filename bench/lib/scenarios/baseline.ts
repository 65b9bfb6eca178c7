/** Scenario e: the same fan-out as a plain in-process sign-and-POST loop. */
import { loadConfig, postWebhook, renderEnvelope, signatureHeaders } from '../../../stack/harness/service';
import { closedLoop } from '../../../stack/harness/api-client';
import { type Ctx, r3, rate } from '../context';
import { VoidRun } from '../../../stack/harness/lifecycle';
import { nowMs, sleep, summarize } from '../../../stack/harness/stats';

/** The same fan-out without the service: sign and POST each delivery from a plain in-process loop. */
export async function baseline(ctx: Ctx) {
  const tags = [...ctx.subs.keys()];
  // Each subscription's signing secret as the worker signs with it: stored sealed, opened with the run's key.
  const stored = await ctx.stack.db
    .collection<{ _id: string; secrets: Array<{ secret: string }> }>('subscriptions')
    .find({ _id: { $in: [...ctx.subs.values()] } })
    .toArray();
  const secretOf = new Map([...ctx.subs].map(([tag, id]) => [tag, ctx.stack.secretBox.open(stored.find((s) => s._id === id)!.secrets[0]!.secret, id)]));
  // Rendered as the worker renders them: with the resource link, under the default inline limit.
  const payloads = loadConfig({}).delivery.payloads;
  const run = async (prefix: string, events: number) => {
    await ctx.receiver.request({ type: 'reset' });
    const jobs = Array.from({ length: events * tags.length }, (_, i) => ({ event: `evt_${prefix}_${Math.floor(i / tags.length)}`, tag: tags[i % tags.length]! }));
    await ctx.receiver.request({ type: 'expect', eventIds: [...new Set(jobs.map((j) => j.event))] });
    const cpu0 = process.cpuUsage();
    const t0 = nowMs();
    const starts = new Map<string, number>();
    const results = await closedLoop(jobs.length, ctx.opts.baselineConcurrency, async (i) => {
      const job = jobs[i]!;
      const start = nowMs();
      starts.set(`${job.event}|${job.tag}`, start);
      const createdAt = new Date();
      const body = renderEnvelope(1, { id: job.event, type: 'order.created', data: { order_id: i, total: 1, currency: 'EUR', status: 'pending', user_id: 1 }, created_at: createdAt }, payloads);
      const headers = {
        'Content-Type': 'application/json',
        'User-Agent': 'WebhookService/bench-baseline',
        ...signatureHeaders({ id: job.event, timestamp: Math.floor(createdAt.getTime() / 1000), body, secrets: [secretOf.get(job.tag)!] }),
      };
      return postWebhook({ url: `${ctx.receiver.url}/hook/${job.tag}`, body, headers, timeoutMs: 5000, allowPrivate: true });
    });
    const cpu = process.cpuUsage(cpu0);
    const dump = await ctx.receiver.request({ type: 'dump' }, 60_000);
    const arrivals = dump.arrivals.filter((a) => starts.has(`${a.eventId}|${a.tag}`));
    const last = Math.max(...arrivals.map((a) => a.t));
    return {
      deliveries: jobs.length,
      delivered: results.filter((r) => r.outcome === 'delivered').length,
      arrived: arrivals.length,
      badSignatures: dump.badSignatures,
      deliveriesPerSecond: rate(arrivals.length, last - t0),
      latencyMs: summarize(arrivals.map((a) => a.t - starts.get(`${a.eventId}|${a.tag}`)!)),
      postRoundTripMs: summarize(results.map((r) => r.durationMs)),
      benchCpuMsPerDelivery: r3((cpu.user + cpu.system) / 1000 / Math.max(1, jobs.length)),
    };
  };
  await run('baseline_warm', 20);
  ctx.log(`baseline: ${ctx.opts.events} × ${tags.length} deliveries signed and POSTed in-process, concurrency ${ctx.opts.baselineConcurrency}`);
  const r = await run('baseline', ctx.opts.events);
  if (r.arrived !== r.deliveries || r.badSignatures.length) {
    throw new VoidRun(`baseline: ${r.arrived}/${r.deliveries} arrived${r.badSignatures.length ? `; bad signatures: ${r.badSignatures.join('; ')}` : ''}`);
  }
  // Single deliveries 1 apart in time, like the idle run: the floor of one signed POST.
  const single: number[] = [];
  for (let i = 0; i < 20; i++) {
    await ctx.receiver.request({ type: 'reset' });
    const id = `evt_baseline_idle_${i}`;
    const start = nowMs();
    const body = renderEnvelope(1, { id, type: 'order.created', data: { order_id: i }, created_at: new Date() }, payloads);
    const headers = { 'Content-Type': 'application/json', ...signatureHeaders({ id, timestamp: Math.floor(Date.now() / 1000), body, secrets: [secretOf.get(tags[0]!)!] }) };
    await postWebhook({ url: `${ctx.receiver.url}/hook/${tags[0]}`, body, headers, timeoutMs: 5000, allowPrivate: true });
    const dump = await ctx.receiver.request({ type: 'dump' });
    const a = dump.arrivals.find((x) => x.eventId === id);
    if (a) single.push(a.t - start);
    await sleep(20);
  }
  return { ...r, concurrency: ctx.opts.baselineConcurrency, singleDeliveryLatencyMs: summarize(single) };
}
