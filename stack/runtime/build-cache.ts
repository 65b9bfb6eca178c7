import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** Thrown when a required server binary can be neither found nor built. */
export class BinaryError extends Error {
  override name = 'BinaryError';
}

/** True for an existing executable file. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function mtimeOrNow(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Fills cache directory `dir` once: `build` writes into a staging directory that is renamed
 * into place only when complete, and a lock directory serialises concurrent builders (e.g.
 * `npm start` and `npm test` at once); waiters return as soon as `isReady` says it is done.
 */
export async function buildIntoCache(
  dir: string,
  opts: { name: string; isReady: () => boolean; build: (staging: string) => Promise<void> },
): Promise<void> {
  mkdirSync(dirname(dir), { recursive: true });
  const lock = `${dir}.lock`;
  const waitStarted = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (opts.isReady()) return;
      if (Date.now() - mtimeOrNow(lock) > 30 * 60_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() - waitStarted > 45 * 60_000) throw new BinaryError(`Timed out waiting for another build of ${opts.name} (${lock})`);
      await sleep(2000);
    }
  }
  try {
    if (opts.isReady()) return;
    const staging = `${dir}.partial`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    await opts.build(staging);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface ProgressOptions {
  cwd?: string | undefined;
  env?: NodeJS.ProcessEnv;
  /** Label in progress lines and errors. */
  name: string;
  log: (line: string) => void;
  /** Which output lines count as progress, and what they count (e.g. "packages compiled"). */
  counts: (line: string) => boolean;
  unit: string;
}

/**
 * Runs a long build command, printing a progress line every 15 s and keeping its last output
 * lines for the error message if it fails.
 */
export function runWithProgress(cmd: string, args: string[], opts: ProgressOptions): Promise<void> {
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let count = 0;
    const tail: string[] = [];
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line.trim()) continue;
        tail.push(line);
        if (tail.length > 30) tail.shift();
        if (opts.counts(line)) count++;
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setInterval(() => {
      opts.log(`[build ${opts.name}] ${Math.round((Date.now() - started) / 1000)}s, ${count} ${opts.unit}...`);
    }, 15_000);
    child.on('error', (err) => {
      clearInterval(timer);
      reject(new BinaryError(`Cannot run ${cmd}: ${err.message}`));
    });
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code === 0) resolvePromise();
      else reject(new BinaryError(`Building ${opts.name} failed (${cmd} exited ${code}):\n${tail.join('\n')}`));
    });
  });
}
