import type { Worker } from '@temporalio/worker';
import type { Logger } from '../logger';
import { NativeConnection } from './create-worker';

export interface WorkerLoopOptions {
  address: string;
  logger: Logger;
  /** The worker, or the workers (one per lane), run together: one failing stops the others. */
  create: (connection: NativeConnection) => Promise<Worker | Worker[]>;
  /** Resolves when the process is asked to stop. */
  stopping: Promise<void>;
  maxBackoffMs?: number;
  /** A connection owned by someone else (an API client sharing it for eager starts), left open; default: one of its own per worker. */
  shared?: () => Promise<NativeConnection>;
}

/**
 * Runs the worker until asked to stop, and rebuilds it whenever Temporal goes away: an
 * outage pauses deliveries instead of killing the process (sleeping workflows live on in
 * Temporal and resume when it is back).
 */
export async function runWorkerUntilStopped(opts: WorkerLoopOptions): Promise<void> {
  let stop = false;
  let current: Worker[] = [];
  void opts.stopping.then(() => {
    stop = true;
    shutdownAll(current);
  });
  let failures = 0;
  while (!stop) {
    let owned: NativeConnection | undefined;
    try {
      const connection = opts.shared ? await opts.shared() : (owned = await NativeConnection.connect({ address: opts.address }));
      current = [await opts.create(connection)].flat();
      if (stop) break;
      failures = 0;
      opts.logger.info('worker polling');
      await runAll(current);
    } catch (err) {
      if (stop) break;
      failures++;
      const delay = Math.min(opts.maxBackoffMs ?? 30_000, 500 * 2 ** Math.min(failures, 10));
      opts.logger.warn({ err: (err as Error).message, retryInMs: delay }, 'worker lost Temporal; reconnecting');
      await Promise.race([new Promise((r) => setTimeout(r, delay)), opts.stopping]);
    } finally {
      current = [];
      await owned?.close().catch(() => undefined);
    }
  }
}

function shutdownAll(workers: readonly Worker[]): void {
  for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
}

/** Runs `workers` until all stop; the first to fail stops the others, and its error is thrown once they have. */
async function runAll(workers: readonly Worker[]): Promise<void> {
  const runs = workers.map((w) => w.run());
  try {
    await Promise.all(runs);
  } catch (err) {
    shutdownAll(workers);
    await Promise.allSettled(runs);
    throw err;
  }
}
