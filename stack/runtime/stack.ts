/**
 * The one launcher: starts the servers of a profile (LOCAL_STACK: `local`, the embedded Temporal
 * dev server and MongoDB-wire database unless configured externally; `cluster`, PostgreSQL and a
 * two-node Temporal cluster on it, stack/runtime/cluster-servers.ts), then N API and N worker
 * processes from the real entry points, and hands back a part per process that can be stopped,
 * SIGKILLed and started again on the same port and data. `npm start`, the bench, soak, chaos and
 * the integration tests' servers all start through {@link startStack}.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadStackConfig, type StackConfig } from '../config/config';
import { planClusterServers } from './cluster-servers';
import { type LocalServersOptions, planLocalServers } from './local-servers';
import { getFreePort } from './ports';
import { type LineSink, ManagedProcess, type Unit, waitUntilReady } from './processes';
import { descendants } from './proc-tree';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The servers a profile starts, and what the API and worker processes need to reach them. */
export interface ServerSet {
  /** Variables over the processes' environment (MONGODB_URI, TEMPORAL_ADDRESS, ...). */
  env: Record<string, string>;
  /** Servers to start, in parallel; none when everything is external. */
  units: Unit[];
  /** One line per server for banners and reports, e.g. `database: FerretDB (SQLite), data in …`. */
  database: string;
  temporal: string;
  /** Set when an embedded Temporal serves its Web UI. */
  temporalUiUrl?: string;
  /** What the profile runs in this process (the cluster's balancer), closed after the servers stop. */
  close?: () => Promise<void>;
}

/** Plans a profile's servers from the configuration: one function per profile. */
export type ServerProfile = (config: StackConfig, opts: LocalServersOptions) => Promise<ServerSet>;

/** `local`: the Temporal dev server and one database, each unless its address is configured. */
const localProfile: ServerProfile = async (config, opts) => {
  const plan = await planLocalServers(config, opts);
  const uiUrl = plan.temporalUiUrl ? (config.api.portal.temporalUiUrl ?? plan.temporalUiUrl) : undefined;
  return {
    env: {
      MONGODB_URI: plan.mongoUri,
      TEMPORAL_ADDRESS: plan.temporalAddress,
      // Administrator portal sessions link to the embedded UI (an explicit TEMPORAL_UI_URL wins).
      ...(uiUrl ? { TEMPORAL_UI_URL: uiUrl } : {}),
    },
    units: plan.units,
    database: plan.mongoDescription,
    temporal: `${plan.temporalAddress} (namespace ${config.temporal.namespace})`,
    ...(plan.temporalUiUrl ? { temporalUiUrl: plan.temporalUiUrl } : {}),
  };
};

/** The server profiles by name; a profile adds a function here and nothing else. */
export const serverProfiles = { local: localProfile, cluster: planClusterServers } satisfies Record<string, ServerProfile>;
export type ServerProfileName = keyof typeof serverProfiles;

/** How a part ended without being told to. */
export interface PartExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  lastOutput: string;
}

/** One process of the stack: a server, an API or a worker. */
export interface StackPart {
  /** `temporal` (cluster: `temporal-1`, `temporal-2`), `ferretdb`/`mongod`, `postgres`; `api`/`worker`, or `api-0`, `worker-1`… when several. */
  readonly name: string;
  readonly kind: 'server' | 'api' | 'worker';
  readonly process: ManagedProcess | undefined;
  readonly pid: number | undefined;
  /** Starts it (again: same port, same data) and waits until it answers; `env` over the stack's own for this run. */
  start(env?: Record<string, string>): Promise<void>;
  /** Stops it gracefully (SIGTERM, then SIGKILL). */
  stop(): Promise<void>;
  /** SIGKILLs it and its descendants, as losing the machine would. */
  kill(): Promise<void>;
}

/** An API process: its base URL. */
export interface ApiPart extends StackPart {
  readonly url: string;
}

/** A worker process: its metrics URL, when it serves metrics. */
export interface WorkerPart extends StackPart {
  readonly metricsUrl: string | undefined;
}

export interface StackOptions extends LocalServersOptions {
  config: StackConfig;
  /** Which servers; LOCAL_STACK (config.localStack) unless given. */
  profile?: ServerProfileName;
  /** How many API and worker processes (default 1 each; 0 for only the servers). */
  apis?: number;
  workers?: number;
  /** Every API and worker metrics port from the OS; otherwise the first of each uses PORT and WORKER_METRICS_PORT. */
  freePorts?: boolean;
  /** The processes' environment under the stack's variables (default: this process's). */
  baseEnv?: NodeJS.ProcessEnv;
  /** Variables of every API and worker over the servers' (e.g. LOG_LEVEL, delivery settings). */
  serviceEnv?: Record<string, string>;
  /** Variables of one process (e.g. a debugger's NODE_OPTIONS). */
  processEnv?: (name: string) => Record<string, string>;
  /** Node flags of one process, before its script (e.g. `--cpu-prof`, which NODE_OPTIONS does not accept). */
  processExecArgv?: (name: string) => string[];
  /** Each API and worker output line. */
  processOutput?: (name: string, line: string) => void;
  /** Runs once the servers are up, before any API or worker starts (seeding). */
  beforeServices?: (servers: ServerSet) => Promise<void>;
  /** Called when a part exits without being told to. */
  onUnexpectedExit?: (part: StackPart, exit: PartExit) => void;
  /** Starts a part that exits by itself again, with backoff; `onFatal` after five in a minute. */
  supervise?: { onFatal: (reason: string) => void };
  /** How long an API or worker may take to answer (default 180 s). */
  readyTimeoutMs?: number;
}

