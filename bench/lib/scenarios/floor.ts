/** The Temporal floor of the service's shape, measured in the same run (bench/floor/floor.ts, in this process). */
import { type FloorResult, type FloorShape, runFloor } from '../../floor/floor';
import type { Ctx } from '../context';

/**
 * Runs the floor at `events` × `subs` in `shape` on a dev server of its own (the service idles
 * meanwhile), with the bench's SQLite setting, and returns its deliveries/s and CPU per delivery.
 */
export async function floor(ctx: Ctx, events: number, subs: number, shape: FloorShape = 'event'): Promise<FloorResult> {
  ctx.log(`floor: ${events} events × ${subs} subscriptions, ${shape} shape, on its own dev server`);
  const r = await runFloor({ shape, events, subs, fastSqlite: ctx.opts.fastSqlite, maxSeconds: 300 }, (line) => ctx.log(`floor: ${line}`));
  if (r.delivered !== r.expected) ctx.log(`floor: WARNING only ${r.delivered}/${r.expected} deliveries completed within its time limit`);
  return r;
}
