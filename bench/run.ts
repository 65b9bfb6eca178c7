/**
 * `npm run bench`: end-to-end performance of the webhook service on this machine, all on
 * loopback. Starts its own embedded servers, API, worker and receiver; runs the scenarios of
 * bench/README.md (bench/lib/scenarios/); prints a table and writes JSON to
 * .data/bench/latest.json. Exits 0 unless a run is VOID (a delivery went missing) or the bench
 * itself failed. Every loop is bounded in count and time, and a watchdog stops everything
 * after --max-seconds.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiClient } from './lib/api-client';
import { type Ctx, createSubscription, newSecret } from './lib/context';
import { createLifecycle, VoidRun } from './lib/lifecycle';
import { parseOptions } from './lib/options';
import { CpuMeter, loadAverage } from './lib/proc';
import { ReceiverProcess } from './lib/receiver-client';
import { gitDescribe, report } from './lib/report';
import type { BenchResults } from './lib/results';
import { background } from './lib/scenarios/background';
import { baseline } from './lib/scenarios/baseline';
import { fanOut } from './lib/scenarios/fan-outs';
import { fixedRate } from './lib/scenarios/fixed-rate';
import { floor } from './lib/scenarios/floor';
import { ingest } from './lib/scenarios/ingest';
import { outageDrain } from './lib/scenarios/outage';
import { slowReceiver } from './lib/scenarios/slow-receiver';
import { throughput } from './lib/scenarios/throughput';
import { warmUp } from './lib/scenarios/warm-up';
import { startStack } from './lib/stack';
import { nowMs } from './lib/stats';

const root = fileURLToPath(new URL('../', import.meta.url));
const opts = parseOptions();
const benchStart = nowMs();
const log = (line: string) => process.stderr.write(`[bench +${((nowMs() - benchStart) / 1000).toFixed(1)}s] ${line}\n`);
const life = createLifecycle(opts.maxSeconds, log);

/** The fan-outs measured besides M: 1 and 50 subscriptions per event. */
const fanOutsOtherThan = (m: number) => [1, 50].filter((x) => x !== m);

