/**
 * `npm run bench:floor`: the Temporal floor (bench/floor/floor.ts) from the command line. Starts
 * its own dev server, measures the shape, prints the figures, stops everything.
 *
 *   npm run bench:floor -- [--shape event|activities|children] [--events 200] [--subs 5] [--idle 0]
 *                          [--inflight 16] [--no-upsert] [--await] [--attrs 1] [--flat] [--fast-sqlite] [--max-seconds 300]
 */
import { parseArgs } from 'node:util';
import { defaultFloorOptions, type FloorShape, floorShapes, runFloor } from './floor';

const { values: v } = parseArgs({
  options: {
    shape: { type: 'string', default: defaultFloorOptions.shape },
    events: { type: 'string', default: String(defaultFloorOptions.events) },
    subs: { type: 'string', default: String(defaultFloorOptions.subs) },
    inflight: { type: 'string', default: String(defaultFloorOptions.inflight) },
    idle: { type: 'string', default: '0' },
    attrs: { type: 'string', default: '1' },
    'max-seconds': { type: 'string', default: String(defaultFloorOptions.maxSeconds) },
    'no-upsert': { type: 'boolean', default: false },
    await: { type: 'boolean', default: false },
    flat: { type: 'boolean', default: false },
    'fast-sqlite': { type: 'boolean', default: false },
  },
});

/** A whole number from `min` to `max`, or exit with a message naming the flag. */
function int(flag: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    process.stderr.write(`--${flag} must be a whole number from ${min} to ${max}, got ${raw}\n`);
    process.exit(64);
  }
  return n;
}

if (!floorShapes.includes(v.shape as FloorShape)) {
  process.stderr.write(`--shape must be one of ${floorShapes.join(', ')}, got ${v.shape}\n`);
  process.exit(64);
}
process.stderr.write(`[floor] ${v.events} events × ${v.subs} subscriptions, shape ${v.flat ? 'flat' : v.shape}, on a dev server of its own\n`);
const r = await runFloor(
  {
    shape: v.shape as FloorShape,
    events: int('events', v.events, 1, 100_000),
    subs: int('subs', v.subs, 1, 1000),
    inflight: int('inflight', v.inflight, 1, 256),
    idle: int('idle', v.idle, 0, 1000),
    attrs: int('attrs', v.attrs, 1, 3),
    maxSeconds: int('max-seconds', v['max-seconds'], 10, 3600),
    upsert: !v['no-upsert'],
    awaitResults: v.await,
    flat: v.flat,
    fastSqlite: v['fast-sqlite'],
  },
  (line) => process.stderr.write(`[floor] ${line}\n`),
);
if (r.idleLatencyMs) console.log(`idle: start call → each delivery's local activity, p50 ${r.idleLatencyMs.p50.toFixed(1)} ms, max ${r.idleLatencyMs.max.toFixed(1)} ms (n=${r.idleLatencyMs.count})`);
console.log(`shape: ${r.description}; upsert: ${!v['no-upsert']}; sqlite: ${v['fast-sqlite'] ? 'WAL+OFF' : 'WAL+NORMAL'}`);
console.log(`deliveries done ${r.delivered}/${r.expected} in ${r.seconds.toFixed(1)} s (starts issued in ${r.startsSeconds.toFixed(1)} s): ${r.deliveriesPerSecond.toFixed(1)} deliveries/s`);
console.log(`CPU per delivery: temporal ${r.temporalCpuMsPerDelivery.toFixed(1)} ms, worker+client ${r.workerCpuMsPerDelivery.toFixed(1)} ms`);
process.exit(r.delivered === r.expected ? 0 : 1);
