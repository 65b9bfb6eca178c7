/** The service's background work: CPU with no load (`background`), and one retention pass over old attempts (`retention`). */
import { AttemptRepository, type RetentionResult, retentionScheduleId } from '../../../stack/harness/service';
import { type Ctx, quiesce, r3, rate } from '../context';
import { CpuMeter } from '../../../stack/harness/proc';
import { nowMs, sleep, summarize } from '../../../stack/harness/stats';

/**
 * CPU the service burns with nothing to do, over `--background` seconds near the end: the
 * relay's passes (every RELAY_INTERVAL) and the servers' own timers. Reported with the
 * collection sizes and what single database operations take at that size.
 */
export async function background(ctx: Ctx) {
  const seconds = ctx.opts.background;
  ctx.log(`background: ${seconds} s with no load`);
  const cpu0 = ctx.meter.snapshot();
  await sleep(seconds * 1000);
  const cpu = CpuMeter.diff(cpu0, ctx.meter.snapshot());
  const perSecond = Object.fromEntries(Object.entries(cpu.perRole).map(([k, v]) => [k, r3((v * 1000) / cpu.wallSeconds)]));
  // What the relay's two queries and a single-document read/write cost at this size (ms, median of 5).
  const db = ctx.stack.db;
  const time = async (f: () => Promise<unknown>) => {
    const v: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await f();
      v.push(performance.now() - t);
    }
    return summarize(v).p50;
  };
  const anyEvent = await db.collection<{ _id: string }>('events').findOne({}, { projection: { _id: 1 } });
  const dbProbeMs = {
    relayNotes: await time(() => db.collection('dispatch_notes').find({ created_at: { $lt: new Date(Date.now() - 1000) } }).limit(200).toArray()),
    orderById: await time(() => db.collection('orders').findOne({ _id: '1' } as object)),
    eventById: await time(() => db.collection('events').findOne({ _id: anyEvent?._id ?? '' } as object)),
    eventUpdateById: await time(() => db.collection('events').updateOne({ _id: anyEvent?._id ?? '' } as object, { $set: { bench_touch: 1 } })),
  };
  return {
    seconds,
    cpuMsPerSecondByRole: perSecond,
    dbProbeMs,
    orders: await ctx.stack.db.collection('orders').estimatedDocumentCount(),
    events: await ctx.stack.db.collection('events').estimatedDocumentCount(),
  };
}

const dayMs = 24 * 60 * 60 * 1000;
const insertBatch = 1000;

/**
 * Inserts `--retention-docs` attempts dated 40 days back (the repository's bulk write in rounds of
 * 1000, so they are listed in the time buckets retention deletes by, as stored attempts are), measures
 * order latency (one order at a time), then triggers the worker's `webhook-retention` schedule and
 * times the pass it starts (RETENTION_BATCH_SIZE rounds, as configured) while ordering on, one at a
 * time: docs/s, the pass's duration and CPU by process, order latency before and during it.
 */
export async function retention(ctx: Ctx) {
  const docs = ctx.opts.retentionDocs;
  const db = ctx.stack.db;
  const attempts = db.collection<{ _id: string }>('attempts');
  const repository = new AttemptRepository(db);
  ctx.log(`retention: inserting ${docs} attempts 40 days old`);
  const old = new Date(Date.now() - 40 * dayMs);
  const t0 = nowMs();
  for (let i = 0; i < docs; i += insertBatch) {
    const n = Math.min(insertBatch, docs - i);
    await repository.recordMany(
      Array.from({ length: n }, (_, k) => ({
        _id: `att_bench_retention_${i + k}`,
        event_id: `evt_bench_retention_${Math.floor((i + k) / 5)}`,
        subscription_id: 'sub_bench_retention',
        series: `series_bench_retention_${i + k}`,
        attempt: 1,
        // Spread over 14 hours, as real attempts are (the rounds bound a batch by its last date).
        started_at: new Date(old.getTime() + (i + k) * 500),
        duration_ms: 12,
        outcome: 'delivered' as const,
        status_code: 200,
        url: 'http://127.0.0.1:1/hook',
        state: 'delivered' as const,
      })),
    );
  }
  const insertSeconds = r3((nowMs() - t0) / 1000);
  const stored = await attempts.estimatedDocumentCount();

  const before = [];
  for (let i = 0; i < 20; i++) before.push(await ctx.api.createOrder());

  const client = await ctx.stack.temporal.client();
  const schedule = client.schedule.getHandle(retentionScheduleId(ctx.stack.config.temporal.taskQueue));
  const startedBy = async () => (await schedule.describe()).info.recentActions.map((a) => a.action.workflow.workflowId);
  const seen = new Set(await startedBy());
  ctx.log(`retention: ${stored} attempts stored (inserted in ${insertSeconds} s); triggering ${retentionScheduleId(ctx.stack.config.temporal.taskQueue)}`);
  const cpu0 = ctx.meter.snapshot();
  const p0 = nowMs();
  await schedule.trigger();
  let workflowId: string | undefined;
  for (let i = 0; i < 200 && !workflowId; i++) {
    workflowId = (await startedBy()).find((id) => !seen.has(id));
    if (!workflowId) await sleep(100);
  }
  if (!workflowId) throw new Error('retention: the schedule did not start a pass within 20 s');
  let done = false;
  const pass = client.workflow
    .getHandle<() => Promise<RetentionResult>>(workflowId)
    .result()
    .finally(() => (done = true));
  // Orders one at a time while the pass runs (bounded: at most 10 minutes of them).
  const during = [];
  while (!done && nowMs() - p0 < 600_000) during.push(await ctx.api.createOrder());
  const result = await pass;
  // A pass that leaves the old attempts in place measured nothing: say so rather than print a rate.
  if (result.deleted.attempts < docs) throw new Error(`retention: the pass deleted ${result.deleted.attempts} of the ${docs} old attempts`);
  const passMs = nowMs() - p0;
  const cpu = CpuMeter.diff(cpu0, ctx.meter.snapshot());
  await quiesce(ctx, 'retention');
  const latency = (orders: { ok: boolean; latencyMs: number }[]) => summarize(orders.filter((o) => o.ok).map((o) => o.latencyMs));
  return {
    docs,
    insertSeconds,
    attemptsStored: stored,
    deleted: result.deleted,
    batches: result.batches,
    passSeconds: r3(passMs / 1000),
    docsPerSecond: rate(result.deleted.attempts + result.deleted.events, passMs),
    cpuSecondsByRole: Object.fromEntries(Object.entries(cpu.perRole).map(([k, v]) => [k, r3(v)])),
    orderLatencyBeforeMs: latency(before),
    orderLatencyDuringMs: latency(during),
    attemptsLeft: await attempts.estimatedDocumentCount(),
  };
}
