/**
 * The Temporal floor as a library: what the delivery workflow shape alone costs on the embedded
 * Temporal dev server (the same binary and flags as `npm start`), with an in-process worker and
 * no database, HTTP or signing. Its deliveries/s is a ceiling for the service's on this machine.
 * Used by `npm run bench:floor` (bench/floor/run.ts) and by `npm run bench` in the same run.
 * All on loopback; bounded in count and time.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Runtime, Worker, type WorkflowBundle } from '@temporalio/worker';
import { privateStackConfig, startStack } from '../../src/runtime/stack';
import { eventSearchAttributes } from '../lib/service';
import { processCpuSeconds } from '../lib/proc';
import { completions, resetCompletions, touch, touchAll } from './activities';

/** The workflow shapes the floor can measure. */
export const floorShapes = ['event', 'activities', 'children'] as const;
export type FloorShape = (typeof floorShapes)[number];

export interface FloorOptions {
  /**
   * `event` (default): the service's shape, one workflow per event whose round is one local
   * activity for all M deliveries, a log-write local activity and one upsert. `activities`:
   * the same with M concurrent local activities, one per delivery. `children`: before 1.0, a
   * parent and one child workflow per subscription.
   */
  shape: FloorShape;
  events: number;
  /** Deliveries per event (M). */
  subs: number;
  /** Workflow starts in flight at once. */
  inflight: number;
  /** Upsert the final state search attribute (as the service does). */
  upsert: boolean;
  /** Children shape: the parent awaits its children's results (the oldest event workflow). */
  awaitResults: boolean;
  /** Children shape: search attributes each child starts with (1–3). */
  attrs: number;
  /** Instead of any parent: the client starts one workflow per delivery. */
  flat: boolean;
  /** Temporal SQLite with synchronous=OFF (the tests' setting) instead of NORMAL. */
  fastSqlite: boolean;
  /** Before the throughput run: this many single events, one at a time, for the idle latency. */
  idle: number;
  /** Gives up (throws) after this many seconds in all. */
  maxSeconds: number;
}

export const defaultFloorOptions: FloorOptions = {
  shape: 'event',
  events: 200,
  subs: 5,
  inflight: 16,
  upsert: true,
  awaitResults: false,
  attrs: 1,
  flat: false,
  fastSqlite: false,
  idle: 0,
  maxSeconds: 300,
};

export interface FloorResult {
  shape: FloorShape;
  /** In words, for the report. */
  description: string;
  events: number;
  subs: number;
  delivered: number;
  expected: number;
  seconds: number;
  /** Seconds until every workflow start was accepted. */
  startsSeconds: number;
  deliveriesPerSecond: number;
  /** CPU-ms per delivery: the dev server, and this process (worker and client). */
  temporalCpuMsPerDelivery: number;
  workerCpuMsPerDelivery: number;
  /** Their sum. */
  cpuMsPerDelivery: number;
  /** With `idle`: start call → each delivery's local activity, one event at a time (ms). */
  idleLatencyMs?: { p50: number; max: number; count: number };
}

// One runtime per process, installed quietly by the first floor run (a later one reuses it).
let runtimeInstalled = false;
// The workflow bundle is the same for every run: built once per process.
let bundle: Promise<WorkflowBundle> | undefined;

const round2 = (v: number) => Math.round(v * 100) / 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts its own dev server in a temp dir, runs the shape, stops everything; never leaves a process behind. */
export async function runFloor(partial: Partial<FloorOptions> = {}, log: (line: string) => void = () => {}): Promise<FloorResult> {
  const o: FloorOptions = { ...defaultFloorOptions, ...partial };
  const deadline = performance.now() + o.maxSeconds * 1000;
  const timeLeft = () => deadline - performance.now();
  if (!runtimeInstalled) {
    Runtime.install({ logger: { log() {}, trace() {}, debug() {}, info() {}, warn: (m) => log(`sdk warn: ${m}`), error: (m) => log(`sdk error: ${m}`) } });
    runtimeInstalled = true;
  }
  bundle ??= bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('./workflows.ts', import.meta.url)), logger: Runtime.instance().logger });

  // Undone newest first, whatever failed.
  const undo: Array<() => unknown> = [];
  try {
    // The launcher's Temporal alone, on free ports in a temp DATA_DIR.
    const start = async () => {
      const config = await privateStackConfig({ BINARY_CACHE_DIR: process.env.BINARY_CACHE_DIR, TEMPORAL_CLI_PATH: process.env.TEMPORAL_CLI_PATH }, 'webhook-floor');
      undo.push(() => rmSync(config.dataDir, { recursive: true, force: true }));
      return startStack({ config, apis: 0, workers: 0, only: 'temporal', headless: true, fastSqlite: o.fastSqlite, log: () => {} });
    };
    // The dev server picks its HTTP port by probing: under load an outgoing connection can take it
    // first ("address already in use"). Another start gets other ports.
    const stack = await start().catch((err: Error) => {
      if (!/address already in use/.test(err.message)) throw err;
      return start();
    });
    undo.push(() => stack.stop());
    const temporal = { address: stack.servers.env.TEMPORAL_ADDRESS!, pid: stack.part('temporal').pid! };
    const connection = await Connection.connect({ address: temporal.address });
    undo.push(() => connection.close());
    const native = await NativeConnection.connect({ address: temporal.address });
    undo.push(() => native.close());
    const taskQueue = 'floor';
    const worker = await Worker.create({ connection: native, taskQueue, workflowBundle: await bundle, activities: { touch, touchAll } });
    // A worker that fails shows as missing deliveries; its error is logged, not left unhandled.
    const running = worker.run().catch((err: unknown) => log(`floor worker failed: ${(err as Error).message}`));
    undo.push(async () => {
      worker.shutdown();
      await running;
    });
    return await measure(o, new Client({ connection }), taskQueue, temporal.pid, timeLeft);
  } finally {
    for (const step of undo.reverse()) {
      try {
        await step();
      } catch (err) {
        log(`floor cleanup: ${(err as Error).message}`);
      }
    }
  }
}

