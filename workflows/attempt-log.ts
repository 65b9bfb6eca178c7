import { condition } from '@temporalio/workflow';

/**
 * Writes the event's settled attempts in batches, each at a point of the history that replays
 * identically: when no POST of the workflow is in flight. Local activity results that arrive
 * within one workflow task may be delivered one by one while the workflow runs and all together
 * when it replays; a write decided by "what has arrived so far" would then differ on replay
 * (a non-determinism error). Waiting for quiescence makes the batches, and everything that
 * follows them, the same either way; it also makes the M first attempts of an event one write.
 */
export class AttemptLog<T> {
  private inFlight = 0;
  private queue: { entry: T | undefined; done: () => void }[] = [];
  private closed = false;
  private readonly loop: Promise<void>;

  constructor(private readonly write: (entries: T[]) => Promise<void>) {
    this.loop = this.run();
  }

  /** A POST is about to start. */
  posting(): void {
    this.inFlight++;
  }

  /**
   * The POST ended, with its entry to log (none when it was skipped). Resolves once the batch
   * holding it is written: only then may the delivery act on the outcome.
   */
  settled(entry: T | undefined): Promise<void> {
    this.inFlight--;
    return new Promise((done) => this.queue.push({ entry, done }));
  }

  /** Writes what is queued and stops; resolves when everything settled is written. */
  async close(): Promise<void> {
    this.closed = true;
    await this.loop;
  }

  private async run(): Promise<void> {
    for (;;) {
      await condition(() => (this.queue.length > 0 && this.inFlight === 0) || (this.closed && this.queue.length === 0));
      if (this.queue.length === 0) return;
      const batch = this.queue.splice(0);
      const entries = batch.flatMap((b) => (b.entry === undefined ? [] : [b.entry]));
      if (entries.length > 0) await this.write(entries);
      for (const b of batch) b.done();
    }
  }
}
