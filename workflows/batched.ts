import { condition } from '@temporalio/workflow';

/**
 * Collects items from the workflow's concurrent branches and hands them to `write` in batches:
 * everything added during one activation goes in one call (conditions are checked once the
 * activation's branches have run), so M deliveries settled together cost one activity, not M.
 */
export class Batched<T> {
  private queue: { item: T; done: () => void }[] = [];
  private closed = false;
  private readonly loop: Promise<void>;

  constructor(private readonly write: (items: T[]) => Promise<void>) {
    this.loop = this.run();
  }

  /** Queues `item`; resolves once the batch holding it is written. */
  add(item: T): Promise<void> {
    return new Promise((done) => this.queue.push({ item, done }));
  }

  /** Writes what is queued and stops; resolves when everything added is written. */
  async close(): Promise<void> {
    this.closed = true;
    await this.loop;
  }

  private async run(): Promise<void> {
    for (;;) {
      await condition(() => this.queue.length > 0 || this.closed);
      if (this.queue.length === 0) return;
      const batch = this.queue.splice(0);
      await this.write(batch.map((b) => b.item));
      for (const b of batch) b.done();
    }
  }
}
