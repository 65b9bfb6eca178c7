/**
 * The service under chaos: embedded Temporal dev server and database (planLocalServers, whose
 * units start a server again on the same port and data), two API processes and two workers, all
 * on free loopback ports in a temp DATA_DIR. Every part can be SIGKILLed and started again by
 * role; a part that dies by itself is noted and started again.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from 'mongodb';
import { loadConfig } from '../../src/config/config';
import { planLocalServers } from '../../src/runtime/local-servers';
import { getFreePort } from '../../src/runtime/ports';
import { ManagedProcess, waitUntilReady } from '../../src/runtime/processes';
import type { Unit } from '../../src/runtime/supervisor';
import type { TemporalGateway } from '../../src/temporal/connection';
import { descendants } from '../../tools/lib/proc-tree';
import { type Cleanup, runClients, serviceEnvironment } from '../lib/stack';
import type { ChaosOptions } from './options';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Service output worth counting: what explains refusals and duplicates. */
export const notable: Record<string, string> = {
  // A workflow task (with its round of local-activity POSTs) ran past the server's task timeout: its round runs again.
  'workflow task timed out': 'Task not found when completing',
  'workflow task over 5 s': 'TMPRL1104',
  'workflow start deferred to the relay': 'Failed to start Workflow',
  E11000: 'E11000',
};

/** The parts the run kills and starts again. */
export type Role = 'api-0' | 'api-1' | 'worker-0' | 'worker-1' | 'temporal' | 'database';

/** Something that died without being told to. */
export interface UnexpectedExit {
  role: Role;
  at: number;
  code: number | null;
  signal: string | null;
  lastOutput: string;
}

export interface ChaosStack {
  dataDir: string;
  apiUrls: [string, string];
  apiKey: string;
  db: Db;
  temporal: TemporalGateway;
  dbDescription: string;
  /** The delivery settings handed to the workers. */
  serviceEnv: Record<string, string>;
  unexpectedExits: UnexpectedExit[];
  /** Output lines per role (LOG_LEVEL=warn: warnings and errors). */
  outputLines: Record<string, number>;
  /** Lines with a {@link notable} pattern, per pattern and role. */
  notableLines: Record<string, Record<string, number>>;
  /** SIGKILLs the role's process and its descendants, as a crash would. */
  kill(role: Role): Promise<void>;
  /** Starts the role again (same port, same data) and waits until it answers. */
  start(role: Role): Promise<void>;
  pids(): Partial<Record<Role, number>>;
}

interface Running {
  unit: Unit;
  proc?: ManagedProcess;
  stop?: () => Promise<void>;
  /** Set while the run itself kills or stops it, so its exit is not reported as unexpected. */
  expectedExit: boolean;
  restarts: number;
}

