import { type ChildProcess, spawn } from 'node:child_process';


/** A server or process to start; `start` resolves once it is ready and gives its stop. */
export interface Unit {
  name: string;
  start: () => Promise<{ process: ManagedProcess; stop: () => Promise<void> }>;
}

/** A line-oriented sink for a child's output. */
export type LineSink = (line: string) => void;

export interface ManagedProcessOptions {
  /** Short label used in logs and errors. */
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Receives each output line; the last lines are kept for error messages anyway. */
  onLine?: LineSink;
  /** Runs the child as this user and group (only root may). */
  uid?: number;
  gid?: number;
  /** What `stop()` sends first; SIGTERM unless the program reads another as "shut down now". */
  stopSignal?: NodeJS.Signals;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

// Last resort against orphans: if this process exits without stopping its children, kill them.
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

/** A child process that is stopped gracefully (SIGTERM, then SIGKILL) and never outlives us. */
export class ManagedProcess {
  readonly child: ChildProcess;
  readonly name: string;
  private readonly stopSignal: NodeJS.Signals;
  private readonly tail: string[] = [];
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(opts: ManagedProcessOptions) {
    installExitHook();
    this.name = opts.name;
    this.stopSignal = opts.stopSignal ?? 'SIGTERM';
    this.child = spawn(opts.command, opts.args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(opts.uid !== undefined ? { uid: opts.uid } : {}),
      ...(opts.gid !== undefined ? { gid: opts.gid } : {}),
    });
    live.add(this.child);
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line) continue;
        this.tail.push(line);
        if (this.tail.length > 40) this.tail.shift();
        opts.onLine?.(line);
      }
    };
    this.child.stdout?.on('data', onData);
    this.child.stderr?.on('data', onData);
    this.exited = new Promise((resolve) => {
      this.child.on('error', (err) => {
        this.tail.push(`spawn error: ${err.message}`);
        live.delete(this.child);
        this.exitInfo = { code: -1, signal: null };
        resolve(this.exitInfo);
      });
      this.child.on('exit', (code, signal) => {
        live.delete(this.child);
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the process has exited. */
  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  /** The last lines the process printed, for error messages. */
  recentOutput(): string {
    return this.tail.join('\n');
  }

  /** Sends the stop signal (SIGTERM), waits up to `graceMs`, then SIGKILL. Resolves once the process is gone. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.hasExited) return;
    this.child.kill(this.stopSignal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    try {
      await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Kills at once, as a crash would. */
  async kill(): Promise<void> {
    if (this.hasExited) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}

/**
 * Polls `probe` until it resolves true, the process exits, or `timeoutMs` passes. A probe may
 * resolve a string instead of false: why it is not ready yet. Errors name the process and
 * include the last such reason and its last output.
 */
export async function waitUntilReady(
  proc: ManagedProcess,
  probe: () => Promise<boolean | string>,
  timeoutMs: number,
  intervalMs = 250,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let reason = 'no answer';
  while (Date.now() < deadline) {
    if (proc.hasExited) {
      throw new Error(`${proc.name} exited during start-up:\n${proc.recentOutput()}`);
    }
    const answer = await probe().catch((err: unknown) => String(err));
    if (answer === true) return;
    if (typeof answer === 'string') reason = answer;
    await Promise.race([new Promise((r) => setTimeout(r, intervalMs)), proc.exited]);
  }
  throw new Error(`${proc.name} was not ready after ${Math.round(timeoutMs / 1000)}s (last: ${reason}):\n${proc.recentOutput()}`);
}

