import { LRUCache } from 'lru-cache';
import type { EventType } from '../contract/types';
import type { FanoutCandidate, FanoutMember } from './repository';

/** Where fan-out candidates come from: the repository, or a cache in front of it. */
export interface FanoutSource {
  /** The subscribers an event of `type` emitted at `at` goes to (active, or paused and holding), before their filters (see SubscriptionRepository). */
  activeSubscribers(type: EventType, at: Date, dataOwner?: string): Promise<FanoutCandidate[]>;
}

/** What the cache reads through: every subscriber of a type now (active, or paused and holding), with its creation time. */
export interface FanoutMembers {
  currentSubscribers(type: EventType, dataOwner?: string): Promise<FanoutMember[]>;
}

interface Entry {
  members: Promise<FanoutMember[]>;
  until: number;
}

/**
 * The fan-out reads of one API process, kept for `ttlMs` per event type and data owner: a new or
 * changed subscription is seen by the process that wrote it at once (its writes call
 * `invalidate`), by other processes within `ttlMs`. An event still goes only to subscriptions
 * created by its time: the cached ones are filtered by `created_at <= at`, as the read does. A
 * pause that holds keeps a subscription a member (its deliveries are held, not dropped:
 * src/subscriptions/hold.ts), so a pause or a resume changes no member; the attempt's own
 * subscription read (activities/subscription-cache.ts) decides hold or send.
 */
export class FanoutCache implements FanoutSource {
  readonly #entries = new LRUCache<string, Entry>({ max: 10_000 });
  readonly #now: () => number;

  /** @param options `ttlMs` 0: every call reads; `now` (milliseconds) is injectable for tests */
  constructor(
    private readonly source: FanoutMembers,
    private readonly options: { ttlMs: number; now?: () => number },
  ) {
    this.#now = options.now ?? Date.now;
  }

  async activeSubscribers(type: EventType, at: Date, dataOwner?: string): Promise<FanoutCandidate[]> {
    const members = await this.#members(type, dataOwner);
    const time = at.getTime();
    return members
      .filter((m) => m.created_at.getTime() <= time)
      .map((m) => ({ _id: m._id, ...(m.filter !== undefined ? { filter: m.filter } : {}), ...(m.ordering ? { ordering: m.ordering } : {}) }));
  }

  /** Forgets every read, those under way too: called after each subscription write this process makes. */
  invalidate(): void {
    this.#entries.clear();
  }

  #members(type: EventType, dataOwner: string | undefined): Promise<FanoutMember[]> {
    if (this.options.ttlMs <= 0) return this.source.currentSubscribers(type, dataOwner);
    const key = dataOwner === undefined ? `${type}\n*` : `${type}\n=${dataOwner}`;
    const now = this.#now();
    const cached = this.#entries.get(key);
    if (cached && cached.until > now) return cached.members;
    // Kept while under way, so concurrent events share one read; a failed read is not kept.
    const members = this.source.currentSubscribers(type, dataOwner);
    const entry = { members, until: now + this.options.ttlMs };
    this.#entries.set(key, entry);
    members.catch(() => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    });
    return members;
  }
}
