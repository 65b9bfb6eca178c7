/**
 * `npm run bench:floor`: the Temporal floor (bench/floor/floor.ts) from the command line. Starts
 * its own dev server, measures the shape, prints the figures, stops everything; exit 1 when a
 * delivery did not complete, 64 on a bad value.
 *
 *   npm run bench:floor -- [--shape event|event-one|children|flat] [--events 200] [--subs 5] [--fast-sqlite] [--eager] [--max-seconds 300]
 */
import { parseArgs } from 'node:util';
import { defaultFloorOptions as d, type FloorShape, floorShapes, runFloor } from './floor';

const { values: v } = parseArgs({
  options: {
    shape: { type: 'string', default: d.shape },
    events: { type: 'string', default: String(d.events) },
    subs: { type: 'string', default: String(d.subs) },
    'max-seconds': { type: 'string', default: String(d.maxSeconds) },
    'fast-sqlite': { type: 'boolean', default: false },
    eager: { type: 'boolean', default: false },
  },
});

/** A whole number from `min` to `max`, or exit with a message naming the flag. */
function int(flag: 'events' | 'subs' | 'max-seconds', min: number, max: number): number {
  const n = Number(v[flag]);
  if (Number.isInteger(n) && n >= min && n <= max) return n;
  process.stderr.write(`--${flag} must be a whole number from ${min} to ${max}, got ${v[flag]}\n`);
  process.exit(64);
}

const shape = v.shape as FloorShape;
if (!floorShapes.includes(shape)) {
  process.stderr.write(`--shape must be one of ${floorShapes.join(', ')}, got ${v.shape}\n`);
  process.exit(64);
}
const opts = { shape, events: int('events', 1, 100_000), subs: int('subs', 1, 1000), maxSeconds: int('max-seconds', 10, 3600), fastSqlite: v['fast-sqlite'], eager: v.eager };
process.stderr.write(`[floor] ${opts.events} events × ${opts.subs} subscriptions, shape ${shape}, on a dev server of its own\n`);
const r = await runFloor(opts, (line) => process.stderr.write(`[floor] ${line}\n`));
console.log(`shape: ${r.description}; sqlite: ${opts.fastSqlite ? 'WAL+OFF' : 'WAL+NORMAL'}${opts.eager ? '; eager start' : ''}`);
console.log(`deliveries done ${r.delivered}/${r.expected} in ${r.seconds.toFixed(1)} s (starts issued in ${r.startsSeconds.toFixed(1)} s): ${r.deliveriesPerSecond.toFixed(1)} deliveries/s`);
console.log(`idle latency p50 (start to deliveries, one event at a time): ${r.idleLatencyP50Ms.toFixed(1)} ms`);
console.log(`CPU per delivery: temporal ${r.temporalCpuMsPerDelivery.toFixed(1)} ms, worker+client ${r.workerCpuMsPerDelivery.toFixed(1)} ms`);
process.exit(r.delivered === r.expected ? 0 : 1);
