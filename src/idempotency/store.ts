import { createHash } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import type { SecretBox } from '../subscriptions/secret-box';

/** How long a response is kept for its Idempotency-Key (Stripe: 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request still marked running after this long died with its process: its key is free again. */
const ABANDONED_AFTER_MS = 5 * 60 * 1000;

/** One key's request and, once it finished, its response. */
export interface IdempotencyRecord {
  /** Hash of owner and key: one record per key and owner. */
  _id: string;
  owner_id: string;
  /** Hash of the method, path and body of the request that first used the key. */
  fingerprint: string;
  /** The scopes of the caller that first used the key: a replay needs them all (its response may hold a secret). */
  scopes?: string[];
  state: 'running' | 'done';
  created_at: Date;
  status?: number;
  /** The response body, sealed like signing secrets (it may hold one). */
  body?: string;
  location?: string;
}

/** The stored response of a finished request. */
export interface StoredResponse {
  status: number;
  body: unknown;
  location?: string;
}

/** The stored response of a finished request, with the scopes of the caller that made it (absent on records from before they were kept). */
export type Claim = { kind: 'claimed' } | { kind: 'mismatch' } | { kind: 'running' } | ({ kind: 'done'; scopes: string[] | undefined } & StoredResponse);

/**
 * Idempotency keys in MongoDB: a claim is an insert keyed by owner and key, so of concurrent
 * requests with one key exactly one runs, across API processes (atomic on FerretDB too: it is
 * the unique `_id`).
 */
export class IdempotencyStore {
  static readonly indexes: readonly IndexSpec[] = [];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'idempotency_keys', method: 'IdempotencyStore.claim', equality: ['_id'], index: '_id_' },
    { collection: 'idempotency_keys', method: 'IdempotencyStore.claim (free expired)', equality: ['_id', 'created_at', 'state'], index: '_id_' },
    { collection: 'idempotency_keys', method: 'IdempotencyStore.complete', equality: ['_id', 'state'], index: '_id_' },
    { collection: 'idempotency_keys', method: 'IdempotencyStore.release', equality: ['_id', 'state'], index: '_id_' },
  ];

  readonly #collection: Collection<IdempotencyRecord>;

  constructor(
    db: Db,
    private readonly box: SecretBox,
  ) {
    this.#collection = db.collection<IdempotencyRecord>('idempotency_keys');
  }

  /** Claims `key` of `owner` for a request with `fingerprint` by a caller with `scopes`, or says what holds it. */
  async claim(owner: string, key: string, fingerprint: string, scopes: readonly string[], now = new Date()): Promise<Claim> {
    const _id = recordId(owner, key);
    for (let tries = 0; tries < 3; tries++) {
      if (await insertIfAbsent(this.#collection, { _id, owner_id: owner, fingerprint, scopes: [...scopes], state: 'running', created_at: now })) return { kind: 'claimed' };
      const held = await this.#collection.findOne({ _id });
      if (!held) continue;
      const age = now.getTime() - held.created_at.getTime();
      if (age > IDEMPOTENCY_TTL_MS || (held.state === 'running' && age > ABANDONED_AFTER_MS)) {
        // Expired, or left by a crash: free it (only as read, so one taker wins) and claim again.
        await this.#collection.deleteOne({ _id, created_at: held.created_at, state: held.state });
        continue;
      }
      if (held.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (held.state === 'running') return { kind: 'running' };
      return {
        kind: 'done',
        scopes: held.scopes,
        status: held.status!,
        body: held.body === undefined ? undefined : (JSON.parse(this.box.open(held.body, _id)) as unknown),
        ...(held.location ? { location: held.location } : {}),
      };
    }
    return { kind: 'running' };
  }

  /** Stores the response of the claimed request, for its repeats. */
  async complete(owner: string, key: string, response: StoredResponse): Promise<void> {
    const _id = recordId(owner, key);
    const body = response.body === undefined ? {} : { body: this.box.seal(JSON.stringify(response.body), _id) };
    await this.#collection.updateOne(
      { _id, state: 'running' },
      { $set: { state: 'done', status: response.status, ...body, ...(response.location ? { location: response.location } : {}) } },
    );
  }

  /** Frees the key of a request that did not finish (a server error): a repeat runs again. */
  async release(owner: string, key: string): Promise<void> {
    await this.#collection.deleteOne({ _id: recordId(owner, key), state: 'running' });
  }
}

function recordId(owner: string, key: string): string {
  return createHash('sha256').update(`${owner}\n${key}`).digest('base64url');
}

/** The fingerprint of a request: its method, path and body (at most `MAX_JSON_DEPTH` deep: the edge refuses deeper ones). */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${JSON.stringify(body ?? null)}`).digest('base64url');
}