/** Warm-up, the optional idle run, then the throughput run; `timeLeft` bounds every wait. */
async function measure(o: FloorOptions, client: Client, taskQueue: string, temporalPid: number, timeLeft: () => number): Promise<FloorResult> {
  const total = o.events * o.subs;
  // One start per event (or per delivery with --flat), in the chosen shape.
  const startOne = (i: number, prefix: string) => {
    const id = `${prefix}-${i}`;
    if (o.flat) return client.workflow.start('floorChild', { taskQueue, workflowId: id, args: [o.upsert] });
    if (o.shape === 'children') {
      return client.workflow.start('floorParent', { taskQueue, workflowId: id, args: [{ id, children: o.subs, awaitResults: o.awaitResults, upsert: o.upsert, attrs: o.attrs }] });
    }
    return client.workflow.start(o.shape === 'event' ? 'floorEvent' : 'floorEventEach', {
      taskQueue,
      workflowId: id,
      args: [{ id, subs: o.subs, upsert: o.upsert }],
      // The attributes the service starts an event workflow with.
      typedSearchAttributes: eventSearchAttributes({ eventId: id, eventType: 'order.created', subscriptionIds: Array.from({ length: o.subs }, (_, k) => `sub_${k}`) }, 64),
    });
  };
  const perStart = o.flat ? 1 : o.subs;
  const waitFor = async (count: number, limitMs: number) => {
    const until = performance.now() + Math.min(limitMs, timeLeft());
    while (completions.deliveries < count && performance.now() < until) await sleep(2);
  };

  // Warm-up: pollers up, the bundle loaded into the worker's isolate.
  resetCompletions();
  await startOne(0, 'warm');
  await waitFor(perStart, 30_000);
  if (completions.deliveries < perStart) throw new Error(`floor: the warm-up event did not complete within 30 s`);

  let idleLatencyMs: FloorResult['idleLatencyMs'];
  if (o.idle > 0) {
    const lat: number[] = [];
    for (let i = 0; i < o.idle && timeLeft() > 0; i++) {
      resetCompletions();
      const t = performance.now();
      await startOne(i, 'idle');
      await waitFor(perStart, 10_000);
      for (const x of completions.times) lat.push(x - t);
      await sleep(300);
    }
    lat.sort((a, b) => a - b);
    idleLatencyMs = { p50: round2(lat[Math.floor(lat.length / 2)] ?? Number.NaN), max: round2(lat.at(-1) ?? Number.NaN), count: lat.length };
  }

  await sleep(300);
  resetCompletions();
  const cpu0 = { temporal: processCpuSeconds(temporalPid), self: process.cpuUsage() };
  const t0 = performance.now();
  let next = 0;
  const starter = async () => {
    while (next < total / perStart && timeLeft() > 0) await startOne(next++, 'evt');
  };
  await Promise.all(Array.from({ length: o.inflight }, starter));
  const startsSeconds = (performance.now() - t0) / 1000;
  await waitFor(total, 120_000);
  const seconds = (performance.now() - t0) / 1000;
  const self = process.cpuUsage(cpu0.self);
  const temporalCpu = processCpuSeconds(temporalPid) - cpu0.temporal;
  const delivered = completions.deliveries;
  const per = (cpuSeconds: number) => round2((cpuSeconds * 1000) / Math.max(1, delivered));
  const temporalCpuMsPerDelivery = per(temporalCpu);
  const workerCpuMsPerDelivery = per((self.user + self.system) / 1e6);
  return {
    shape: o.shape,
    description: describe(o),
    events: o.events,
    subs: o.subs,
    delivered,
    expected: total,
    seconds: round2(seconds),
    startsSeconds: round2(startsSeconds),
    deliveriesPerSecond: Math.round((delivered / seconds) * 10) / 10,
    temporalCpuMsPerDelivery,
    workerCpuMsPerDelivery,
    cpuMsPerDelivery: round2(temporalCpuMsPerDelivery + workerCpuMsPerDelivery),
    ...(idleLatencyMs ? { idleLatencyMs } : {}),
  };
}

/** The shape in words. */
function describe(o: FloorOptions): string {
  if (o.flat) return 'flat: the client starts one workflow per delivery';
  if (o.shape === 'event') return `one workflow per event: ${o.subs} deliveries in one local activity, a log write, an upsert`;
  if (o.shape === 'activities') return `one workflow per event: ${o.subs} concurrent local activities, a log write, an upsert`;
  return `parent + ${o.subs} children${o.awaitResults ? ' (parent awaits results)' : ''}`;
}
