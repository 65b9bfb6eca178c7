import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Connection } from '@temporalio/client';
import { searchAttributes } from '../../src/compose/dev-stack';
import { type LineSink, ManagedProcess, waitUntilReady } from './processes';

export interface TemporalDevServerOptions {
  binary: string;
  port: number;
  uiPort: number;
  /** SQLite file: sleeping workflows survive a restart. */
  dbFile: string;
  namespace: string;
  /** false: register no search attributes (tests of the worker's own setup, as on a fresh cluster). */
  searchAttributes?: boolean;
  /** Disable the Web UI (tests). */
  headless?: boolean;
  /** Trade durability of the last writes for speed (tests only). */
  fastSqlite?: boolean;
  onLine?: LineSink;
  readyTimeoutMs?: number;
}

export interface RunningTemporal {
  address: string;
  uiUrl: string | undefined;
  process: ManagedProcess;
  stop: () => Promise<void>;
}

/** Command-line arguments for `temporal server start-dev`. */
export function temporalDevServerArgs(opts: TemporalDevServerOptions): string[] {
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--db-filename',
    opts.dbFile,
    '--log-level',
    'error',
  ];
  if (opts.namespace !== 'default') args.push('--namespace', opts.namespace);
  // The worker registers them too (src/temporal/setup.ts); here they are there before it starts.
  if (opts.searchAttributes !== false) for (const [name, type] of Object.entries(searchAttributes)) args.push('--search-attribute', `${name}=${type}`);
  if (opts.headless) args.push('--headless');
  else args.push('--ui-port', String(opts.uiPort));
  // WAL with synchronous=NORMAL survives a process crash (only an OS crash may lose the last
  // commits) and measured 15 → 24 deliveries/s on 2 cores; tests go further with OFF.
  args.push('--sqlite-pragma', 'journal_mode=WAL', '--sqlite-pragma', `synchronous=${opts.fastSqlite ? 'OFF' : 'NORMAL'}`);
  // One task-queue partition: on a single-node server the default four only add forwarding
  // between partitions (npm run bench:floor: 43 → 53 deliveries/s, 20 → 15 Temporal CPU-ms each).
  for (const key of ['matching.numTaskqueueReadPartitions', 'matching.numTaskqueueWritePartitions']) {
    args.push('--dynamic-config-value', `${key}=1`);
  }
  // The transfer queue's reader loads at most 20 times a second per shard (and the dev server has
  // one shard): events a few tens of ms apart then waited for it (npm run bench:floor, idle
  // p50 50-59 → 23-35 ms; deliveries/s and CPU per delivery unchanged).
  args.push('--dynamic-config-value', 'history.transferProcessorMaxPollRPS=1000');
  // The dev server reloads its search attributes from SQLite on every use (so attributes added
  // while it runs apply at once): ~8 cluster-metadata and 3 namespace reads per event on its one
  // database connection. Ours are all registered above, at start (npm run bench:floor, 200 × 5:
  // persistence time halved, 88/175 → 183/218 deliveries/s).
  args.push('--dynamic-config-value', 'system.forceSearchAttributesCacheRefreshOnRead=false');
  return args;
}

/** Starts the Temporal CLI dev server and waits until its namespace answers. */
export async function startTemporalDevServer(opts: TemporalDevServerOptions): Promise<RunningTemporal> {
  mkdirSync(dirname(opts.dbFile), { recursive: true });
  const proc = new ManagedProcess({
    name: 'temporal',
    command: opts.binary,
    args: temporalDevServerArgs(opts),
    ...(opts.onLine ? { onLine: opts.onLine } : {}),
  });
  const address = `127.0.0.1:${opts.port}`;
  try {
    await waitUntilReady(proc, () => namespaceReady(address, opts.namespace), opts.readyTimeoutMs ?? 60_000, 500);
  } catch (err) {
    await proc.stop();
    throw err;
  }
  return {
    address,
    uiUrl: opts.headless ? undefined : `http://localhost:${opts.uiPort}`,
    process: proc,
    stop: () => proc.stop(15_000),
  };
}

/** True once the frontend answers for the namespace. */
export async function namespaceReady(address: string, namespace: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: 1000 });
  try {
    await connection.workflowService.describeNamespace({ namespace });
    return true;
  } finally {
    await connection.close();
  }
}
