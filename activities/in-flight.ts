/**
 * POSTs running in this worker per subscription, so one slow endpoint holds at most its limit of
 * the worker's concurrent POSTs. Per process: each worker bounds its own share.
 */
export class InFlight {
  private readonly running = new Map<string, number>();

  /** Takes a slot for `key` unless `limit` (> 0) are taken; true when taken. */
  take(key: string, limit: number): boolean {
    const n = this.running.get(key) ?? 0;
    if (limit > 0 && n >= limit) return false;
    this.running.set(key, n + 1);
    return true;
  }

  /** Gives back a slot `take` handed out. */
  release(key: string): void {
    const n = (this.running.get(key) ?? 1) - 1;
    if (n <= 0) this.running.delete(key);
    else this.running.set(key, n);
  }

  /** Slots taken for `key`. */
  count(key: string): number {
    return this.running.get(key) ?? 0;
  }
}
