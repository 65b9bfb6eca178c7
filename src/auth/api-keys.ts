import { createHash, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Collection, Db } from 'mongodb';
import { newId } from '../db/ids';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import type { PortalSession } from '../portal/sessions';
import type { Scope } from './scopes';

/** Who is calling: the key's owner sees only their own subscriptions. */
export interface Principal {
  /** The API key's id, or the portal session's: what rate limits are charged to. */
  keyId: string;
  ownerId: string;
  /** The key's scopes, or a portal session's grants. */
  scopes: string[];
  /** Set when the caller holds a portal session token rather than an API key. */
  portal?: PortalSession;
}

interface ApiKeyDoc {
  _id: string;
  owner_id: string;
  name: string;
  scopes: string[];
  /** SHA-256 of the whole key: keys are 190-bit random, so a fast hash is enough. */
  hash: string;
  /** First characters of the key, to recognise it in listings and logs. */
  prefix: string;
  created_at: Date;
  revoked_at?: Date;
}

const KEY_PREFIX = 'whk_';

/**
 * How long a process trusts a key's status it read: a key revoked or rescoped in another process,
 * and the portal sessions it opened, follow within this; in the process that changed it, at once.
 */
export const KEY_STATUS_CACHE_TTL_MS = 5_000;

/** How long a process trusts that a presented key is unknown; a key created in this process works at once anyway. */
export const UNKNOWN_KEY_CACHE_TTL_MS = 1_000;

/** Owner of the ADMIN_API_KEY, and of the demo data's orders. */
export const ADMIN_OWNER = 'admin';

