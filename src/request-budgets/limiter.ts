import { LRUCache } from 'lru-cache';
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

/** Most points one process takes from a shared counter at once, whatever the budget. */
export const MAX_LEASE_POINTS = 1000;

/** The largest block a process takes of `policy`: a tenth of the budget (at least 1), at most MAX_LEASE_POINTS. */
export function maxLeasePoints(policy: RateLimitPolicy): number {
  return Math.max(1, Math.min(MAX_LEASE_POINTS, Math.floor(policy.requests / 10)));
}

/** One key's points of one policy held by this process, and the take under way. */
interface Lease {
  /** Points taken and not yet spent; none once `resetAt` passed. */
  left: number;
  /** When the shared counter's window ends (ms since the epoch). */
  resetAt: number;
  /** Points of the window nobody had taken at the last take. */
  unleased: number;
  /** The size of the next take: doubles while blocks run out within the window, halves when one expires unspent. */
  block: number;
  taking: Promise<boolean> | undefined;
}

/**
 * Charges each authenticated request to its API key's budget for the operation's scope, leasing
 * points: a process takes a block of points from the shared counter in one command and spends
 * them locally, taking the next block when they run out. A block grows (doubling, up to
 * `maxLeasePoints`) while blocks run out within their window, so a busy key costs one command
 * per block, not per request; points left when the window ends expire with it. Hence a key may be
 * refused while another API process still holds points of its window (at most one block per
 * process), and where two processes' takes overlap on FerretDB v1, which applies `$inc` as
 * read-then-write, one may count once: a key may exceed its budget by at most one block per API
 * process within a window. Takes of one key and policy are one at a time per process. A window
 * found spent is refused locally until it ends. When the store fails the request is let through
 * (fail open) and a warning is logged, at most every 10 s: an outage of the counter must not
 * become an outage of the API.
 */
export class ApiRateLimiter {
  private readonly counters = new Map<string, RateLimitCounter>();
  // An evicted lease only leaves its points unspent: the bound holds.
  private readonly leases = new LRUCache<string, Lease>({ max: 10_000 });
  private lastWarning = 0;

  constructor(
    readonly policies: RateLimitPolicies,
    private readonly logger: Logger,
    private readonly counterFor: (policy: RateLimitPolicy) => RateLimitCounter,
    private readonly now: () => number = Date.now,
  ) {}

  /** Charges one request of `keyId` to the policy of `scope`; undefined when the store failed. */
  async charge(keyId: string, scope: string | undefined): Promise<RateLimitVerdict | undefined> {
    const policy = policyFor(this.policies, scope);
    const leaseKey = `${policy.name}\n${keyId}`;
    let lease = this.leases.get(leaseKey);
    if (!lease) this.leases.set(leaseKey, (lease = { left: 0, resetAt: 0, unleased: 0, block: 1, taking: undefined }));
    for (;;) {
      const now = this.now();
      if (now < lease.resetAt && (lease.left > 0 || lease.unleased === 0)) return this.spend(policy, lease, now);
      lease.taking ??= this.take(policy, keyId, lease).finally(() => (lease.taking = undefined));
      if (!(await lease.taking)) return undefined;
    }
  }

  /** A verdict from the lease: allowed while it holds points, refused once the window is spent. */
  private spend(policy: RateLimitPolicy, lease: Lease, now: number): RateLimitVerdict {
    const resetSeconds = Math.max(1, Math.min(policy.windowSeconds, Math.ceil((lease.resetAt - now) / 1000)));
    if (lease.left === 0) return { policy, allowed: false, remaining: 0, resetSeconds };
    lease.left--;
    // Approximate: what nobody had taken at the last take, and this process's own unspent points.
    return { policy, allowed: true, remaining: lease.unleased + lease.left, resetSeconds };
  }

  /** Takes the next block from the shared counter into `lease`; false when the store failed. */
  private async take(policy: RateLimitPolicy, keyId: string, lease: Lease): Promise<boolean> {
    const now = this.now();
    const max = maxLeasePoints(policy);
    // Spent within its window: the key is busy, take more; expired with points left: take fewer.
    lease.block = now < lease.resetAt ? Math.min(max, lease.block * 2) : lease.left > 0 ? Math.max(1, Math.floor(lease.block / 2)) : Math.min(max, lease.block);
    const block = lease.block;
    let res: RateLimiterRes;
    try {
      let counter = this.counters.get(policy.name);
      if (!counter) this.counters.set(policy.name, (counter = this.counterFor(policy)));
      res = await counter.consume(keyId, block);
    } catch (err) {
      if (err instanceof RateLimiterRes) res = err;
      else {
        this.warn(err, policy);
        return false;
      }
    }
    // A counter with no expiry (msBeforeNext -1) is one whose window just began.
    const ms = res.msBeforeNext >= 0 ? res.msBeforeNext : policy.windowSeconds * 1000;
    lease.resetAt = now + ms;
    lease.left = Math.max(0, Math.min(block, policy.requests - (res.consumedPoints - block)));
    lease.unleased = Math.max(0, policy.requests - res.consumedPoints);
    return true;
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
