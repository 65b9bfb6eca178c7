/**
 * `npm run bench:side-by-side -- --stacks local,cluster [bench flags]`: the bench once per server
 * profile, one after the other in one invocation (each on a stack of its own, everything else the
 * same), then one table of their ingest, throughput, CPU per delivery and latency. Flags other
 * than `--stacks` go to every `npm run bench` run; each run's JSON is kept beside the table's.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const args = process.argv.slice(2);
const at = args.indexOf('--stacks');
const stacks = (at >= 0 ? (args[at + 1] ?? '') : 'local,cluster').split(',').filter(Boolean);
const rest = at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
if (stacks.length === 0 || stacks.some((s) => s !== 'local' && s !== 'cluster')) {
  console.error('--stacks takes a comma-separated list of local and cluster');
  process.exit(2);
}
if (rest.includes('--stack') || rest.includes('--out')) {
  console.error('--stack and --out are set per run by this program');
  process.exit(2);
}

interface RunResult {
  machine?: { loadAverageAtStart?: number[]; loadAverageAtEnd?: number[] };
  ingestWithSubscriptions?: { requestsPerSecond?: number };
  throughput?: { deliveriesPerSecond: number; serviceCpuMsPerDelivery: number; latencyFromPostMs: { p50: number; p99: number }; delivered: number; emitted: number };
  void?: string;
}

const rows: string[][] = [];
let failed = false;
for (const stack of stacks) {
  const out = `.data/bench/side-by-side-${stack}.json`;
  console.log(`\n=== bench on the ${stack} profile (${out})`);
  // Sequential and bounded: each run has the bench's own watchdog (--max-seconds).
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--stack', stack, '--out', out, ...rest], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) failed = true;
  const r = JSON.parse(readFileSync(`${root}${out}`, 'utf8')) as RunResult;
  const t = r.throughput;
  const load = (l?: number[]) => (l ? l.map((x) => x.toFixed(1)).join(' ') : '?');
  rows.push([
    stack,
    r.ingestWithSubscriptions?.requestsPerSecond?.toFixed(1) ?? '-',
    t ? `${t.deliveriesPerSecond.toFixed(1)}` : '-',
    t ? t.serviceCpuMsPerDelivery.toFixed(2) : '-',
    t ? `${t.latencyFromPostMs.p50.toFixed(0)} / ${t.latencyFromPostMs.p99.toFixed(0)}` : '-',
    t ? `${t.delivered} / ${t.emitted}` : '-',
    `${load(r.machine?.loadAverageAtStart)} → ${load(r.machine?.loadAverageAtEnd)}`,
    r.void ?? (run.status === 0 ? 'ok' : `exit ${run.status}`),
  ]);
}

const header = ['profile', 'ingest orders/s', 'deliveries/s', 'CPU-ms/delivery', 'p50 / p99 ms', 'delivered', 'load average', 'run'];
console.log(`\n| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
process.exit(failed ? 1 : 0);