/** The running stack. */
export interface Stack {
  config: StackConfig;
  servers: ServerSet;
  /** The variables every API and worker got (servers' and serviceEnv). */
  serviceEnv: Record<string, string>;
  serverParts: StackPart[];
  apis: ApiPart[];
  workers: WorkerPart[];
  /** The part named `name`; throws if there is none. */
  part(name: string): StackPart;
  /** Live pids by part name. */
  pids(): Record<string, number | undefined>;
  /** Stops the APIs, then the workers, then the servers. */
  stop(): Promise<void>;
}

/**
 * A configuration for a private stack: a fresh temp DATA_DIR and every server port from the OS,
 * with `env` on top (which may point at external servers with MONGODB_URI / TEMPORAL_ADDRESS).
 */
export async function privateStackConfig(env: Record<string, string | undefined> = {}, prefix = 'webhook-stack'): Promise<StackConfig> {
  // One at a time, so two calls never hand out the same port.
  const ports: Record<string, string> = {};
  for (const k of ['TEMPORAL_PORT', 'TEMPORAL_UI_PORT', 'MONGO_PORT', 'POSTGRES_PORT', 'PORT']) ports[k] = String(await getFreePort());
  return loadStackConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), `${prefix}-`)), ...ports, ...env });
}

/** Options of one API or worker entry-point process. */
export interface ServiceProcessOptions {
  env: NodeJS.ProcessEnv;
  onLine?: LineSink;
  /** How node runs it; by default the TypeScript source through tsx. */
  args?: string[];
  /** Node flags before `args` (e.g. `--cpu-prof`). */
  execArgv?: string[];
  cwd?: string;
  name?: string;
}

/** The real API (`src/entry/api.ts`) or worker (`src/entry/worker.ts`) entry point as a child process. */
export function serviceProcess(kind: 'api' | 'worker', opts: ServiceProcessOptions): ManagedProcess {
  return new ManagedProcess({
    name: opts.name ?? kind,
    command: process.execPath,
    args: [...(opts.execArgv ?? []), ...(opts.args ?? ['--import', 'tsx', `src/entry/${kind}.ts`])],
    cwd: opts.cwd ?? root,
    env: opts.env,
    ...(opts.onLine ? { onLine: opts.onLine } : {}),
  });
}

