/** Bench options: CLI flags only (`npm run bench -- --events 100`); `--quick` swaps in smaller defaults. */
import { parseArgs } from 'node:util';
import { type PrefillSpec, parsePrefill } from '../soak/options';

/** Every scenario, in the fixed order they run. */
export const allScenarios = ['ingest0', 'baseline', 'ingest', 'throughput', 'rate', 'idle', 'fanouts', 'broker', 'slow', 'noisy', 'outage', 'background', 'retention', 'metrics', 'floor'] as const;
export type Scenario = (typeof allScenarios)[number];

/** Numeric options: default, `--quick` default, bounds, help (the one table the usage is made from). */
const numeric = {
  events: { def: 200, quick: 20, min: 1, max: 100_000, help: 'N, events of the throughput runs at M and M=1, of the broker run and of the slow-receiver runs' },
  wideEvents: { def: 40, quick: 4, min: 1, max: 10_000, help: 'events of the M=50 throughput run' },
  subs: { def: 5, min: 1, max: 50, help: 'M, subscriptions per event' },
  rate: { def: 100, min: 1, max: 10_000, help: 'offered deliveries/s of the latency run (events/s = rate / subs)' },
  duration: { def: 20, quick: 3, min: 1, max: 600, help: 'seconds of the latency run' },
  ingest: { def: 100, quick: 20, min: 1, max: 100_000, help: 'orders per ingest run' },
  concurrency: { def: 8, min: 1, max: 256, help: 'C, concurrent API clients' },
  idleEvents: { def: 10, quick: 3, min: 1, max: 1000, help: 'events of the idle run, 1 s apart' },
  baselineConcurrency: { def: 16, min: 1, max: 256, help: 'concurrency of the in-process baseline' },
  sampleEvery: { def: 10, min: 1, max: 1_000_000, help: 'verify every n-th signature at the receiver' },
  noisyEvents: { def: 5000, quick: 200, min: 1, max: 100_000, help: 'events of owner A\'s burst in the noisy-neighbour run' },
  noisyBaseline: { def: 300, quick: 20, min: 5, max: 10_000, help: 'events of owner B alone (10/s) before the burst in the noisy-neighbour run; a p99 needs a few hundred' },
  outage: { def: 60, quick: 5, min: 5, max: 600, help: 'seconds the receiver answers 503' },
  background: { def: 10, quick: 2, min: 1, max: 600, help: 'seconds of the no-load CPU measurement' },
  retentionDocs: { def: 100_000, quick: 5000, min: 1000, max: 1_000_000, help: 'old attempts one retention pass deletes' },
  retentionBatch: { def: 1000, min: 10, max: 10_000, help: 'RETENTION_BATCH_SIZE of the worker' },
  drainTimeout: { def: 60, min: 5, max: 3600, help: 'VOID after this many seconds without a delivery completing' },
  maxSeconds: { def: 1200, quick: 300, min: 30, max: 7200, help: 'hard limit: everything is stopped, exit 2' },
  apis: { def: 1, min: 1, max: 8, help: 'API processes; more than one sit behind a loopback TCP balancer' },
  workers: { def: 1, min: 1, max: 8, help: 'worker processes' },
} satisfies Record<string, { def: number; quick?: number; min: number; max: number; help: string }>;

/** The other options: default (undefined: none) and help; booleans default to false. */
const textual = {
  scenarios: { def: allScenarios.join(','), help: 'a comma-separated subset to run (always in this order)' },
  skip: { def: '', help: 'scenarios left out' },
  stack: { def: 'local', help: 'the launcher\'s server profile: local (Temporal dev server) or cluster (two Temporal nodes on PostgreSQL)' },
  prefill: { def: 'none', help: 'write this first, as the soak does: none, ci, full or attempts=<n>,events=<n>,orders=<n>' },
  relayInterval: { def: '1s', help: 'RELAY_INTERVAL of the worker' },
  logLevel: { def: 'warn', help: 'LOG_LEVEL of the API and worker' },
  out: { def: '.data/bench/latest.json', help: 'where the JSON results go' },
  nodeOptions: { def: undefined, help: 'NODE_OPTIONS of the API and worker, e.g. "--max-old-space-size=512"' },
  cpuProf: { def: undefined, help: 'write CPU profiles of the API and worker (node --cpu-prof) into this directory, e.g. .data/bench/prof' },
  serviceEnv: { def: undefined, help: 'variables of the API and worker over the bench\'s own, comma-separated NAME=value, e.g. BULK_LANE_CONCURRENCY=20,OWNER_FAIR_RATE=0' },
} satisfies Record<string, { def: string | undefined; help: string }>;
const booleans = {
  quick: 'smaller defaults for a smoke run (under 5 minutes on 2 cores; not for figures)',
  fastSqlite: 'Temporal dev server SQLite with WAL + synchronous=OFF (the tests\' setting)',
  verbose: 'print the service processes\' output',
  apiDeliveryWorker: 'API_DELIVERY_WORKER=true: each API process also runs a delivery worker, so its workflow starts are eager',
  temporalFairness: 'matching.enableFairness=true on the Temporal dev server: tasks are dispatched fairly between the event workflows\' fairness keys (their owners)',
  dbCommands: 'count database commands per order and per delivery (DB_COMMAND_METRICS=true: command monitoring adds CPU, so the CPU figures of such a run are not comparable)',
};

