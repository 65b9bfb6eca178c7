/**
 * `npm run bench`: end-to-end performance of the webhook service on this machine, all on
 * loopback. Starts its own embedded servers, API, worker and receiver; runs the scenarios of
 * bench/README.md (bench/lib/scenarios/) in a fixed order, the Temporal floor last; prints a
 * report with the 1.0 targets and writes JSON to .data/bench/latest.json. Exits 0 unless a run
 * is VOID (a delivery went missing or a signature did not verify) or the bench itself failed.
 * Every loop is bounded in count and time, and a watchdog stops everything after --max-seconds.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CounterDoc, describeRateLimits, loadConfig } from '../stack/harness/service';
import { ApiClient } from '../stack/harness/api-client';
import { CostMeter } from './lib/cost';
import type { Ctx } from './lib/context';
import { createSubscription, newSecret } from '../stack/harness/subscribe';
import { finishProgram, startProgram, VoidRun } from '../stack/harness/lifecycle';
import { parseOptions, type Scenario } from './lib/options';
import { CpuMeter, loadAverage } from '../stack/harness/proc';
import { ReceiverProcess } from '../stack/harness/receiver-client';
import { type BenchResults, gitDescribe, newResults, report, writeResults } from './lib/report';
import { background, retention } from './lib/scenarios/background';
import { baseline } from './lib/scenarios/baseline';
import { ingest } from './lib/scenarios/ingest';
import { fixedRate, outageDrain } from './lib/scenarios/latency';
import { metricsCost } from './lib/scenarios/metrics-cost';
import { fanOut, fanOutEvents, slowReceiver, throughput, warmUp } from './lib/scenarios/throughput';
import { brokerThroughput } from './lib/scenarios/broker';
import { noisyNeighbour } from './lib/scenarios/noisy';
import { startStreamBroker } from '../stack/harness/stream-broker';
import { type FloorShape, runFloor } from './floor/floor';
import { type Stack, startStack } from '../stack/harness/stack';
import { nowMs, sleep } from '../stack/harness/stats';
import { defaultPlan, prefill, type PrefillResult } from './soak/prefill';

const root = fileURLToPath(new URL('../', import.meta.url));
const program = startProgram('bench', () => parseOptions());
const { opts, log, life } = program;
const want = (name: Scenario) => opts.scenarios.includes(name);

/** The fan-outs measured besides M: 1 and 50 subscriptions per event. */
const otherFanOuts = [1, 50].filter((x) => x !== opts.subs);

/** The floor of the service's shape at `events` × `subs` (bench/floor/floor.ts) on a dev server of its own while the service idles. */
async function floor(events: number, subs: number, shape: FloorShape = 'event-one') {
  log(`floor: ${events} events × ${subs} subscriptions, ${shape} shape, on its own dev server`);
  const r = await runFloor({ shape, events, subs, fastSqlite: opts.fastSqlite, maxSeconds: 300 }, (line) => log(`floor: ${line}`));
  if (r.delivered !== r.expected) log(`floor: WARNING only ${r.delivered}/${r.expected} deliveries completed within its time limit`);
  return r;
}

/** Runs the chosen scenarios in order, saving the results after each. */
async function runScenarios(ctx: Ctx, results: BenchResults, save: () => void): Promise<void> {
  log('warm-up (first deliveries also wait for the worker to bundle its workflows)');
  const w0 = nowMs();
  await warmUp(ctx);
  log(`warm-up done in ${((nowMs() - w0) / 1000).toFixed(1)}s`);
  // The M subscriptions of the measured runs, created after the 0-subscription ingest run.
  const secrets: Record<string, string> = {};
  for (let i = 0; i < opts.subs; i++) secrets[`s${i}`] = newSecret();
  await ctx.receiver.request({ type: 'configure', secrets, sampleEvery: opts.sampleEvery });
  const step = async <T>(name: Scenario, run: () => Promise<T>, keep: (r: T) => void) => {
    if (!want(name)) return;
    keep(await run());
    if (!results.completed.includes(name)) results.completed.push(name);
    save();
  };

  await step('ingest0', () => ingest(ctx, 'ingest, 0 subscriptions'), (r) => (results.ingestNoSubscriptions = r));
  for (const [tag, secret] of Object.entries(secrets)) ctx.subs.set(tag, await createSubscription(ctx, tag, secret));
  await step('baseline', () => baseline(ctx), (r) => (results.baseline = r));
  await step('ingest', () => ingest(ctx, `ingest, ${opts.subs} subscriptions`), (r) => (results.ingestWithSubscriptions = r));
  await step('throughput', () => throughput(ctx), (r) => (results.throughput = r));
  const perSecond = opts.rate / opts.subs;
  const count = Math.max(2, Math.round(perSecond * opts.duration));
  await step('rate', () => fixedRate(ctx, perSecond, count, `latency at ${opts.rate} deliveries/s`), (r) => (results.fixedRate = r));
  await step('idle', () => fixedRate(ctx, 1, opts.idleEvents, 'idle latency, events 1 s apart'), (r) => (results.idle = r));
  for (const m of otherFanOuts) await step('fanouts', () => fanOut(ctx, m), (r) => ((results.fanOuts ??= {})[m] = r));
  await step('broker', () => brokerThroughput(ctx), (r) => (results.broker = r));
  await step('slow', () => slowReceiver(ctx), (r) => (results.slowReceiver = r));
  await step('noisy', () => noisyNeighbour(ctx), (r) => (results.noisy = r));
  await step('outage', () => outageDrain(ctx), (r) => (results.outage = r));
  await step('background', () => background(ctx), (r) => (results.background = r));
  await step('retention', () => retention(ctx), (r) => (results.retention = r));
  await step('metrics', () => metricsCost(ctx), (r) => (results.metricsCost = r));
  // Last: each floor run starts a Temporal dev server of its own while the service idles.
  await step(
    'floor',
    async () => {
      const fanOuts: NonNullable<BenchResults['floor']>['fanOuts'] = {};
      for (const m of want('fanouts') ? otherFanOuts : []) fanOuts[m] = await floor(fanOutEvents(ctx, m), m);
      const event = await floor(opts.events, opts.subs);
      // The pre-1.0 shape, for comparison; a smoke run leaves it out.
      return { event, fanOuts, ...(opts.quick ? {} : { children: await floor(opts.events, opts.subs, 'children') }) };
    },
    (r) => (results.floor = r),
  );
}

