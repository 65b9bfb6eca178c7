/**
 * The Temporal floor: what the delivery workflow shape alone costs on the embedded Temporal dev
 * server (the launcher's, as `npm start` runs it), with an in-process worker and no database,
 * HTTP or signing. Its deliveries/s is a ceiling for the service's on this machine. Used by
 * `npm run bench:floor` (run.ts) and `npm run bench`. Loopback only; bounded in count and time.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Runtime, Worker, type WorkflowBundle } from '@temporalio/worker';
import { privateStackConfig, startStack } from '../../stack/runtime/stack';
import { processCpuSeconds } from '../../stack/harness/proc';
import { eventSearchAttributes } from '../../stack/harness/service';

/**
 * `event`: the service's shape, one workflow per event (bench/floor/workflows.ts). `children`:
 * the pre-1.0 shape, a parent and one child workflow per subscription. `flat`: the client
 * starts one workflow per delivery, with no parent. `event-one`: the service's shape with a round's
 * deliveries and its log write in one local activity instead of two.
 */
export const floorShapes = ['event', 'event-one', 'children', 'flat'] as const;
export type FloorShape = (typeof floorShapes)[number];

/** The defaults: 200 events × 5 subscriptions in the service's shape, Temporal SQLite as `npm start` runs it. */
export const defaultFloorOptions = {
  shape: 'event' as FloorShape,
  events: 200,
  /** Deliveries per event (M). */
  subs: 5,
  /** Temporal SQLite with synchronous=OFF (the tests' setting) instead of NORMAL. */
  fastSqlite: false,
  /**
   * Eager workflow start: the client shares the worker's connection and asks the server to hand
   * each new workflow's first task straight back (possible only where a worker runs in the starting process).
   */
  eager: false,
  /** Gives up (throws) after this many seconds in all. */
  maxSeconds: 300,
};
export type FloorOptions = typeof defaultFloorOptions;
/** What {@link runFloor} measured (see measure below). */
export type FloorResult = Awaited<ReturnType<typeof measure>>;

/** Deliveries the activity counted since the last reset. */
let deliveries = 0;

/** The floor's one local activity: counts deliveries, not a parent's `/targets` lookup or a round's `/log` write. */
export const floorActivities = {
  // Activities must return promises; this one has nothing to wait for.
  touch(ids: string[]): Promise<void> {
    deliveries += ids.filter((id) => !/\/(targets|log)$/.test(id)).length;
    return Promise.resolve();
  },
};

// Built once per process, by the first run, which also installs the (quiet) runtime.
let bundle: Promise<WorkflowBundle> | undefined;

const round2 = (v: number) => Math.round(v * 100) / 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts its own dev server in a temp dir, runs the shape, stops everything; never leaves a process behind. */
export async function runFloor(partial: Partial<FloorOptions> = {}, log: (line: string) => void = () => {}): Promise<FloorResult> {
  const o: FloorOptions = { ...defaultFloorOptions, ...partial };
  const deadline = performance.now() + o.maxSeconds * 1000;
  if (!bundle) {
    Runtime.install({ logger: { log() {}, trace() {}, debug() {}, info() {}, warn: (m) => log(`sdk warn: ${m}`), error: (m) => log(`sdk error: ${m}`) } });
    bundle = bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('./workflows.ts', import.meta.url)), logger: Runtime.instance().logger });
  }

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
    const address = stack.servers.env.TEMPORAL_ADDRESS!;
    const connection = await Connection.connect({ address });
    undo.push(() => connection.close());
    const native = await NativeConnection.connect({ address });
    undo.push(() => native.close());
    const worker = await Worker.create({ connection: native, taskQueue: 'floor', workflowBundle: await bundle, activities: floorActivities });
    // A worker that fails shows as missing deliveries; its error is logged, not left unhandled.
    const running = worker.run().catch((err: unknown) => log(`floor worker failed: ${(err as Error).message}`));
    undo.push(async () => {
      worker.shutdown();
      await running;
    });
    return await measure(o, new Client({ connection: o.eager ? native : connection }), stack.part('temporal').pid!, () => deadline - performance.now());
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

