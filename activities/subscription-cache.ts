import type { SubscriptionDoc } from '../src/subscriptions/repository';

/** Most subscriptions one worker keeps (each a few hundred bytes; an owner may have at most a few hundred). */
export const DEFAULT_SUBSCRIPTION_CACHE_ENTRIES = 10_000;

/**
 * The subscriptions a worker's rounds read, kept for `ttlMs` after each read (SUBSCRIPTION_CACHE_TTL):
 * a change to a subscription (pause, delete, URL, secret rotation) applies to attempts that start
 * at least `ttlMs` after it. A deleted one is remembered as absent for as long. A resume too: a
 * round within `ttlMs` of it may still hold a delivery (src/subscriptions/hold.ts), which the
 * running drain sends at its end, or a drain the hold sweep starts; a drain's own deliveries do
 * not take a cached pause (activities/attempt.ts). `ttlMs` 0 keeps nothing.
 */
export class SubscriptionCache {
  // A Map iterates in insertion order: the oldest read is evicted first.
  readonly #entries = new Map<string, { doc: SubscriptionDoc | undefined; readAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly maxEntries = DEFAULT_SUBSCRIPTION_CACHE_ENTRIES,
  ) {}

  /** Whether the cache keeps anything at all. */
  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** The subscription as read less than `ttlMs` ago (`doc` undefined: it was gone), or undefined when it must be read. */
  get(id: string): { doc: SubscriptionDoc | undefined } | undefined {
    const hit = this.#entries.get(id);
    if (!hit) return undefined;
    if (this.now() - hit.readAt >= this.ttlMs) {
      this.#entries.delete(id);
      return undefined;
    }
    return { doc: hit.doc };
  }

  /** Keeps what a read found for `id` (undefined: no such subscription), read at `readAt` (epoch ms, taken before the read started). */
  set(id: string, doc: SubscriptionDoc | undefined, readAt: number): void {
    if (!this.enabled) return;
    this.#entries.delete(id);
    this.#entries.set(id, { doc, readAt });
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  /** How many subscriptions are held (fresh or not). */
  get size(): number {
    return this.#entries.size;
  }
}
