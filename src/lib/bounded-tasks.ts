/**
 * Work started without its caller waiting for it, at most `limit` units in flight: a caller
 * that would go past the limit waits until enough have finished (backpressure, not a queue
 * that grows without bound). `drain` waits for everything started so far.
 */
export class BoundedTasks {
  private inFlight = 0;
  /** Callers inside `start` that have not yet added their task: `drain` waits for them too. */
  private entering = 0;
  private readonly running = new Set<Promise<void>>();
  private readonly queue: Array<{ weight: number; admit: () => void }> = [];

  constructor(private readonly limit: number) {
    if (!(limit >= 1)) throw new Error(`BoundedTasks needs a limit of at least 1, got ${limit}`);
  }

  /** Units in flight now. */
  get size(): number {
    return this.inFlight;
  }

  /**
   * Starts `task` (worth `units`, at least 1) once there is room, and resolves as soon as it has
   * started, not when it ends. `task` must handle its own failure: a rejection is swallowed.
   * Callers are admitted first come, first served; a task bigger than the limit counts as the
   * limit, so it starts alone.
   */
  async start(task: () => Promise<void>, units = 1): Promise<void> {
    const weight = Math.min(this.limit, Math.max(1, units));
    this.entering++;
    try {
      if (this.queue.length === 0 && this.inFlight + weight <= this.limit) this.inFlight += weight;
      else await new Promise<void>((admit) => this.queue.push({ weight, admit }));
    } finally {
      this.entering--;
    }
    const run: Promise<void> = Promise.resolve()
      .then(task)
      .catch(() => {})
      .finally(() => {
        this.inFlight -= weight;
        this.running.delete(run);
        this.admitWaiting();
      });
    this.running.add(run);
  }

  /** Admits waiting callers in arrival order while they fit: a big one at the head is not overtaken. */
  private admitWaiting(): void {
    for (let next = this.queue[0]; next && this.inFlight + next.weight <= this.limit; next = this.queue[0]) {
      this.queue.shift();
      this.inFlight += next.weight;
      next.admit();
    }
  }

  /** Resolves once every task started so far (and any they let start meanwhile) has ended. */
  async drain(): Promise<void> {
    while (this.running.size > 0 || this.entering > 0) {
      if (this.running.size > 0) await Promise.all([...this.running]);
      // A caller woken by the last task adds its own on a later turn.
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
