import { LRUCache } from 'lru-cache';
import type { Collection, Db } from 'mongodb';
import type { IndexSpec, QueryShape } from '../db/query-shapes';

interface RevocationDoc {
  /** The owner whose sessions were ended. */
  _id: string;
  /** Sessions of the owner issued at or before this moment no longer work. */
  before: Date;
}

/** How long a process trusts what it read: an ended session stops working everywhere within this. */
export const REVOCATION_CACHE_TTL_MS = 5_000;

// "Never ended" is cached too, as 0: lru-cache does not keep undefined.
const NEVER = 0;

/**
 * Per-owner cut-offs ending every portal session issued before them (`expire-all`). Tokens stay
 * stateless; the one read per owner is cached for a few seconds, so a portal request costs no
 * database round trip in the common case.
 */
export class PortalRevocations {
  static readonly indexes: readonly IndexSpec[] = [];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'portal_revocations', method: 'PortalRevocations.expireAll', equality: ['_id'], index: '_id_' },
    { collection: 'portal_revocations', method: 'PortalRevocations.revokedBefore', equality: ['_id'], index: '_id_' },
  ];

  readonly #collection: Collection<RevocationDoc>;
  private readonly cache = new LRUCache<string, number>({ max: 10_000, ttl: REVOCATION_CACHE_TTL_MS });

  constructor(db: Db) {
    this.#collection = db.collection<RevocationDoc>('portal_revocations');
  }

  /** Ends the owner's sessions issued at or before `at`; a later cut-off already stored stays. */
  async expireAll(ownerId: string, at: Date): Promise<Date> {
    await this.#collection.updateOne({ _id: ownerId }, { $max: { before: at } }, { upsert: true });
    this.cache.delete(ownerId);
    return (await this.revokedBefore(ownerId)) ?? at;
  }

  /** The owner's cut-off, if their sessions were ever ended. */
  async revokedBefore(ownerId: string): Promise<Date | undefined> {
    let at = this.cache.get(ownerId);
    if (at === undefined) {
      const doc = await this.#collection.findOne({ _id: ownerId });
      at = doc?.before.getTime() ?? NEVER;
      this.cache.set(ownerId, at);
    }
    return at === NEVER ? undefined : new Date(at);
  }
}
