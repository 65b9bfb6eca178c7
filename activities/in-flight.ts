/**
 * POSTs running in this worker per subscription, so one slow endpoint holds at most its limit of
 * the worker's concurrent POSTs. Per process: each worker bounds its own share.
 */
export class InFlight {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  /** Takes a slot for `key` unless `limit` (> 0) are taken; true when taken. */
  take(key: string, limit: number): boolean {
    const n = this.running.get(key) ?? 0;
    if (limit > 0 && n >= limit) return false;
    this.running.set(key, n + 1);
    return true;
  }

  /** Takes a slot as `take` does, or waits up to `waitMs` for one a release hands over (first come, first served); true when taken. */
  takeWithin(key: string, limit: number, waitMs: number): Promise<boolean> | boolean {
    if (this.take(key, limit)) return true;
    if (waitMs <= 0) return false;
    return new Promise((resolve) => {
      const queue = this.waiting.get(key) ?? [];
      const handOver = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(handOver), 1);
        if (queue.length === 0 && this.waiting.get(key) === queue) this.waiting.delete(key);
        resolve(false);
      }, waitMs);
      queue.push(handOver);
      this.waiting.set(key, queue);
    });
  }

  /** Gives back a slot `take` handed out: to the first waiter for `key`, if any. */
  release(key: string): void {
    const queue = this.waiting.get(key);
    const next = queue?.shift();
    if (queue?.length === 0) this.waiting.delete(key);
    if (next) return next();
    const n = (this.running.get(key) ?? 1) - 1;
    if (n <= 0) this.running.delete(key);
    else this.running.set(key, n);
  }

  /** Slots taken for `key`. */
  count(key: string): number {
    return this.running.get(key) ?? 0;
  }
}