/** SHA-256 hex of a presented key; only hashes are stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A new random API key: `whk_` + 32 base64url characters. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(24).toString('base64url');
}

/** API keys, stored hashed with their owner and scopes. */
export class ApiKeyRepository {
  static readonly indexes: readonly IndexSpec[] = [{ collection: 'api_keys', name: 'hash_unique', key: { hash: 1 }, unique: true }];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'api_keys', method: 'ApiKeyRepository.create', equality: ['_id'], index: '_id_' },
    { collection: 'api_keys', method: 'ApiKeyRepository.authenticate', equality: ['hash'], range: ['revoked_at'], index: 'hash_unique' },
    // The unique hash makes a second insert of the same key a no-op.
    { collection: 'api_keys', method: 'ApiKeyRepository.ensureBootstrapAdmin', equality: ['hash'], index: 'hash_unique' },
    { collection: 'api_keys', method: 'ApiKeyRepository.currentScopes', equality: ['_id'], range: ['revoked_at'], index: '_id_' },
    { collection: 'api_keys', method: 'ApiKeyRepository.revoke', equality: ['_id'], range: ['revoked_at'], index: '_id_' },
    { collection: 'api_keys', method: 'ApiKeyRepository.setScopes', equality: ['_id'], index: '_id_' },
  ];

  readonly #keys: Collection<ApiKeyDoc>;
  // A revoked or missing key is cached too, as null: lru-cache does not keep undefined.
  readonly #current = new LRUCache<string, { scopes: string[] | null; until: number }>({ max: 10_000 });
  // Presented keys by hash: their principal, or null when unknown or revoked.
  readonly #byHash = new LRUCache<string, { principal: Principal | null; until: number }>({ max: 10_000 });
  // Bumped by every change this process makes: a read begun before it must not cache what it found.
  #generation = 0;
  readonly #now: () => number;

  /** @param options `now` (milliseconds) is injectable for tests of the cache's bound */
  constructor(db: Db, options: { now?: () => number } = {}) {
    this.#keys = db.collection<ApiKeyDoc>('api_keys');
    this.#now = options.now ?? Date.now;
  }

  /** Creates a key and returns it in clear: the only time it is visible. */
  async create(input: { ownerId: string; name: string; scopes: Scope[]; key?: string }): Promise<{ key: string; principal: Principal }> {
    const key = input.key ?? generateApiKey();
    const doc: ApiKeyDoc = {
      _id: newId('key'),
      owner_id: input.ownerId,
      name: input.name,
      scopes: [...input.scopes],
      hash: hashApiKey(key),
      prefix: key.slice(0, 10),
      created_at: new Date(),
    };
    await this.#keys.insertOne(doc);
    this.#forgetHash(doc.hash);
    return { key, principal: { keyId: doc._id, ownerId: doc.owner_id, scopes: doc.scopes } };
  }

  /**
   * The principal for a presented key, or undefined when unknown or revoked. Read once per key
   * per KEY_STATUS_CACHE_TTL_MS (an unknown one per UNKNOWN_KEY_CACHE_TTL_MS); this process's own
   * create, revoke and scope change apply at once.
   */
  async authenticate(key: string): Promise<Principal | undefined> {
    const hash = hashApiKey(key);
    let entry = this.#byHash.get(hash);
    if (!entry || entry.until <= this.#now()) {
      const read = this.#now();
      const generation = this.#generation;
      const doc = await this.#keys.findOne({ hash, revoked_at: { $exists: false } });
      entry = {
        principal: doc ? { keyId: doc._id, ownerId: doc.owner_id, scopes: doc.scopes } : null,
        until: read + (doc ? KEY_STATUS_CACHE_TTL_MS : UNKNOWN_KEY_CACHE_TTL_MS),
      };
      if (generation === this.#generation) this.#byHash.set(hash, entry);
    }
    // A copy: callers own what they get.
    return entry.principal ? { ...entry.principal, scopes: [...entry.principal.scopes] } : undefined;
  }

  /**
   * The scopes key `keyId` holds now, or undefined once it is revoked or gone: what a portal
   * session it opened may still do. Read once per key per KEY_STATUS_CACHE_TTL_MS.
   */
  async currentScopes(keyId: string): Promise<string[] | undefined> {
    let entry = this.#current.get(keyId);
    if (!entry || entry.until <= this.#now()) {
      const read = this.#now();
      const doc = await this.#keys.findOne({ _id: keyId, revoked_at: { $exists: false } }, { projection: { scopes: 1 } });
      entry = { scopes: doc ? doc.scopes : null, until: read + KEY_STATUS_CACHE_TTL_MS };
      this.#current.set(keyId, entry);
    }
    return entry.scopes ?? undefined;
  }

  /** Revokes key `keyId`: it and the portal sessions it opened stop working. False when no active key has that id. */
  async revoke(keyId: string, at = new Date()): Promise<boolean> {
    const { modifiedCount } = await this.#keys.updateOne({ _id: keyId, revoked_at: { $exists: false } }, { $set: { revoked_at: at } });
    this.#forgetKey(keyId);
    return modifiedCount === 1;
  }

  /** Replaces key `keyId`'s scopes; its portal sessions keep only the grants the new scopes allow. False when no key has that id. */
  async setScopes(keyId: string, scopes: readonly Scope[]): Promise<boolean> {
    const { matchedCount } = await this.#keys.updateOne({ _id: keyId }, { $set: { scopes: [...scopes] } });
    this.#forgetKey(keyId);
    return matchedCount === 1;
  }

  /**
   * Makes ADMIN_API_KEY usable: stores its hash with the admin scope unless already there.
   * Idempotent, so every API process may call it at start.
   */
  async ensureBootstrapAdmin(key: string): Promise<void> {
    // The unique index on `hash` makes a second insert of the same key a no-op.
    const hash = hashApiKey(key);
    await insertIfAbsent(this.#keys, {
      _id: newId('key'),
      owner_id: ADMIN_OWNER,
      name: 'bootstrap admin (ADMIN_API_KEY)',
      scopes: ['admin'],
      hash,
      prefix: key.slice(0, 10),
      created_at: new Date(),
    });
    this.#forgetHash(hash);
  }

  #forgetHash(hash: string): void {
    this.#generation++;
    this.#byHash.delete(hash);
  }

  // Revocations and scope changes are rare: a scan of the cache beats keeping a second index by id.
  #forgetKey(keyId: string): void {
    this.#generation++;
    this.#current.delete(keyId);
    const stale = [...this.#byHash.entries()].filter(([, entry]) => entry.principal?.keyId === keyId);
    for (const [hash] of stale) this.#byHash.delete(hash);
  }
}
