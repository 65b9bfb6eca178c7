/**
 * Bench options: CLI flags (`npm run bench -- --events 100`) override BENCH_* variables, which
 * override the defaults; `--quick` swaps in smaller defaults for a smoke run.
 */
import { parseArgs } from 'node:util';
import { type PrefillSpec, parsePrefill } from '../soak/options';

/** Every scenario, in the fixed order they run. */
export const allScenarios = ['ingest0', 'baseline', 'ingest', 'throughput', 'rate', 'idle', 'fanouts', 'slow', 'outage', 'background', 'retention', 'metrics', 'floor'] as const;
export type Scenario = (typeof allScenarios)[number];

export interface BenchOptions {
  /** Events of the throughput runs at M and at 1 subscription, and of the slow-receiver runs. */
  events: number;
  /** Events of the 50-subscription throughput run. */
  wideEvents: number;
  /** M, subscriptions per event of the main runs. */
  subs: number;
  /** Offered delivery rate of the latency run, deliveries/s (events/s = rate / subs). */
  rate: number;
  /** Length of the latency run, seconds. */
  duration: number;
  /** Orders per ingest run (once with 0 subscriptions, once with `subs`). */
  ingest: number;
  /** Concurrent clients of the ingest and throughput runs. */
  concurrency: number;
  /** Idle latency: this many single events, 1 s apart. */
  idleEvents: number;
  /** Concurrency of the in-process baseline loop. */
  baselineConcurrency: number;
  /** Verify every n-th delivery's signature at the receiver. */
  sampleEvery: number;
  /** Seconds the receiver answers 503 in the outage scenario. */
  outage: number;
  /** Seconds of the no-load CPU measurement. */
  background: number;
  /** Old attempts the retention scenario inserts, then deletes in one pass. */
  retentionDocs: number;
  /** RETENTION_BATCH_SIZE of the worker: documents per delete round. */
  retentionBatch: number;
  /** A scenario gives up (and is VOID) after this many seconds without any delivery completing. */
  drainTimeout: number;
  /** Hard limit for the whole bench, seconds: everything is stopped after it. */
  maxSeconds: number;
  /** Smaller defaults for a smoke run (under 2 minutes on 2 cores). */
  quick: boolean;
  /** Temporal dev server SQLite with WAL + synchronous=OFF (the tests' setting). */
  fastSqlite: boolean;
  /** RELAY_INTERVAL of the worker. */
  relayInterval: string;
  /** LOG_LEVEL of the API and worker. */
  logLevel: string;
  /** Where the JSON results go. */
  out: string;
  /** Print the service processes' output. */
  verbose: boolean;
  /** NODE_OPTIONS for the API and worker processes, e.g. `--cpu-prof --cpu-prof-dir=.data/bench/prof` to profile them. */
  nodeOptions: string | undefined;
  /** Write CPU profiles of the API and worker main threads to .data/bench/profiles/ (inspector, at exit). */
  profile: boolean;
  /** Documents written before the scenarios (the soak's prefill: orders, events, attempts over 3 days); all 0: an empty database. */
  prefill: PrefillSpec;
  /** Which scenarios run (a subset of {@link allScenarios}, always in that order). */
  scenarios: Scenario[];
  /** The launcher's server profile: `local` (the Temporal dev server) or `cluster` (two Temporal nodes on PostgreSQL). */
  stack: 'local' | 'cluster';
  /** API processes (orders go round-robin over them through a loopback TCP balancer when more than one). */
  apis: number;
  /** Worker processes. */
  workers: number;
}

type NumericOption = Exclude<{ [K in keyof BenchOptions]: BenchOptions[K] extends number ? K : never }[keyof BenchOptions], undefined>;

