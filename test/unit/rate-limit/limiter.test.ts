import { RateLimiterRes } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import type { RateLimitPolicies, RateLimitPolicy } from '../../../src/config/rate-limits';
import { rateLimitHeader, rateLimitPolicyHeader } from '../../../src/http/rate-limit';
import type { Logger } from '../../../src/logger';
import { ApiRateLimiter, type RateLimitCounter } from '../../../src/rate-limit/limiter';

const policy: RateLimitPolicy = { name: 'default', requests: 3, windowSeconds: 60 };
const policies: RateLimitPolicies = { fallback: policy, byScope: new Map([['orders:write', { name: 'orders:write', requests: 2, windowSeconds: 10 }]]) };

/** A counter in memory, like the store: counts every point, rejects past the budget. */
function memoryCounter(p: RateLimitPolicy, calls: number[]): RateLimitCounter {
  const used = new Map<string, number>();
  return {
    consume(key, points) {
      calls.push(points);
      const total = (used.get(key) ?? 0) + points;
      used.set(key, total);
      const res = new RateLimiterRes(Math.max(p.requests - total, 0), 12_300, total);
      // rate-limiter-flexible rejects with its RateLimiterRes, not an Error, when the budget is spent.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return total > p.requests ? Promise.reject(res) : Promise.resolve(res);
    },
  };
}

function recordingLogger(): Logger & { warnings: unknown[] } {
  const warnings: unknown[] = [];
  return { warnings, warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger & { warnings: unknown[] };
}

describe('RateLimit headers', () => {
  it('write the policy and what is left as draft-ietf-httpapi-ratelimit-headers does', () => {
    expect(rateLimitPolicyHeader({ name: 'default', requests: 600, windowSeconds: 60 })).toBe('"default";q=600;w=60');
    expect(rateLimitHeader({ policy: { name: 'orders:write', requests: 60, windowSeconds: 60 }, allowed: false, remaining: 0, resetSeconds: 12 })).toBe(
      '"orders:write";r=0;t=12',
    );
  });

  it('escape a quote or backslash in a policy name', () => {
    expect(rateLimitPolicyHeader({ name: 'a"b\\c', requests: 1, windowSeconds: 1 })).toBe('"a\\"b\\\\c";q=1;w=1');
  });
});

describe('ApiRateLimiter', () => {
  it('allows up to the budget, counting down, then refuses with the seconds to the reset', async () => {
    const limiter = new ApiRateLimiter(policies, recordingLogger(), (p) => memoryCounter(p, []));
    const verdicts = [];
    for (let i = 0; i < 4; i++) verdicts.push(await limiter.charge('key_a', 'resources:read'));
    expect(verdicts.map((v) => [v?.allowed, v?.remaining, v?.resetSeconds])).toEqual([
      [true, 2, 13],
      [true, 1, 13],
      [true, 0, 13],
      [false, 0, 13],
    ]);
    expect(verdicts[0]?.policy).toBe(policy);
  });

  it("charges a scope's own policy, and each key apart", async () => {
    const limiter = new ApiRateLimiter(policies, recordingLogger(), (p) => memoryCounter(p, []));
    expect((await limiter.charge('key_a', 'orders:write'))?.policy.name).toBe('orders:write');
    expect((await limiter.charge('key_a', 'orders:write'))?.allowed).toBe(true);
    expect((await limiter.charge('key_a', 'orders:write'))?.allowed).toBe(false);
    expect(await limiter.charge('key_b', 'orders:write')).toMatchObject({ allowed: true, remaining: 1 });
    expect(await limiter.charge('key_a', 'webhooks:read')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('charges concurrent requests of one key together, one store call at a time, in arrival order', async () => {
    const calls: number[] = [];
    const limiter = new ApiRateLimiter(policies, recordingLogger(), (p) => memoryCounter(p, calls));
    const verdicts = await Promise.all(Array.from({ length: 5 }, () => limiter.charge('key_a', undefined)));
    expect(calls).toEqual([1, 4]);
    expect(verdicts.map((v) => [v?.allowed, v?.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
  });

  it('lets requests through when the store fails, warning once per 10 s', async () => {
    const logger = recordingLogger();
    const failing: RateLimitCounter = { consume: () => Promise.reject(new Error('connection refused')) };
    const limiter = new ApiRateLimiter(policies, logger, () => failing);
    expect(await limiter.charge('key_a', undefined)).toBeUndefined();
    expect(await limiter.charge('key_a', undefined)).toBeUndefined();
    expect(logger.warnings).toHaveLength(1);
  });
});