/** A warm-up event, then the throughput run; `timeLeft` bounds every wait. */
async function measure(o: FloorOptions, client: Client, temporalPid: number, timeLeft: () => number) {
  const total = o.events * o.subs;
  const perStart = o.shape === 'flat' ? 1 : o.subs;
  const startOne = (i: number, prefix: string) => {
    const workflowId = `${prefix}-${i}`;
    const common = { taskQueue: 'floor', workflowId, args: [workflowId, o.subs], ...(o.eager ? { requestEagerStart: true } : {}) };
    if (o.shape === 'flat') return client.workflow.start('floorChild', { taskQueue: 'floor', workflowId });
    if (o.shape === 'children') return client.workflow.start('floorParent', common);
    // The attributes the service starts an event workflow with.
    const subscriptionIds = Array.from({ length: o.subs }, (_, k) => `sub_${k}`);
    return client.workflow.start(o.shape === 'event-one' ? 'floorEventOne' : 'floorEvent', { ...common, typedSearchAttributes: eventSearchAttributes({ eventId: workflowId, eventType: 'order.created', subscriptionIds }, 64) });
  };
  const waitFor = async (count: number, limitMs: number) => {
    const until = performance.now() + Math.min(limitMs, timeLeft());
    while (deliveries < count && performance.now() < until) await sleep(2);
  };

  // Warm-up: pollers up, the bundle loaded into the worker's isolate.
  deliveries = 0;
  await startOne(0, 'warm');
  await waitFor(perStart, 30_000);
  if (deliveries < perStart) throw new Error(`floor: the warm-up event did not complete within 30 s`);

  await sleep(300);
  deliveries = 0;
  const cpu0 = { temporal: processCpuSeconds(temporalPid), self: process.cpuUsage() };
  const t0 = performance.now();
  let next = 0;
  // 16 starts in flight at once.
  const starter = async () => {
    while (next < total / perStart && timeLeft() > 0) await startOne(next++, 'evt');
  };
  await Promise.all(Array.from({ length: 16 }, starter));
  const startsSeconds = (performance.now() - t0) / 1000;
  await waitFor(total, 120_000);
  const seconds = (performance.now() - t0) / 1000;
  const self = process.cpuUsage(cpu0.self);
  const delivered = deliveries;
  const per = (cpuSeconds: number) => round2((cpuSeconds * 1000) / Math.max(1, delivered));
  const temporalCpuMsPerDelivery = per(processCpuSeconds(temporalPid) - cpu0.temporal);
  const workerCpuMsPerDelivery = per((self.user + self.system) / 1e6);

  // Idle latency: single events one after another, from the start call to the round's deliveries.
  const idle: number[] = [];
  for (let i = 0; i < 20 && timeLeft() > 0; i++) {
    deliveries = 0;
    const t = performance.now();
    await startOne(i, 'idle');
    while (deliveries < perStart && timeLeft() > 0) await new Promise((r) => setImmediate(r));
    idle.push(performance.now() - t);
  }
  idle.sort((a, b) => a - b);
  return {
    shape: o.shape,
    eager: o.eager,
    // In words, for the report.
    description: {
      event: `one workflow per event: ${o.subs} deliveries in one local activity, a log write, an upsert`,
      'event-one': `one workflow per event: ${o.subs} deliveries and the log write in one local activity, an upsert`,
      children: `parent + ${o.subs} children`,
      flat: 'flat: the client starts one workflow per delivery',
    }[o.shape],
    events: o.events,
    subs: o.subs,
    delivered,
    expected: total,
    seconds: round2(seconds),
    // Until every workflow start was accepted.
    startsSeconds: round2(startsSeconds),
    deliveriesPerSecond: Math.round((delivered / seconds) * 10) / 10,
    // CPU-ms per delivery: the dev server, this process (worker and client), and their sum.
    temporalCpuMsPerDelivery,
    workerCpuMsPerDelivery,
    cpuMsPerDelivery: round2(temporalCpuMsPerDelivery + workerCpuMsPerDelivery),
    // Median over the idle events, start call to deliveries done (ms).
    idleLatencyP50Ms: round2(idle[Math.floor(idle.length / 2)] ?? NaN),
  };
}
