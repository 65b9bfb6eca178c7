import type { ManagedProcess } from './processes';

/** Something the supervisor starts, watches and restarts. */
export interface Unit {
  name: string;
  start: () => Promise<{ process: ManagedProcess; stop: () => Promise<void> }>;
}

interface Running {
  unit: Unit;
  current: { process: ManagedProcess; stop: () => Promise<void> };
  restarts: number[];
}

/**
 * Starts units in order, restarts one that dies (with backoff), gives up on a crash loop,
 * and stops them in reverse order so the API and worker go before their servers.
 */
export class Supervisor {
  private readonly running: Running[] = [];
  private stopping = false;

  constructor(
    private readonly log: (level: 'info' | 'warn' | 'error', msg: string) => void,
    private readonly onFatal: (reason: string) => void,
    private readonly maxRestartsPerMinute = 5,
  ) {}

  /** Starts `unit` and watches it from then on. */
  async add(unit: Unit): Promise<void> {
    const current = await unit.start();
    const entry: Running = { unit, current, restarts: [] };
    this.running.push(entry);
    this.watch(entry);
  }

  private watch(entry: Running): void {
    const proc = entry.current.process;
    void proc.exited.then(async ({ code, signal }) => {
      if (this.stopping) return;
      const now = Date.now();
      entry.restarts = entry.restarts.filter((t) => now - t < 60_000);
      if (entry.restarts.length >= this.maxRestartsPerMinute) {
        this.onFatal(`${entry.unit.name} keeps crashing (last exit code ${code}, signal ${signal}):\n${proc.recentOutput()}`);
        return;
      }
      const delay = Math.min(30_000, 1000 * 2 ** entry.restarts.length);
      entry.restarts.push(now);
      this.log('warn', `${entry.unit.name} exited unexpectedly (code ${code}, signal ${signal}); restarting in ${delay / 1000}s`);
      await new Promise((r) => setTimeout(r, delay));
      if (this.stopping) return;
      try {
        entry.current = await entry.unit.start();
        this.log('info', `${entry.unit.name} restarted`);
        this.watch(entry);
      } catch (err) {
        this.onFatal(`${entry.unit.name} could not be restarted: ${(err as Error).message}`);
      }
    });
  }

  /** Stops everything, newest first. */
  async stopAll(): Promise<void> {
    this.stopping = true;
    for (const entry of [...this.running].reverse()) {
      await entry.current.stop().catch((err: unknown) => this.log('error', `stopping ${entry.unit.name}: ${String(err)}`));
    }
  }
}
