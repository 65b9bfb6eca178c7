/**
 * `npm run bench:floor`: what the delivery workflow shape alone costs on the embedded Temporal
 * dev server, with no database, HTTP or signing: N parents × M children, each child one local
 * activity (and optionally one search-attribute upsert). Its deliveries/s is a ceiling for the
 * service's on this machine. All on loopback; bounded in count and time; stops by itself.
 *
 *   npm run bench:floor -- [--shape event|children] [--events 200] [--subs 5] [--await] [--no-upsert] [--flat] [--inflight 16] [--fast-sqlite]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { resolveBinary, temporalCli } from '../../src/runtime/binaries';
import { getFreePort } from '../../src/runtime/ports';
import { startTemporalDevServer } from '../../src/runtime/temporal-dev-server';
import { processCpuSeconds } from '../lib/proc';
import { eventSearchAttributes } from '../../workflows/search-attributes';
import * as activities from './activities';

const { values: o } = parseArgs({
  options: {
    events: { type: 'string', default: '200' },
    subs: { type: 'string', default: '5' },
    inflight: { type: 'string', default: '16' },
    await: { type: 'boolean', default: false },
    'no-upsert': { type: 'boolean', default: false },
    flat: { type: 'boolean', default: false },
    shape: { type: 'string', default: 'event' },
    'fast-sqlite': { type: 'boolean', default: false },
    'max-seconds': { type: 'string', default: '300' },
    idle: { type: 'string', default: '0' },
    attrs: { type: 'string', default: '1' },
  },
});
const events = Number(o.events);
const subs = Number(o.subs);
const total = events * subs;
const log = (line: string) => process.stderr.write(`[floor] ${line}\n`);

Runtime.install({ logger: { log() {}, trace() {}, debug() {}, info() {}, warn: (m) => log(`sdk warn: ${m}`), error: (m) => log(`sdk error: ${m}`) } });

const dir = mkdtempSync(join(tmpdir(), 'webhook-floor-'));
const binary = await resolveBinary(temporalCli, {
  explicitPath: process.env.TEMPORAL_CLI_PATH,
  cacheDir: process.env.BINARY_CACHE_DIR ?? join(process.env.HOME ?? '/root', '.cache/webhook-service'),
});
const port = await getFreePort();
const temporal = await startTemporalDevServer({
  binary: binary.path,
  port,
  uiPort: await getFreePort(),
  dbFile: join(dir, 'temporal.db'),
  namespace: 'default',
  headless: true,
  fastSqlite: o['fast-sqlite'],
});
const watchdog = setTimeout(() => {
  log('time limit reached');
  void temporal.stop().finally(() => process.exit(2));
}, Number(o['max-seconds']) * 1000);

try {
  const taskQueue = 'floor';
  const worker = await Worker.create({
    connection: await NativeConnection.connect({ address: temporal.address }),
    taskQueue,
    workflowsPath: fileURLToPath(new URL('./workflows.ts', import.meta.url)),
    activities,
  });
  const client = new Client({ connection: await Connection.connect({ address: temporal.address }) });
  const running = worker.run();

  // Warm-up: bundle loaded, pollers up.
  await client.workflow.execute('floorParent', { taskQueue, workflowId: 'warm', args: [{ id: 'warm', children: 1, awaitResults: true, upsert: true }] });
  activities.completions.children = 0;
  activities.completions.times.length = 0;

  if (Number(o.idle) > 0) {
    // Idle latency: one event at a time, from the start call to each child's local activity.
    const lat: number[] = [];
    for (let i = 0; i < Number(o.idle); i++) {
      const before = activities.completions.times.length;
      const t = performance.now();
      if (o.shape === 'event') await client.workflow.start('floorEvent', { taskQueue, workflowId: `idle-${i}`, args: [{ id: `idle-${i}`, subs, upsert: !o['no-upsert'] }] });
      else await client.workflow.start('floorParent', { taskQueue, workflowId: `idle-${i}`, args: [{ id: `idle-${i}`, children: subs, awaitResults: o.await, upsert: !o['no-upsert'], attrs: Number(o.attrs) }] });
      const deadline = performance.now() + 10_000;
      while (activities.completions.times.length < before + subs && performance.now() < deadline) await new Promise((r) => setTimeout(r, 1));
      for (const x of activities.completions.times.slice(before)) lat.push(x - t);
      await new Promise((r) => setTimeout(r, 300));
    }
    lat.sort((a, b) => a - b);
    activities.completions.children = 0;
    activities.completions.times.length = 0;
    console.log(`idle: start call → child's local activity, p50 ${lat[Math.floor(lat.length / 2)]?.toFixed(1)} ms, max ${lat.at(-1)?.toFixed(1)} ms (n=${lat.length})`);
  }
  const temporalPid = temporal.process.pid!;
  const cpu0 = { temporal: processCpuSeconds(temporalPid), self: process.cpuUsage() };
  const t0 = performance.now();
  let next = 0;
  const starter = async () => {
    while (next < (o.flat ? total : events)) {
      const i = next++;
      if (o.flat) {
        await client.workflow.start('floorChild', { taskQueue, workflowId: `flat-${i}`, args: [!o['no-upsert']] });
      } else if (o.shape === 'event') {
        await client.workflow.start('floorEvent', {
          taskQueue,
          workflowId: `evt-${i}`,
          args: [{ id: `evt-${i}`, subs, upsert: !o['no-upsert'] }],
          typedSearchAttributes: eventSearchAttributes({ eventId: `evt-${i}`, eventType: 'order.created', subscriptionIds: Array.from({ length: subs }, (_, k) => `sub_${k}`) }, 64),
        });
      } else {
        await client.workflow.start('floorParent', {
          taskQueue,
          workflowId: `evt-${i}`,
          args: [{ id: `evt-${i}`, children: subs, awaitResults: o.await, upsert: !o['no-upsert'], attrs: Number(o.attrs) }],
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Number(o.inflight) }, starter));
  const startedIn = performance.now() - t0;
  const deadline = performance.now() + 120_000;
  while (activities.completions.children < total && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const elapsed = (performance.now() - t0) / 1000;
  const selfCpu = process.cpuUsage(cpu0.self);
  const temporalCpu = processCpuSeconds(temporalPid) - cpu0.temporal;
  const done = activities.completions.children;
  const shape = o.flat ? 'flat (client starts each delivery workflow)' : o.shape === 'event' ? `one workflow per event, ${subs} deliveries in one local activity + a log write` : `parent + ${subs} children${o.await ? ' (parent awaits results)' : ''}`;
  console.log(`shape: ${shape}; upsert: ${!o['no-upsert']}; sqlite: ${o['fast-sqlite'] ? 'WAL+OFF' : 'WAL+NORMAL'}`);
  console.log(`children done ${done}/${total} in ${elapsed.toFixed(1)} s (starts issued in ${(startedIn / 1000).toFixed(1)} s): ${(done / elapsed).toFixed(1)} deliveries/s`);
  console.log(
    `CPU per delivery: temporal ${((temporalCpu * 1000) / done).toFixed(1)} ms, worker+client ${(((selfCpu.user + selfCpu.system) / 1000) / done).toFixed(1)} ms`,
  );
  worker.shutdown();
  await running;
} finally {
  clearTimeout(watchdog);
  await temporal.stop();
  rmSync(dir, { recursive: true, force: true });
}
