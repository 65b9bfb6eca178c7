/** The bench's own lifecycle: cleanups run once, on success, failure, a signal or the watchdog. */
import type { Cleanup } from './stack';

/** Thrown when a run must not count: a delivery went missing or a signature did not verify. */
export class VoidRun extends Error {
  override name = 'VoidRun';
}

export interface Lifecycle {
  /** Pushed in start order; run in reverse. */
  cleanups: Cleanup[];
  cleanup(): Promise<void>;
  /** The exit code a signal or the watchdog forced, if any. */
  forcedExit(): number | undefined;
  /** Stops the watchdog (the run ended by itself). */
  disarm(): void;
}

/** Installs the signal handlers and a watchdog that stops everything after `maxSeconds`. */
export function createLifecycle(maxSeconds: number, log: (line: string) => void): Lifecycle {
  const cleanups: Cleanup[] = [];
  let cleaning: Promise<void> | undefined;
  let forced: number | undefined;
  const cleanup = (): Promise<void> => {
    cleaning ??= (async () => {
      for (const c of cleanups.splice(0).reverse()) {
        try {
          await c.fn();
        } catch (err) {
          log(`cleanup of ${c.name} failed: ${(err as Error).message}`);
        }
      }
    })();
    return cleaning;
  };
  const exitWith = async (code: number, reason: string): Promise<never> => {
    if (forced === undefined) {
      forced = code;
      log(reason);
      log('stopping everything');
    }
    await cleanup();
    process.exit(forced);
  };
  process.on('SIGINT', () => void exitWith(130, 'interrupted (SIGINT)'));
  process.on('SIGTERM', () => void exitWith(143, 'terminated (SIGTERM)'));
  const watchdog = setTimeout(() => void exitWith(2, `time limit of ${maxSeconds}s reached (--max-seconds)`), maxSeconds * 1000);
  return { cleanups, cleanup, forcedExit: () => forced, disarm: () => clearTimeout(watchdog) };
}