/** Starts everything; every started part is stopped by the cleanups, newest first. */
export async function startChaosStack(opts: ChaosOptions, cleanups: Cleanup[], log: (line: string) => void): Promise<ChaosStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webhook-chaos-'));
  cleanups.push({ name: 'temp dir', fn: () => rmSync(dataDir, { recursive: true, force: true }) });
  // One at a time, so two calls never hand out the same port.
  const ports: number[] = [];
  for (let i = 0; i < 8; i++) ports.push(await getFreePort());
  const [temporalPort, uiPort, mongoPort, api0, api1, metrics0, metrics1, postgresPort] = ports as [number, number, number, number, number, number, number, number];

  const passthrough: Record<string, string> = {};
  for (const k of ['BINARY_CACHE_DIR', 'TEMPORAL_CLI_PATH', 'FERRETDB_PATH', 'MONGOD_PATH', 'EMBEDDED_DB_BACKEND', 'POSTGRES_BIN_DIR']) {
    const v = process.env[k];
    if (v) passthrough[k] = v;
  }
  // Only embedded servers: the run kills them, so it never points at external ones.
  const config = loadConfig({ ...passthrough, DATA_DIR: dataDir, TEMPORAL_PORT: String(temporalPort), TEMPORAL_UI_PORT: String(uiPort), MONGO_PORT: String(mongoPort), POSTGRES_PORT: String(postgresPort) });
  const serverOutput = opts.verbose ? (server: string, line: string) => process.stderr.write(`[${server}] ${line}\n`) : undefined;
  const plan = await planLocalServers(config, { log, headless: true, ...(serverOutput ? { serverOutput } : {}) });
  const byName = (name: string) => plan.units.find((u) => u.name === name);
  const wireUnit = byName('ferretdb') ?? byName('mongod');
  const temporalUnit = byName('temporal');
  // The database role is FerretDB and, under it, its PostgreSQL: killed and started together.
  const postgresUnit = byName('postgres');
  let postgresProc: ManagedProcess | undefined;
  const dbUnit: Unit | undefined = wireUnit && {
    name: 'database',
    start: async () => {
      const pg = postgresUnit ? await postgresUnit.start() : undefined;
      postgresProc = pg?.process;
      const wire = await wireUnit.start();
      return { process: wire.process, stop: () => wire.stop().then(() => pg?.stop()) };
    },
  };
  if (!dbUnit || !temporalUnit) throw new Error('the embedded servers were not planned (is MONGODB_URI or TEMPORAL_ADDRESS set?)');

  const { env, serviceEnv: base } = serviceEnvironment(plan, config, dataDir);
  const serviceEnv: Record<string, string> = {
    ...base,
    LOG_LEVEL: 'warn',
    RELAY_INTERVAL: '1s',
    DELIVERY_RETRY_SCHEDULE: opts.retrySchedule,
    DELIVERY_MAX_ATTEMPTS: String(opts.maxAttempts),
    DELIVERY_TIMEOUT: '5s',
    // Production requires secrets sealed at rest: a throw-away key for the run.
    SECRET_ENCRYPTION_KEY: `chaos:${randomBytes(32).toString('base64')}`,
    // The APIs and workers exit by themselves should this process die without stopping them.
    WEBHOOK_SUPERVISOR_PID: String(process.pid),
  };
  const outputLines: Record<string, number> = {};
  const notableLines: Record<string, Record<string, number>> = {};
  const nodeUnit = (name: Role, entry: string, extra: Record<string, string>): Unit => ({
    name,
    start: () => {
      const p = new ManagedProcess({
        name,
        command: process.execPath,
        args: ['--import', 'tsx', entry],
        cwd: root,
        env: { ...env, ...serviceEnv, ...extra },
        onLine: (line) => {
          const n = (outputLines[name] = (outputLines[name] ?? 0) + 1);
          for (const [label, pattern] of Object.entries(notable)) {
            if (!line.includes(pattern)) continue;
            const counts = (notableLines[label] ??= {});
            counts[name] = (counts[name] ?? 0) + 1;
          }
          // The first few warnings per process are shown; a repeated error would flood the output.
          if (opts.verbose || n <= 5) process.stderr.write(`[${name}] ${line.slice(0, 400)}\n`);
        },
      });
      return Promise.resolve({ process: p, stop: () => p.stop(20_000) });
    },
  });
  const apiUrls: [string, string] = [`http://127.0.0.1:${api0}`, `http://127.0.0.1:${api1}`];
  const units: Record<Role, Unit> = {
    database: dbUnit,
    temporal: temporalUnit,
    'api-0': nodeUnit('api-0', 'src/entry/api.ts', { PORT: String(api0) }),
    'api-1': nodeUnit('api-1', 'src/entry/api.ts', { PORT: String(api1) }),
    'worker-0': nodeUnit('worker-0', 'src/entry/worker.ts', { WORKER_METRICS_PORT: String(metrics0) }),
    'worker-1': nodeUnit('worker-1', 'src/entry/worker.ts', { WORKER_METRICS_PORT: String(metrics1) }),
  };
  const readiness: Record<Role, () => Promise<boolean>> = {
    database: () => Promise.resolve(true),
    temporal: () => Promise.resolve(true),
    'api-0': () => fetch(`${apiUrls[0]}/readyz`).then((r) => r.ok),
    'api-1': () => fetch(`${apiUrls[1]}/readyz`).then((r) => r.ok),
    'worker-0': () => fetch(`http://127.0.0.1:${metrics0}/metrics`).then((r) => r.ok),
    'worker-1': () => fetch(`http://127.0.0.1:${metrics1}/metrics`).then((r) => r.ok),
  };

  const running = new Map<Role, Running>();
  const unexpectedExits: UnexpectedExit[] = [];
  const start = async (role: Role): Promise<void> => {
    const r = running.get(role) ?? { unit: units[role], expectedExit: false, restarts: 0 };
    running.set(role, r);
    r.expectedExit = false;
    // Servers' units wait for readiness themselves; the node processes are polled below.
    const s = await r.unit.start();
    r.proc = s.process;
    r.stop = s.stop;
    void s.process.exited.then(({ code, signal }) => {
      if (r.expectedExit || r.proc !== s.process) return;
      unexpectedExits.push({ role, at: Date.now(), code, signal, lastOutput: s.process.recentOutput().split('\n').slice(-5).join('\n') });
      log(`${role} exited by itself (code ${code}, signal ${signal}); starting it again`);
      // A crash loop is a finding, not something to hammer: at most 5 restarts per role.
      if (r.restarts++ < 5) setTimeout(() => void start(role).catch((err: Error) => log(`restarting ${role} failed: ${err.message}`)), 1000);
    });
    await waitUntilReady(s.process, readiness[role], 120_000, 250);
  };
  const kill = async (role: Role): Promise<void> => {
    const r = running.get(role);
    if (!r?.proc || r.proc.hasExited) return;
    r.expectedExit = true;
    const pid = r.proc.pid;
    // The whole tree (tsx's esbuild helper too), as losing the machine's process would.
    if (pid) for (const d of descendants(pid)) killQuietly(d);
    await r.proc.kill();
    if (role === 'database' && postgresProc?.pid && !postgresProc.hasExited) {
      for (const d of [postgresProc.pid, ...descendants(postgresProc.pid)]) killQuietly(d);
      await postgresProc.exited;
    }
  };
  const order: Role[] = ['database', 'temporal', 'worker-0', 'worker-1', 'api-0', 'api-1'];
  const stop = async (role: Role) => {
    const r = running.get(role);
    if (!r?.proc || r.proc.hasExited) return;
    r.expectedExit = true;
    await r.stop?.();
  };
  // The APIs, then the workers, then the servers: each pair at once (a worker's graceful stop can take seconds).
  cleanups.push({
    name: 'service processes and servers',
    fn: async () => {
      for (const pair of [['api-0', 'api-1'], ['worker-0', 'worker-1'], ['temporal', 'database']] as Role[][]) await Promise.all(pair.map(stop));
    },
  });
  await Promise.all([start('database'), start('temporal')]);
  const { db, apiKey, temporal } = await runClients({ plan, config, owner: 'chaos', dropDatabase: false }, cleanups);
  for (const role of order.slice(2)) await start(role);

  return {
    dataDir,
    apiUrls,
    apiKey,
    db,
    temporal,
    dbDescription: plan.mongoDescription,
    serviceEnv,
    unexpectedExits,
    outputLines,
    notableLines,
    kill,
    start,
    pids: () => Object.fromEntries([...running].map(([role, r]) => [role, r.proc?.hasExited ? undefined : r.proc?.pid])),
  };
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