/** Starts the servers of the profile, then the API and worker processes, and waits until each answers. */
export async function startStack(opts: StackOptions): Promise<Stack> {
  const { config } = opts;
  const servers = await serverProfiles[opts.profile ?? config.localStack](config, opts);
  // Where to reach what listens on HOST (all interfaces: loopback).
  const host = ['0.0.0.0', '::'].includes(config.http.host) ? '127.0.0.1' : config.http.host;
  const portOf = async (i: number, configured: number) => (opts.freePorts || i > 0 ? getFreePort() : configured);
  const apiCount = opts.apis ?? 1;
  const workerCount = opts.workers ?? 1;
  const nameOf = (kind: string, i: number, n: number) => (n === 1 ? kind : `${kind}-${i}`);
  const serviceEnv: Record<string, string> = { ...servers.env, ...opts.serviceEnv };
  const parts: Array<StackPart & { watch?: boolean }> = [];
  let stopping = false;

  const part = (name: string, kind: StackPart['kind'], launch: (env: Record<string, string>) => Promise<Launched>, ready: (env: NodeJS.ProcessEnv) => Promise<boolean | string>) => {
    let current: Launched | undefined;
    let expected = false;
    let restarts: number[] = [];
    const self: StackPart = {
      name,
      kind,
      get process() {
        return current?.process;
      },
      get pid() {
        return current && !current.process.hasExited ? current.process.pid : undefined;
      },
      async start(env = {}) {
        expected = false;
        const started = await launch(env);
        current = started;
        void started.process.exited.then(({ code, signal }) => {
          if (expected || stopping || current !== started) return;
          const exit = { code, signal, lastOutput: started.process.recentOutput().split('\n').slice(-5).join('\n') };
          opts.onUnexpectedExit?.(self, exit);
          if (opts.supervise) void restart(exit);
        });
        await waitUntilReady(started.process, () => ready(started.env ?? {}), opts.readyTimeoutMs ?? 180_000);
      },
      async stop() {
        expected = true;
        await current?.stop();
      },
      async kill() {
        expected = true;
        const proc = current?.process;
        if (!proc || proc.hasExited) return;
        // The whole tree (tsx's esbuild helper too), as a crash of the machine would.
        if (proc.pid) for (const pid of descendants(proc.pid)) killQuietly(pid);
        await proc.kill();
      },
    };
    // A part that dies by itself starts again after 1, 2, 4… s; five times in a minute is a crash loop.
    const restart = async (exit: PartExit) => {
      const now = Date.now();
      restarts = restarts.filter((t) => now - t < 60_000);
      if (restarts.length >= 5) {
        opts.supervise?.onFatal(`${name} keeps crashing (last exit code ${exit.code}, signal ${exit.signal}):\n${current?.process.recentOutput() ?? ''}`);
        return;
      }
      const delay = Math.min(30_000, 1000 * 2 ** restarts.length);
      restarts.push(now);
      opts.log(`${name} exited unexpectedly (code ${exit.code}, signal ${exit.signal}); starting it again in ${delay / 1000}s`);
      await new Promise((r) => setTimeout(r, delay));
      if (stopping || expected) return;
      await self.start().then(
        () => opts.log(`${name} started again`),
        (err: Error) => opts.supervise?.onFatal(`${name} could not be started again: ${err.message}`),
      );
    };
    parts.push(self);
    return self;
  };

  // Servers wait for their own readiness in their units.
  const serverParts = servers.units.map((u) => part(u.name, 'server', () => u.start(), () => Promise.resolve(true)));
  const node = (kind: 'api' | 'worker', name: string, own: Record<string, string>, ready: (env: NodeJS.ProcessEnv) => Promise<boolean | string>) =>
    part(
      name,
      kind,
      (env) => {
        const childEnv = {
          ...(opts.baseEnv ?? process.env),
          ...serviceEnv,
          ...own,
          ...opts.processEnv?.(name),
          ...env,
          // Children exit if this process dies without stopping them (e.g. SIGKILL).
          WEBHOOK_SUPERVISOR_PID: String(process.pid),
        };
        const execArgv = opts.processExecArgv?.(name) ?? [];
        const p = serviceProcess(kind, { name, env: childEnv, execArgv, onLine: (line) => opts.processOutput?.(name, line) });
        return Promise.resolve({ process: p, stop: () => p.stop(20_000), env: childEnv });
      },
      ready,
    );
  const apis: ApiPart[] = [];
  for (let i = 0; i < apiCount; i++) {
    const port = await portOf(i, config.http.port);
    const url = `http://${host}:${port}`;
    apis.push(Object.assign(node('api', nameOf('api', i, apiCount), { PORT: String(port) }, () => fetch(`${url}/readyz`).then(async (r) => r.ok || `/readyz ${r.status} ${await r.text()}`)), { url }));
  }
  const workers: WorkerPart[] = [];
  for (let i = 0; i < workerCount; i++) {
    const configured = config.metrics.workerPort;
    const port = !config.metrics.enabled || (configured === 0 && !opts.freePorts) ? 0 : await portOf(i, configured);
    const metricsUrl = port ? `http://${host}:${port}/metrics` : undefined;
    // A worker started with METRICS_ENABLED=false serves nothing to ask: started is ready.
    const ready = (env: NodeJS.ProcessEnv) => (metricsUrl && env.METRICS_ENABLED !== 'false' ? fetch(metricsUrl).then((r) => r.ok) : Promise.resolve(true));
    // PORT: events link to the API at HOST:PORT when PUBLIC_URL is unset, so the first API's.
    const own = { WORKER_METRICS_PORT: String(port), PORT: apis[0] ? new URL(apis[0].url).port : String(config.http.port) };
    workers.push(Object.assign(node('worker', nameOf('worker', i, workerCount), own, ready), { metricsUrl }));
  }

  const stop = async () => {
    stopping = true;
    // The APIs, then the workers (a graceful stop can take seconds: each group at once), then the servers, newest first.
    await Promise.all(apis.map((p) => p.stop().catch(() => undefined)));
    await Promise.all(workers.map((p) => p.stop().catch(() => undefined)));
    for (const p of [...serverParts].reverse()) await p.stop().catch((err: Error) => opts.log(`stopping ${p.name}: ${err.message}`));
    await servers.close?.();
  };
  try {
    const results = await Promise.allSettled(serverParts.map((p) => p.start()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    await opts.beforeServices?.(servers);
    await Promise.all([...workers, ...apis].map((p) => p.start()));
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    config,
    servers,
    serviceEnv,
    serverParts,
    apis,
    workers,
    part(name) {
      const found = parts.find((p) => p.name === name);
      if (!found) throw new Error(`no part ${name} in this stack (${parts.map((p) => p.name).join(', ')})`);
      return found;
    },
    pids: () => Object.fromEntries(parts.map((p) => [p.name, p.pid])),
    stop,
  };
}

/** A started process, its stop, and the environment it got (for its readiness probe). */
interface Launched {
  process: ManagedProcess;
  stop: () => Promise<void>;
  env?: NodeJS.ProcessEnv;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
