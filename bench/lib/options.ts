/** Bench options: CLI flags (`npm run bench -- --events 100`) override BENCH_* variables, which override defaults. */
import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** Throughput run: events (orders) … */
  events: number;
  /** … each fanned out to this many subscriptions. */
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
  /** Temporal dev server SQLite with WAL + synchronous=OFF (the tests' setting). */
  fastSqlite: boolean;
  /** RELAY_INTERVAL of the worker. */
  relayInterval: string;
  /** LOG_LEVEL of the API and worker. */
  logLevel: string;
  /** A scenario gives up (and is VOID) after this many seconds without any delivery completing. */
  drainTimeout: number;
  /** Hard limit for the whole bench, seconds: everything is stopped after it. */
  maxSeconds: number;
  /** Where the JSON results go. */
  out: string;
  /** Print the service processes' output. */
  verbose: boolean;
  /** NODE_OPTIONS for the API and worker processes, e.g. `--cpu-prof --cpu-prof-dir=.data/bench/prof` to profile them. */
  nodeOptions: string | undefined;
  /** Write CPU profiles of the API and worker main threads to .data/bench/profiles/ (inspector, at exit). */
  profile: boolean;
  /** Seconds the receiver answers 503 in the outage scenario. */
  outage: number;
  /** Which scenarios run, in this fixed order: ingest0, baseline, ingest, throughput, rate, idle, fanouts, slow, outage, floor. */
  scenarios: string[];
}

export const allScenarios = ['ingest0', 'baseline', 'ingest', 'throughput', 'rate', 'idle', 'fanouts', 'slow', 'outage', 'floor'];

const spec = {
  events: { env: 'BENCH_EVENTS', def: 200, min: 1, max: 100_000 },
  subs: { env: 'BENCH_SUBS', def: 5, min: 1, max: 50 },
  rate: { env: 'BENCH_RATE', def: 100, min: 1, max: 10_000 },
  outage: { env: 'BENCH_OUTAGE', def: 60, min: 5, max: 600 },
  duration: { env: 'BENCH_DURATION', def: 20, min: 1, max: 600 },
  ingest: { env: 'BENCH_INGEST', def: 100, min: 1, max: 100_000 },
  concurrency: { env: 'BENCH_CONCURRENCY', def: 8, min: 1, max: 256 },
  idleEvents: { env: 'BENCH_IDLE_EVENTS', def: 10, min: 1, max: 1000 },
  baselineConcurrency: { env: 'BENCH_BASELINE_CONCURRENCY', def: 16, min: 1, max: 256 },
  sampleEvery: { env: 'BENCH_SAMPLE_EVERY', def: 10, min: 1, max: 1_000_000 },
  drainTimeout: { env: 'BENCH_DRAIN_TIMEOUT', def: 60, min: 5, max: 3600 },
  maxSeconds: { env: 'BENCH_MAX_SECONDS', def: 900, min: 30, max: 7200 },
} as const;

const flagName = (k: string) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export function parseOptions(argv = process.argv.slice(2), env = process.env): BenchOptions {
  const options: Record<string, { type: 'string' | 'boolean' }> = {
    'fast-sqlite': { type: 'boolean' },
    'relay-interval': { type: 'string' },
    'log-level': { type: 'string' },
    out: { type: 'string' },
    verbose: { type: 'boolean' },
    scenarios: { type: 'string' },
    'node-options': { type: 'string' },
    profile: { type: 'boolean' },
    help: { type: 'boolean' },
  };
  for (const k of Object.keys(spec)) options[flagName(k)] = { type: 'string' };
  const { values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  if (values.help) {
    const lines = Object.entries(spec).map(([k, s]) => `  --${flagName(k)} <n>  (${s.env}, default ${s.def})`);
    process.stdout.write(
      `usage: npm run bench -- [options]\n${lines.join('\n')}\n  --fast-sqlite  (BENCH_FAST_SQLITE=true)\n  --relay-interval <d>  (BENCH_RELAY_INTERVAL, default 1s)\n  --log-level <l>  (BENCH_LOG_LEVEL, default warn)\n  --out <file>  (BENCH_OUT, default .data/bench/latest.json)\n  --scenarios <list>  (BENCH_SCENARIOS, default ${allScenarios.join(',')})\n  --node-options <opts>  (BENCH_NODE_OPTIONS: NODE_OPTIONS of the API and worker, e.g. --cpu-prof)\n  --profile  (BENCH_PROFILE=true: CPU profiles of API and worker in .data/bench/profiles/)\n  --verbose\n`,
    );
    process.exit(0);
  }
  const num = (k: keyof typeof spec): number => {
    const s = spec[k];
    const raw = (values[flagName(k)] as string | undefined) ?? env[s.env];
    if (raw === undefined || raw === '') return s.def;
    const v = Number(raw);
    if (!Number.isFinite(v) || v < s.min || v > s.max) throw new Error(`--${flagName(k)} / ${s.env} must be a number from ${s.min} to ${s.max}, got ${raw}`);
    return v;
  };
  const scenarios = ((values.scenarios as string | undefined) ?? env.BENCH_SCENARIOS ?? allScenarios.join(','))
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const unknown = scenarios.filter((x) => !allScenarios.includes(x));
  if (unknown.length || !scenarios.length) throw new Error(`--scenarios takes a comma-separated subset of ${allScenarios.join(',')}; got ${unknown.join(',') || 'none'}`);
  const bool = (flag: boolean | undefined, raw: string | undefined) => flag ?? (raw === 'true' || raw === '1');
  return {
    events: Math.round(num('events')),
    subs: Math.round(num('subs')),
    rate: num('rate'),
    duration: num('duration'),
    ingest: Math.round(num('ingest')),
    concurrency: Math.round(num('concurrency')),
    idleEvents: Math.round(num('idleEvents')),
    baselineConcurrency: Math.round(num('baselineConcurrency')),
    sampleEvery: Math.round(num('sampleEvery')),
    drainTimeout: num('drainTimeout'),
    outage: num('outage'),
    maxSeconds: num('maxSeconds'),
    fastSqlite: bool(values['fast-sqlite'] as boolean | undefined, env.BENCH_FAST_SQLITE),
    relayInterval: (values['relay-interval'] as string | undefined) ?? env.BENCH_RELAY_INTERVAL ?? '1s',
    logLevel: (values['log-level'] as string | undefined) ?? env.BENCH_LOG_LEVEL ?? 'warn',
    out: (values.out as string | undefined) ?? env.BENCH_OUT ?? '.data/bench/latest.json',
    verbose: bool(values.verbose as boolean | undefined, env.BENCH_VERBOSE),
    scenarios,
    profile: bool(values.profile as boolean | undefined, env.BENCH_PROFILE),
    nodeOptions: (values['node-options'] as string | undefined) ?? env.BENCH_NODE_OPTIONS,
  };
}
