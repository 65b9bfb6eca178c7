import type { Db } from 'mongodb';
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import { policyFor, type RateLimitPolicies, type RateLimitPolicy } from '../config/rate-limits';
import type { StorageDeclarations } from '../db/query-shapes';
import type { Logger } from '../logger';

/** The collection holding one counter per API key and policy (shared by every API process). */
export const RATE_LIMIT_COLLECTION = 'rate_limits';

/** rate-limiter-flexible's upsert counts on this index to keep one counter per key (its own creation is off, see `mongoCounter`). */
export const rateLimitStorage: StorageDeclarations = {
  indexes: [{ collection: RATE_LIMIT_COLLECTION, name: 'key_unique', key: { key: 1 }, unique: true }],
  queryShapes: [{ collection: RATE_LIMIT_COLLECTION, method: 'RateLimiterMongo.consume', equality: ['key'], index: 'key_unique' }],
};

/** What charging one request found: allowed or not, and what is left of the window. */
export interface RateLimitVerdict {
  policy: RateLimitPolicy;
  allowed: boolean;
  /** Requests left in the current window after this one. */
  remaining: number;
  /** Whole seconds until the window resets (at least 1 when refused). */
  resetSeconds: number;
}

/** One policy's counter: resolves when the points fit, rejects with a RateLimiterRes when not. */
export interface RateLimitCounter {
  consume(key: string, points: number): Promise<RateLimiterRes>;
}

/**
 * rate-limiter-flexible's Mongo store over the service's own database. Its index creation is off:
 * it makes a TTL index first, which FerretDB v1 refuses ("not implemented"), and then never makes
 * the unique `key` index its upsert relies on; `ensureIndexes` creates that one instead.
 */
export function mongoCounter(db: Db, policy: RateLimitPolicy): RateLimitCounter {
  return new RateLimiterMongo({
    storeClient: db,
    tableName: RATE_LIMIT_COLLECTION,
    keyPrefix: policy.name,
    points: policy.requests,
    duration: policy.windowSeconds,
    disableIndexesCreation: true,
  });
}

const warnEveryMs = 10_000;

/** The requests of one key and policy waiting for the counter, and whether a charge is under way. */
interface Lane {
  waiting: Array<(v: RateLimitVerdict | undefined) => void>;
  running: boolean;
}

/**
 * Charges each authenticated request to its API key's budget for the operation's scope.
 * Per key and policy, one charge at a time goes to the store; requests arriving meanwhile are
 * charged together in the next one (their count as points). FerretDB v1 applies `$inc` as
 * read-then-write, so concurrent charges of one key lose counts (measured: 4 of 5 at 50 at
 * once); one at a time per process leaves only other processes' overlapping charges.
 * When the store fails the request is let through (fail open) and a warning is logged, at
 * most every 10 s: an outage of the counter must not become an outage of the API.
 */
export class ApiRateLimiter {
  private readonly counters = new Map<string, RateLimitCounter>();
  private readonly lanes = new Map<string, Lane>();
  private lastWarning = 0;

  constructor(
    readonly policies: RateLimitPolicies,
    private readonly logger: Logger,
    private readonly counterFor: (policy: RateLimitPolicy) => RateLimitCounter,
  ) {}

  /** Charges one request of `keyId` to the policy of `scope`; undefined when the store failed. */
  charge(keyId: string, scope: string | undefined): Promise<RateLimitVerdict | undefined> {
    const policy = policyFor(this.policies, scope);
    const laneKey = `${policy.name}\n${keyId}`;
    let lane = this.lanes.get(laneKey);
    if (!lane) this.lanes.set(laneKey, (lane = { waiting: [], running: false }));
    const verdict = new Promise<RateLimitVerdict | undefined>((resolve) => lane.waiting.push(resolve));
    if (!lane.running) void this.drain(laneKey, lane, policy, keyId);
    return verdict;
  }

  private async drain(laneKey: string, lane: Lane, policy: RateLimitPolicy, keyId: string): Promise<void> {
    lane.running = true;
    while (lane.waiting.length > 0) {
      const batch = lane.waiting.splice(0);
      const verdicts = await this.consume(policy, keyId, batch.length).catch((err: unknown) => this.warn(err, policy));
      batch.forEach((resolve, i) => resolve(verdicts?.[i]));
    }
    this.lanes.delete(laneKey);
  }

  /** Charges `n` requests at once: the i-th is allowed when its place in the window is within the budget. */
  private async consume(policy: RateLimitPolicy, keyId: string, n: number): Promise<RateLimitVerdict[] | undefined> {
    let counter = this.counters.get(policy.name);
    if (!counter) this.counters.set(policy.name, (counter = this.counterFor(policy)));
    let res: RateLimiterRes;
    try {
      res = await counter.consume(keyId, n);
    } catch (err) {
      if (err instanceof RateLimiterRes) res = err;
      else {
        this.warn(err, policy);
        return undefined;
      }
    }
    // A counter with no expiry (msBeforeNext -1) is one whose window just began.
    const ms = res.msBeforeNext >= 0 ? res.msBeforeNext : policy.windowSeconds * 1000;
    const resetSeconds = Math.min(policy.windowSeconds, Math.ceil(ms / 1000));
    return Array.from({ length: n }, (_, i) => {
      const place = res.consumedPoints - n + 1 + i;
      const allowed = place <= policy.requests;
      return { policy, allowed, remaining: Math.max(policy.requests - place, 0), resetSeconds: allowed ? resetSeconds : Math.max(1, resetSeconds) };
    });
  }

  private warn(err: unknown, policy: RateLimitPolicy): undefined {
    const now = Date.now();
    if (now - this.lastWarning < warnEveryMs) return undefined;
    this.lastWarning = now;
    this.logger.warn({ err, policy: policy.name }, 'rate limit store failed; letting requests through unlimited');
    return undefined;
  }
}

/** The limiter over `db`, one Mongo counter per policy. */
export function mongoRateLimiter(db: Db, policies: RateLimitPolicies, logger: Logger): ApiRateLimiter {
  return new ApiRateLimiter(policies, logger, (policy) => mongoCounter(db, policy));
}
