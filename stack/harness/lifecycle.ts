/** A harness program's lifecycle (bench, soak, chaos): cleanups run once, on success, failure, a signal or the watchdog. */
import type { Cleanup } from './stack';

/** Thrown when a run must not count: a delivery went missing or a signature did not verify. */
export class VoidRun extends Error {
  override name = 'VoidRun';
}

/** The cleanups (pushed in start order, run in reverse, once) and how the run ended. */
export type Lifecycle = ReturnType<typeof createLifecycle>;

/** Installs the signal handlers and a watchdog that stops everything after `maxSeconds`. */
export function createLifecycle(maxSeconds: number, log: (line: string) => void) {
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
  // forcedExit: the code a signal or the watchdog forced; disarm: the run ended by itself.
  return { cleanups, cleanup, forcedExit: () => forced, disarm: () => clearTimeout(watchdog) };
}

/** What a bench program (bench, soak, chaos) runs with: its options, a timed log and its lifecycle. */
export interface Program<O> {
  opts: O;
  log: (line: string) => void;
  life: Lifecycle;
}

/**
 * Reads a program's options (a bad one: its message and `usage`, exit 64; `--help`: the usage,
 * exit 0), and starts its timed log and lifecycle with the watchdog at `maxSeconds`.
 */
export function startProgram<O extends { maxSeconds: number }>(name: string, parse: () => O | 'help', usage = ''): Program<O> {
  let parsed: O | 'help';
  try {
    parsed = parse();
  } catch (err) {
    // A bad option is the caller's mistake: its message, not a stack.
    process.stderr.write(`${(err as Error).message}\n${usage}`);
    process.exit(64);
  }
  if (parsed === 'help') {
    process.stdout.write(usage);
    process.exit(0);
  }
  const t0 = performance.now();
  const log = (line: string) => process.stderr.write(`[${name} +${((performance.now() - t0) / 1000).toFixed(1)}s] ${line}\n`);
  return { opts: parsed, log, life: createLifecycle(parsed.maxSeconds, log) };
}

/**
 * Runs `main`, then every cleanup whatever happened, and exits with its code (1 if it threw;
 * a signal's or the watchdog's code first); `afterCleanup` may change the code once all stopped.
 */
export async function finishProgram(name: string, p: Program<unknown>, main: () => Promise<number>, afterCleanup?: (code: number) => number): Promise<never> {
  let code = 1;
  try {
    code = await main();
  } catch (err) {
    if (p.life.forcedExit() === undefined) p.log(`${name} failed: ${(err as Error).stack ?? String(err)}`);
    code = 1;
  } finally {
    p.life.disarm();
    if (p.life.forcedExit() === undefined) p.log('stopping everything');
    await p.life.cleanup();
  }
  if (afterCleanup) code = afterCleanup(code);
  process.exit(p.life.forcedExit() ?? code);
}
