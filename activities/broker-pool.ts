import { createHash } from 'node:crypto';

/** How long an unused broker connection stays open. */
export const DEFAULT_IDLE_MS = 60_000;

/** What the pool tracks of each connection. */
export interface Pooled {
  lastUsed: number;
  /** Attempts using it now: never closed for idleness while above 0. */
  busy: number;
}

/**
 * Broker connections of one worker process by key (a subscription and its connection, see
 * {@link connectionKey}): found or made on use, closed after `idleMs` unused by a timer that
 * does not keep the process alive.
 */
export class IdlePool<E extends Pooled> {
  readonly #entries = new Map<string, E>();
  readonly #idleMs: number;
  readonly #close: (entry: E) => Promise<void>;
  #sweeper: NodeJS.Timeout | undefined;
  /** The clock of lastUsed. */
  readonly now: () => number;

  constructor(close: (entry: E) => Promise<void>, opts: { idleMs?: number; now?: () => number } = {}) {
    this.#close = close;
    this.#idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
    this.now = opts.now ?? Date.now;
  }

  /** Open connections (for tests and metrics). */
  get size(): number {
    return this.#entries.size;
  }

  /** The entry of `key`, made by `make` when there is none. */
  get(key: string, make: () => E): E {
    const found = this.#entries.get(key);
    if (found) return found;
    const entry = make();
    this.#entries.set(key, entry);
    this.#sweep();
    return entry;
  }

  /** Runs `work` with `entry` marked busy, and marks it used. */
  async use<T>(entry: E, work: () => Promise<T>): Promise<T> {
    entry.busy++;
    entry.lastUsed = this.now();
    try {
      return await work();
    } finally {
      entry.busy--;
      entry.lastUsed = this.now();
    }
  }

  /** Forgets `entry` (if still the one of `key`) and closes it. */
  drop(key: string, entry: E): void {
    if (this.#entries.get(key) === entry) this.#entries.delete(key);
    void this.#close(entry);
  }

  /** Closes every connection; the pool makes new ones if used again. */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(entries.map((e) => this.#close(e)));
  }

  #sweep(): void {
    if (this.#sweeper) return;
    this.#sweeper = setInterval(
      () => {
        const now = this.now();
        for (const [key, entry] of this.#entries) if (entry.busy === 0 && now - entry.lastUsed >= this.#idleMs) this.drop(key, entry);
        if (this.#entries.size === 0) {
          clearInterval(this.#sweeper);
          this.#sweeper = undefined;
        }
      },
      Math.max(1000, Math.min(this.#idleMs, 30_000)),
    );
    this.#sweeper.unref();
  }
}

/** A pool key: the subscription and its connection (address and credentials), the credentials only as a hash. */
export function connectionKey(subscriptionId: string, connection: readonly unknown[]): string {
  return `${subscriptionId} ${createHash('sha256').update(JSON.stringify(connection)).digest('base64url')}`;
}