/** The service's rate limits as its API processes read them from the bench's environment. */
function rateLimitsOf(serviceEnv: Record<string, string>): string {
  const { enabled, policies } = loadConfig(serviceEnv, false).api.rateLimit;
  return enabled ? `on, ${describeRateLimits(policies)} per API key and scope` : 'off (RATE_LIMIT_ENABLED=false)';
}

/**
 * `--prefill`: the soak's documents (other owners' subscriptions, orders, events, attempts over
 * 3 days) written before any scenario, then time for the database to gather their statistics.
 */
async function prefillFor(stack: Stack): Promise<PrefillResult | undefined> {
  const spec = opts.prefill;
  if (spec.orders + spec.events + spec.attempts === 0) return undefined;
  const counter = await stack.db.collection<CounterDoc>('counters').findOne({ _id: 'orders' });
  const plan = defaultPlan(spec, { soakOwner: 'bench', soakSubscriptions: [], firstOrderId: (counter?.seq ?? 0) + 1000 });
  log(`prefill ${JSON.stringify(spec)}`);
  const filled = await prefill(stack.db, plan, (s, id) => stack.secretBox.seal(s, id), log);
  log(`prefill done in ${filled.seconds.toFixed(1)} s (${filled.docsPerSecond.toFixed(0)} docs/s): ${JSON.stringify(filled.counts)}; settling 20 s`);
  await sleep(20_000);
  return filled;
}

async function main(): Promise<number> {
  const results = newResults(opts, gitDescribe(root));
  const outFile = resolve(root, opts.out);
  const save = () => writeResults(outFile, results);

  log(`starting embedded servers (fastSqlite ${opts.fastSqlite}), API, worker and receiver; scenarios ${opts.scenarios.join(',')}${opts.quick ? ' (quick)' : ''}`);
  const stack = await startStack(opts, life.cleanups, log, opts.serviceEnv);
  const filled = await prefillFor(stack);
  const receiver = await ReceiverProcess.start();
  life.cleanups.push({ name: 'receiver', fn: () => receiver.stop() });
  // Only when its scenario runs: the other runs' figures have no broker beside them.
  const broker = want('broker') ? await startStreamBroker(stack.config.dataDir, life.cleanups, log) : undefined;
  const api = new ApiClient(stack.apiUrl, stack.apiKey, Math.max(64, opts.concurrency));
  life.cleanups.push({ name: 'api client', fn: () => api.close() });
  // Service processes with their descendants; the bench process alone (the others are its descendants).
  const meter = new CpuMeter(
    () => ({ ...stack.pids, receiver: receiver.pid, ...(broker ? { broker: broker.pid() } : {}) }),
    () => ({ bench: process.pid }),
  );
  const cost = new CostMeter(stack.metricsUrls, stack.embeddedPostgres);
  if (cost.sqlUnavailable) log(`SQL statements not counted: ${cost.sqlUnavailable}`);
  const ctx: Ctx = { stack, api, receiver, subs: new Map(), meter, cost, opts, log, ledger: [], broker };
  results.stack = {
    database: stack.dbDescription,
    temporal: opts.stack === 'cluster' ? stack.temporalDescription : 'Temporal CLI v1.5.1 dev server (SQLite file, headless)',
    processes: `${opts.apis} API, ${opts.workers} worker`,
    fastSqlite: opts.fastSqlite,
    dataDir: stack.config.dataDir,
    serviceEnv: Object.fromEntries(Object.entries(stack.serviceEnv).filter(([k]) => !['MONGODB_URI', 'TEMPORAL_ADDRESS', 'DATA_DIR', 'PORT', 'SECRET_ENCRYPTION_KEY'].includes(k))),
    receiver: 'separate node:http process (stack/harness/receiver.ts)',
    ...(broker ? { broker: `redis-server on ${broker.url} (appendonly, appendfsync always), stream ${broker.stream}, consumed by the receiver process` } : {}),
    rateLimits: rateLimitsOf(stack.serviceEnv),
    prefill: filled,
  };
  log(`up: ${stack.dbDescription}; API ${stack.apiUrl}; receiver ${receiver.url}; pids ${JSON.stringify({ ...stack.pids, receiver: receiver.pid })}`);

  try {
    await runScenarios(ctx, results, save);
  } catch (err) {
    // A VOID run still gets its report (what ran, and the unaccounted deliveries); anything else is a bench failure.
    if (!(err instanceof VoidRun)) throw err;
    results.void = err.message;
  }
  results.accounting = ctx.ledger;
  results.machine.loadAverageAtEnd = loadAverage();
  results.serviceOutput = stack.outputLines;
  report(results, { dbDescription: stack.dbDescription, externalTemporal: stack.config.temporal.address, rateLimits: rateLimitsOf(stack.serviceEnv), outFile });
  save();
  return results.void ? 1 : 0;
}

await finishProgram('bench', program, main);
