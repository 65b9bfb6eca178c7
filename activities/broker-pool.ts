import { createHash } from 'node:crypto';
import { bounded } from './broker-timing';

/** How long an unused broker connection stays open. */
export const DEFAULT_BROKER_IDLE_MS = 60_000;

/** How long closing a pool waits for each connection: a broker that does not answer must not hold a worker's stop. */
export const DEFAULT_BROKER_CLOSE_MS = 5_000;

interface Entry<C> {
  connection: Promise<C>;
  lastUsed: number;
  busy: number;
}

/** One use of a pooled connection: released when the attempt ends, dropped when it proved broken. */
export interface Lease<C> {
  connection: Promise<C>;
  release: () => void;
  /** Forgets and closes the connection: the next attempt opens a new one. */
  drop: () => void;
}

/**
 * A worker's connections to one kind of broker, one per key (a subscription and its connection,
 * see {@link brokerPoolKey}): deliveries to it reuse the connection, one unused for `idleMs` is
 * closed, one that failed or closed is forgotten so the next attempt connects afresh, and no two
 * keys share one.
 */
export class BrokerPool<C> {
  readonly #entries = new Map<string, Entry<C>>();
  readonly #close: (connection: C) => Promise<void>;
  readonly #idleMs: number;
  readonly #now: () => number;
  #sweeper: NodeJS.Timeout | undefined;

  constructor(close: (connection: C) => Promise<void>, opts: { idleMs?: number; now?: () => number } = {}) {
    this.#close = close;
    this.#idleMs = opts.idleMs ?? DEFAULT_BROKER_IDLE_MS;
    this.#now = opts.now ?? Date.now;
  }

  /** Open connections (for tests and metrics). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The connection of `key`, opened with `open` when there is none; `open` gets the callback to
   * call when the connection closes on its own (the broker went away).
   */
  acquire(key: string, open: (closed: () => void) => Promise<C>): Lease<C> {
    let entry = this.#entries.get(key);
    if (!entry) {
      const fresh: Entry<C> = { connection: Promise.resolve(null as C), lastUsed: this.#now(), busy: 0 };
      fresh.connection = open(() => this.#drop(key, fresh));
      // A failed connect is forgotten at once: the next attempt connects again.
      fresh.connection.catch(() => this.#drop(key, fresh));
      this.#entries.set(key, fresh);
      this.#sweep();
      entry = fresh;
    }
    const used = entry;
    used.busy++;
    used.lastUsed = this.#now();
    let released = false;
    return {
      connection: used.connection,
      release: () => {
        if (released) return;
        released = true;
        used.busy--;
        used.lastUsed = this.#now();
      },
      drop: () => this.#drop(key, used),
    };
  }

  /**
   * Closes every connection (one still connecting once it connects), waiting at most `timeoutMs`
   * for each; resolves with how many did not close in time (their sockets end with the process).
   * The pool opens new ones if used again.
   */
  async close(timeoutMs = DEFAULT_BROKER_CLOSE_MS): Promise<number> {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    const closed = await Promise.all(entries.map((e) => bounded(this.#closeEntry(e), timeoutMs, 'not closed in time').then(() => true, () => false)));
    return closed.filter((c) => !c).length;
  }

  #drop(key: string, entry: Entry<C>): void {
    if (this.#entries.get(key) === entry) this.#entries.delete(key);
    void this.#closeEntry(entry);
  }

  async #closeEntry(entry: Entry<C>): Promise<void> {
    try {
      await this.#close(await entry.connection);
    } catch {
      // Already closed, or never opened.
    }
  }

  /** Closes connections unused for the idle time; the timer does not keep the process alive. */
  #sweep(): void {
    if (this.#sweeper) return;
    this.#sweeper = setInterval(
      () => {
        const now = this.#now();
        for (const [key, entry] of this.#entries) if (entry.busy === 0 && now - entry.lastUsed >= this.#idleMs) this.#drop(key, entry);
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

/** A pool key: the subscription and its connection (address and credentials, the latter only as a hash). */
export function brokerPoolKey(subscriptionId: string, connection: unknown): string {
  return `${subscriptionId} ${createHash('sha256').update(JSON.stringify(connection)).digest('base64url')}`;
}
