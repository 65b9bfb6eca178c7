/** CPU with no load, and what single database operations cost at the stored size. */
import { type Ctx, r3 } from '../context';
import { CpuMeter } from '../proc';
import { sleep, summarize } from '../stats';

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