/** Numeric options: variable, default, `--quick` default, bounds, help. */
const numeric: Record<NumericOption, { env: string; def: number; quick?: number; min: number; max: number; help: string }> = {
  events: { env: 'BENCH_EVENTS', def: 200, quick: 20, min: 1, max: 100_000, help: 'events of the throughput runs at M and M=1 and of the slow-receiver runs' },
  wideEvents: { env: 'BENCH_WIDE_EVENTS', def: 40, quick: 4, min: 1, max: 10_000, help: 'events of the M=50 throughput run' },
  subs: { env: 'BENCH_SUBS', def: 5, min: 1, max: 50, help: 'M, subscriptions per event' },
  rate: { env: 'BENCH_RATE', def: 100, min: 1, max: 10_000, help: 'offered deliveries/s of the latency run' },
  duration: { env: 'BENCH_DURATION', def: 20, quick: 3, min: 1, max: 600, help: 'seconds of the latency run' },
  ingest: { env: 'BENCH_INGEST', def: 100, quick: 20, min: 1, max: 100_000, help: 'orders per ingest run' },
  concurrency: { env: 'BENCH_CONCURRENCY', def: 8, min: 1, max: 256, help: 'C, concurrent API clients' },
  idleEvents: { env: 'BENCH_IDLE_EVENTS', def: 10, quick: 3, min: 1, max: 1000, help: 'events of the idle run, 1 s apart' },
  baselineConcurrency: { env: 'BENCH_BASELINE_CONCURRENCY', def: 16, min: 1, max: 256, help: 'concurrency of the in-process baseline' },
  sampleEvery: { env: 'BENCH_SAMPLE_EVERY', def: 10, min: 1, max: 1_000_000, help: 'verify every n-th signature at the receiver' },
  outage: { env: 'BENCH_OUTAGE', def: 60, quick: 5, min: 5, max: 600, help: 'seconds the receiver answers 503' },
  background: { env: 'BENCH_BACKGROUND', def: 10, quick: 2, min: 1, max: 600, help: 'seconds of the no-load CPU measurement' },
  retentionDocs: { env: 'BENCH_RETENTION_DOCS', def: 100_000, quick: 5000, min: 1000, max: 1_000_000, help: 'old attempts one retention pass deletes' },
  retentionBatch: { env: 'BENCH_RETENTION_BATCH', def: 1000, min: 10, max: 10_000, help: 'RETENTION_BATCH_SIZE of the worker' },
  drainTimeout: { env: 'BENCH_DRAIN_TIMEOUT', def: 60, min: 5, max: 3600, help: 'VOID after this many seconds without a delivery completing' },
  maxSeconds: { env: 'BENCH_MAX_SECONDS', def: 1200, quick: 300, min: 30, max: 7200, help: 'hard limit: everything is stopped, exit 2' },
  apis: { env: 'BENCH_APIS', def: 1, min: 1, max: 8, help: 'API processes; more than one sit behind a loopback TCP balancer' },
  workers: { env: 'BENCH_WORKERS', def: 1, min: 1, max: 8, help: 'worker processes' },
};

const flagName = (k: string) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The usage text of `--help`. */
function usage(): string {
  const lines = Object.entries(numeric).map(([k, s]) => `  --${flagName(k)} <n>  ${s.help} (${s.env}, default ${s.def}${s.quick !== undefined ? `, --quick ${s.quick}` : ''})`);
  return [
    'usage: npm run bench -- [options]',
    '  --quick  smaller defaults for a smoke run (BENCH_QUICK=true)',
    `  --scenarios <list>  run only these (BENCH_SCENARIOS; of ${allScenarios.join(',')})`,
    '  --skip <list>  run all but these (BENCH_SKIP)',
    ...lines,
    '  --fast-sqlite  Temporal SQLite WAL + synchronous=OFF (BENCH_FAST_SQLITE=true)',
    '  --stack <profile>  local (Temporal dev server) or cluster (two Temporal nodes on PostgreSQL, LOCAL_STACK=cluster) (BENCH_STACK, default local)',
    '  --prefill <spec>  write this first, as the soak does: none, ci, full or attempts=<n>,events=<n>,orders=<n> (BENCH_PREFILL, default none)',
    '  --relay-interval <d>  RELAY_INTERVAL of the worker (BENCH_RELAY_INTERVAL, default 1s)',
    '  --log-level <l>  LOG_LEVEL of API and worker (BENCH_LOG_LEVEL, default warn)',
    '  --out <file>  JSON results (BENCH_OUT, default .data/bench/latest.json)',
    '  --node-options <opts>  NODE_OPTIONS of the API and worker (BENCH_NODE_OPTIONS)',
    '  --profile  CPU profiles of API and worker in .data/bench/profiles/ (BENCH_PROFILE=true)',
    '  --verbose  print the service processes\' output (BENCH_VERBOSE=true)',
    '',
  ].join('\n');
}