/** Every option, as `parseOptions` returns it (and the results' JSON records it). */
export interface BenchOptions extends Record<keyof typeof numeric, number>, Record<keyof typeof booleans, boolean> {
  /** Which scenarios run (a subset of {@link allScenarios}, always in that order). */
  scenarios: Scenario[];
  stack: 'local' | 'cluster';
  /** Documents written before the scenarios; all 0: an empty database. */
  prefill: PrefillSpec;
  relayInterval: string;
  logLevel: string;
  out: string;
  nodeOptions: string | undefined;
  cpuProf: string | undefined;
  /** `--service-env`, parsed. */
  serviceEnv: Record<string, string>;
}

const flagName = (k: string) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The usage text of `--help`, from the tables above. */
function usage(): string {
  return [
    'usage: npm run bench -- [options]',
    ...Object.entries(booleans).map(([k, help]) => `  --${flagName(k)}  ${help}`),
    ...Object.entries(numeric).map(([k, s]) => `  --${flagName(k)} <n>  ${s.help} (default ${s.def}${'quick' in s ? `, --quick ${s.quick}` : ''})`),
    ...Object.entries(textual).map(([k, s]) => `  --${flagName(k)} <value>  ${s.help}${s.def ? ` (default ${s.def})` : ''}`),
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

/** `NAME=value,NAME=value` as a record, checked. */
function envList(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',').map((x) => x.trim()).filter(Boolean)) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(pair);
    if (!m) throw new Error(`--service-env takes comma-separated NAME=value pairs, got ${pair}`);
    out[m[1]!] = m[2]!;
  }
  return out;
}

/** Reads the flags; prints usage and exits on `--help`; throws naming the flag on a bad value. */
export function parseOptions(argv = process.argv.slice(2)): BenchOptions {
  const flags: Record<string, { type: 'string' | 'boolean' }> = { help: { type: 'boolean' } };
  for (const k of Object.keys(booleans)) flags[flagName(k)] = { type: 'boolean' };
  for (const k of [...Object.keys(numeric), ...Object.keys(textual)]) flags[flagName(k)] = { type: 'string' };
  const { values } = parseArgs({ args: argv, options: flags, strict: true, allowPositionals: false });
  if (values.help) {
    process.stdout.write(usage());
    process.exit(0);
  }
  const bool = (k: keyof typeof booleans) => values[flagName(k)] === true;
  const text = (k: keyof typeof textual) => (values[flagName(k)] as string | undefined) ?? textual[k].def;
  const num = (k: keyof typeof numeric): number => {
    const s: { def: number; quick?: number; min: number; max: number } = numeric[k];
    const raw = values[flagName(k)] as string | undefined;
    if (raw === undefined) return bool('quick') ? (s.quick ?? s.def) : s.def;
    const v = Number(raw);
    if (!Number.isFinite(v) || v < s.min || v > s.max) throw new Error(`--${flagName(k)} must be a number from ${s.min} to ${s.max}, got ${raw}`);
    // Only the durations may be fractional.
    return ['duration', 'outage', 'background', 'drainTimeout', 'maxSeconds', 'rate'].includes(k) ? v : Math.round(v);
  };
  const skip = scenarioList(text('skip')!, 'skip');
  const scenarios = scenarioList(text('scenarios')!, 'scenarios');
  const chosen = allScenarios.filter((x) => scenarios.includes(x) && !skip.includes(x));
  if (!chosen.length) throw new Error('--scenarios and --skip leave no scenario to run');
  const stack = text('stack')!;
  if (stack !== 'local' && stack !== 'cluster') throw new Error(`--stack must be local or cluster, got ${stack}`);
  return {
    ...(Object.fromEntries(Object.keys(numeric).map((k) => [k, num(k as keyof typeof numeric)])) as Record<keyof typeof numeric, number>),
    quick: bool('quick'),
    fastSqlite: bool('fastSqlite'),
    verbose: bool('verbose'),
    dbCommands: bool('dbCommands'),
    apiDeliveryWorker: bool('apiDeliveryWorker'),
    temporalFairness: bool('temporalFairness'),
    scenarios: chosen,
    stack,
    prefill: parsePrefill(text('prefill')!),
    relayInterval: text('relayInterval')!,
    logLevel: text('logLevel')!,
    out: text('out')!,
    nodeOptions: text('nodeOptions'),
    cpuProf: text('cpuProf'),
    serviceEnv: envList(text('serviceEnv')),
  };
}
