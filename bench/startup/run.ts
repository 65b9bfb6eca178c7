/**
 * `npm run bench:startup`: the worker's start-up time and resident memory from the TypeScript
 * source (`node --import tsx`, workflows bundled with webpack at start) and from the compiled
 * build (`node dist/src/entry/worker.js`, prebuilt bundle), `--runs` each (default 3), in turns.
 * Start-up: spawn to the worker's first "worker polling" log line. RSS: VmRSS then, and VmHWM
 * (the peak). Runs `npm run build` first unless `--no-build`; embedded servers on free ports.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { privateStackConfig, startStack } from '../../stack/runtime/stack';

const root = fileURLToPath(new URL('../../', import.meta.url));
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
const modes = { source: ['--import', 'tsx', 'src/entry/worker.ts'], compiled: ['dist/src/entry/worker.js'] } as const;

if (!process.argv.includes('--no-build')) execFileSync(process.execPath, ['--import', 'tsx', 'tools/build.ts'], { cwd: root, stdio: 'inherit' });

const config = await privateStackConfig({}, 'webhook-service-startup');
// The launcher's servers only: the worker under measurement is spawned here, source or compiled.
const stack = await startStack({ config, apis: 0, workers: 0, log: () => {}, headless: true, fastSqlite: true });

/** kB from a /proc/<pid>/status line. */
const statusKb = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

async function once(args: readonly string[]): Promise<{ ms: number; rssMb: number; peakMb: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...stack.servers.env, TEMPORAL_TASK_QUEUE: `startup-${randomUUID()}`, WORKER_METRICS_PORT: '0', LOG_FORMAT: 'json', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const ms = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('worker did not poll within 120 s')), 120_000);
      let seen = '';
      child.stdout.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('"worker polling"')) {
          clearTimeout(timer);
          resolve(performance.now() - started);
        }
      });
      child.once('exit', (code) => reject(new Error(`worker exited (${code}) before polling`)));
    });
    return { ms, rssMb: statusKb(child.pid!, 'VmRSS') / 1024, peakMb: statusKb(child.pid!, 'VmHWM') / 1024 };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const results: Record<string, { ms: number; rssMb: number; peakMb: number }[]> = { source: [], compiled: [] };
try {
  for (let i = 0; i < runs; i++) {
    for (const [mode, args] of Object.entries(modes)) {
      const r = await once(args);
      results[mode]!.push(r);
      console.log(`${mode} run ${i + 1}: ${(r.ms / 1000).toFixed(2)} s to polling, RSS ${r.rssMb.toFixed(0)} MB (peak ${r.peakMb.toFixed(0)} MB), load ${loadavg()[0]!.toFixed(2)}`);
    }
  }
} finally {
  await stack.stop();
  rmSync(config.dataDir, { recursive: true, force: true });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log('\n| worker | start-up to polling, s (runs) | median | RSS at polling, MB (median) | peak RSS, MB (median) |\n|---|---|---|---|---|');
for (const [mode, rs] of Object.entries(results)) {
  console.log(`| ${mode} | ${rs.map((r) => (r.ms / 1000).toFixed(2)).join(', ')} | ${(median(rs.map((r) => r.ms)) / 1000).toFixed(2)} | ${median(rs.map((r) => r.rssMb)).toFixed(0)} | ${median(rs.map((r) => r.peakMb)).toFixed(0)} |`);
}
console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