/** A comma-separated list of scenario names, checked. */
function scenarioList(raw: string, flag: string): Scenario[] {
  const names = raw.split(',').map((x) => x.trim()).filter(Boolean);
  const unknown = names.filter((x) => !(allScenarios as readonly string[]).includes(x));
  if (unknown.length) throw new Error(`--${flag} takes a comma-separated subset of ${allScenarios.join(',')}; unknown: ${unknown.join(',')}`);
  return names as Scenario[];
}

/** Reads the options; prints usage and exits on `--help`; throws on a bad value. */
export function parseOptions(argv = process.argv.slice(2), env = process.env): BenchOptions {
  const flags: Record<string, { type: 'string' | 'boolean' }> = {
    quick: { type: 'boolean' },
    scenarios: { type: 'string' },
    skip: { type: 'string' },
    'fast-sqlite': { type: 'boolean' },
    prefill: { type: 'string' },
    stack: { type: 'string' },
    'relay-interval': { type: 'string' },
    'log-level': { type: 'string' },
    out: { type: 'string' },
    'node-options': { type: 'string' },
    profile: { type: 'boolean' },
    verbose: { type: 'boolean' },
    help: { type: 'boolean' },
  };
  for (const k of Object.keys(numeric)) flags[flagName(k)] = { type: 'string' };
  const { values } = parseArgs({ args: argv, options: flags, strict: true, allowPositionals: false });
  if (values.help) {
    process.stdout.write(usage());
    process.exit(0);
  }
  const str = (flag: string, variable: string): string | undefined => (values[flag] as string | undefined) ?? (env[variable] || undefined);
  const bool = (flag: string, variable: string) => (values[flag] as boolean | undefined) ?? (env[variable] === 'true' || env[variable] === '1');
  const quick = bool('quick', 'BENCH_QUICK');
  const num = (k: NumericOption): number => {
    const s = numeric[k];
    const raw = str(flagName(k), s.env);
    if (raw === undefined) return quick && s.quick !== undefined ? s.quick : s.def;
    const v = Number(raw);
    if (!Number.isFinite(v) || v < s.min || v > s.max) throw new Error(`--${flagName(k)} / ${s.env} must be a number from ${s.min} to ${s.max}, got ${raw}`);
    return v;
  };
  const only = scenarioList(str('scenarios', 'BENCH_SCENARIOS') ?? allScenarios.join(','), 'scenarios');
  const skip = scenarioList(str('skip', 'BENCH_SKIP') ?? '', 'skip');
  const scenarios = allScenarios.filter((x) => only.includes(x) && !skip.includes(x));
  if (!scenarios.length) throw new Error('--scenarios and --skip leave no scenario to run');
  const ints = Object.fromEntries(Object.keys(numeric).map((k) => [k, num(k as NumericOption)])) as Record<NumericOption, number>;
  for (const k of ['events', 'wideEvents', 'subs', 'ingest', 'concurrency', 'idleEvents', 'baselineConcurrency', 'sampleEvery', 'apis', 'workers'] as const) ints[k] = Math.round(ints[k]);
  const stack = str('stack', 'BENCH_STACK') ?? 'local';
  if (stack !== 'local' && stack !== 'cluster') throw new Error(`--stack / BENCH_STACK must be local or cluster, got ${stack}`);
  return {
    ...ints,
    quick,
    fastSqlite: bool('fast-sqlite', 'BENCH_FAST_SQLITE'),
    prefill: parsePrefill(str('prefill', 'BENCH_PREFILL') ?? 'none'),
    relayInterval: str('relay-interval', 'BENCH_RELAY_INTERVAL') ?? '1s',
    logLevel: str('log-level', 'BENCH_LOG_LEVEL') ?? 'warn',
    out: str('out', 'BENCH_OUT') ?? '.data/bench/latest.json',
    nodeOptions: str('node-options', 'BENCH_NODE_OPTIONS'),
    profile: bool('profile', 'BENCH_PROFILE'),
    verbose: bool('verbose', 'BENCH_VERBOSE'),
    scenarios,
    stack,
  };
}