async function main(): Promise<number> {
  const results: BenchResults = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      loadAverageAtStart: loadAverage(),
    },
    options: opts,
    git: gitDescribe(root),
  };
  const outFile = resolve(root, opts.out);
  const save = () => {
    mkdirSync(dirname(outFile), { recursive: true });
    writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
  };

  log(`starting embedded servers (fastSqlite ${opts.fastSqlite}), API, worker and receiver`);
  const stack = await startStack(opts, life.cleanups, log);
  const receiver = await ReceiverProcess.start();
  life.cleanups.push({ name: 'receiver', fn: () => receiver.stop() });
  const api = new ApiClient(stack.apiUrl, stack.apiKey, Math.max(64, opts.concurrency));
  life.cleanups.push({ name: 'api client', fn: () => api.close() });
  const meter = new CpuMeter(
    () => ({ ...stack.pids, receiver: receiver.pid }),
    () => ({ bench: process.pid }),
  );
  const ctx: Ctx = { stack, api, receiver, subs: new Map(), meter, opts, log };
  results.stack = {
    database: stack.dbDescription,
    temporal: 'Temporal CLI v1.5.1 dev server (SQLite file, headless)',
    fastSqlite: opts.fastSqlite,
    dataDir: stack.dataDir,
    serviceEnv: Object.fromEntries(Object.entries(stack.serviceEnv).filter(([k]) => !['MONGODB_URI', 'TEMPORAL_ADDRESS', 'DATA_DIR', 'PORT'].includes(k))),
    receiver: 'separate node:http process (bench/receiver.ts)',
  };
  log(`up: ${stack.dbDescription}; API ${stack.apiUrl}; receiver ${receiver.url}; pids ${JSON.stringify({ ...stack.pids, receiver: receiver.pid })}`);

  const want = (name: string) => opts.scenarios.includes(name);
  try {
    log('warm-up (first deliveries also wait for the worker to bundle its workflows)');
    const w0 = nowMs();
    await warmUp(ctx);
    log(`warm-up done in ${((nowMs() - w0) / 1000).toFixed(1)}s`);
    if (opts.profile) {
      for (const pid of [stack.pids.api, stack.pids.worker]) if (pid) process.kill(pid, 'SIGUSR2');
      log('profiling the API and worker main threads from now on; profiles are written to .data/bench/profiles/ when they stop');
    }

    // Subscriptions for the measured runs (created after the 0-subscription ingest run).
    const secrets: Record<string, string> = {};
    for (let i = 0; i < opts.subs; i++) secrets[`s${i}`] = newSecret();
    await receiver.request({ type: 'configure', secrets, sampleEvery: opts.sampleEvery });

    if (want('ingest0')) {
      results.ingestNoSubscriptions = await ingest(ctx, 'ingest, 0 subscriptions');
      save();
    }
    for (const [tag, secret] of Object.entries(secrets)) ctx.subs.set(tag, await createSubscription(ctx, tag, secret));
    if (want('baseline')) {
      results.baseline = await baseline(ctx);
      save();
    }
    if (want('ingest')) {
      results.ingestWithSubscriptions = await ingest(ctx, `ingest, ${opts.subs} subscriptions`);
      save();
    }
    if (want('throughput')) {
      results.throughput = await throughput(ctx);
      save();
    }
    if (want('rate')) {
      const eventsPerSecond = opts.rate / opts.subs;
      results.fixedRate = await fixedRate(ctx, eventsPerSecond, Math.max(2, Math.round(eventsPerSecond * opts.duration)), `latency at ${opts.rate} deliveries/s`);
      save();
    }
    if (want('idle')) {
      results.idle = await fixedRate(ctx, 1, opts.idleEvents, 'idle latency, events 1 s apart');
      save();
    }
    if (want('fanouts')) {
      results.fanOuts = {};
      for (const m of fanOutsOtherThan(opts.subs)) {
        results.fanOuts[m] = await fanOut(ctx, m);
        save();
      }
    }
    if (want('slow')) {
      results.slowReceiver = await slowReceiver(ctx);
      save();
    }
    if (want('outage')) {
      results.outage = await outageDrain(ctx);
      save();
    }
    results.background = await background(ctx);
    save();
    if (want('floor')) {
      // Last: it starts a Temporal dev server of its own while the service idles.
      const fanOuts: NonNullable<BenchResults['floor']>['fanOuts'] = {};
      for (const m of want('fanouts') ? fanOutsOtherThan(opts.subs) : []) fanOuts[m] = await floor(ctx, Math.max(40, Math.round(1000 / m)), m);
      results.floor = { event: await floor(ctx, opts.events, opts.subs), children: await floor(ctx, opts.events, opts.subs, 'children'), fanOuts };
      save();
    }
  } catch (err) {
    if (err instanceof VoidRun) {
      results.void = err.message;
      results.machine = { ...results.machine, loadAverageAtEnd: loadAverage() };
      results.serviceOutput = stack.outputLines;
      save();
      process.stdout.write(`\nVOID: ${err.message}\nPartial results in ${outFile}\n`);
      return 1;
    }
    throw err;
  }
  results.machine = { ...results.machine, loadAverageAtEnd: loadAverage() };
  results.serviceOutput = stack.outputLines;

  report(results, { dbDescription: stack.dbDescription, externalTemporal: stack.config.temporal.address, outFile });
  save();
  return 0;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  if (life.forcedExit() === undefined) log(`bench failed: ${(err as Error).stack ?? String(err)}`);
  code = 1;
} finally {
  life.disarm();
  if (life.forcedExit() === undefined) log('stopping everything');
  await life.cleanup();
}
process.exit(life.forcedExit() ?? code);
