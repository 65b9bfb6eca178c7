import { RateLimiterRes } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import type { RateLimitPolicies, RateLimitPolicy } from '../../../src/config/rate-limits';
import { rateLimitHeader, rateLimitPolicyHeader } from '../../../src/http/rate-limit';
import type { Logger } from '../../../src/logger';
import { ApiRateLimiter, MAX_LEASE_POINTS, maxLeasePoints, type RateLimitCounter } from '../../../src/request-budgets/limiter';

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

  it('takes one block for concurrent requests of one key, one store call at a time, in arrival order', async () => {
    const calls: number[] = [];
    const limiter = new ApiRateLimiter(policies, recordingLogger(), (p) => memoryCounter(p, calls));
    const verdicts = await Promise.all(Array.from({ length: 5 }, () => limiter.charge('key_a', undefined)));
    // A budget of 3 leases one point at a time; a spent window is refused without asking again.
    expect(calls).toEqual([1, 1, 1]);
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

/** One shared counter of fixed windows over a fake clock, as several processes see it. */
function windowedCounter(p: RateLimitPolicy, clock: { now: number }) {
  const calls: number[] = [];
  let used = 0;
  let windowEnd = 0;
  const counter: RateLimitCounter = {
    consume(_key, points) {
      calls.push(points);
      if (clock.now >= windowEnd) {
        used = 0;
        windowEnd = clock.now + p.windowSeconds * 1000;
      }
      used += points;
      const res = new RateLimiterRes(Math.max(p.requests - used, 0), windowEnd - clock.now, used);
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return used > p.requests ? Promise.reject(res) : Promise.resolve(res);
    },
  };
  return { counter, calls };
}

describe('ApiRateLimiter leases', () => {
  const busy: RateLimitPolicy = { name: 'default', requests: 1000, windowSeconds: 60 };
  const only = (p: RateLimitPolicy): RateLimitPolicies => ({ fallback: p, byScope: new Map() });
  const charge = async (limiter: ApiRateLimiter, n: number) => {
    const verdicts = [];
    for (let i = 0; i < n; i++) verdicts.push(await limiter.charge('key_a', undefined));
    return verdicts;
  };

  it('takes blocks that double while they run out, up to a tenth of the budget', async () => {
    const clock = { now: 0 };
    const { counter, calls } = windowedCounter(busy, clock);
    const limiter = new ApiRateLimiter(only(busy), recordingLogger(), () => counter, () => clock.now);
    expect(maxLeasePoints(busy)).toBe(100);
    const verdicts = await charge(limiter, 300);
    expect(verdicts.every((v) => v?.allowed)).toBe(true);
    expect(calls).toEqual([1, 2, 4, 8, 16, 32, 64, 100, 100]);
    expect(maxLeasePoints({ name: 'x', requests: 1e9, windowSeconds: 1 })).toBe(MAX_LEASE_POINTS);
  });

  it('allows exactly the budget in one process, then refuses without a command until the window ends', async () => {
    const small: RateLimitPolicy = { name: 'default', requests: 100, windowSeconds: 60 };
    const clock = { now: 0 };
    const { counter, calls } = windowedCounter(small, clock);
    const limiter = new ApiRateLimiter(only(small), recordingLogger(), () => counter, () => clock.now);
    const verdicts = await charge(limiter, 150);
    expect(verdicts.filter((v) => v?.allowed)).toHaveLength(100);
    expect(verdicts.at(-1)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 60 });
    const takes = calls.length;
    clock.now = 59_500;
    expect(await limiter.charge('key_a', undefined)).toMatchObject({ allowed: false, resetSeconds: 1 });
    expect(calls).toHaveLength(takes);
    clock.now = 60_000;
    expect(await limiter.charge('key_a', undefined)).toMatchObject({ allowed: true });
    expect(calls).toHaveLength(takes + 1);
  });

  it('lets unspent points expire with the window, and takes smaller blocks after', async () => {
    const clock = { now: 0 };
    const { counter, calls } = windowedCounter(busy, clock);
    const limiter = new ApiRateLimiter(only(busy), recordingLogger(), () => counter, () => clock.now);
    await charge(limiter, 4); // blocks 1, 2, 4: 3 points left
    clock.now = 61_000;
    const next = await limiter.charge('key_a', undefined);
    expect(calls).toEqual([1, 2, 4, 2]);
    expect(next).toMatchObject({ allowed: true, remaining: busy.requests - 1 });
  });

  it('shares the budget between processes: refused early by at most the others\' unspent block, never over it', async () => {
    const small: RateLimitPolicy = { name: 'default', requests: 100, windowSeconds: 60 };
    const clock = { now: 0 };
    const { counter } = windowedCounter(small, clock);
    const a = new ApiRateLimiter(only(small), recordingLogger(), () => counter, () => clock.now);
    const b = new ApiRateLimiter(only(small), recordingLogger(), () => counter, () => clock.now);
    const byA = (await charge(a, 30)).filter((v) => v?.allowed).length;
    const byB = (await charge(b, 100)).filter((v) => v?.allowed).length;
    expect(byA).toBe(30);
    expect(byA + byB).toBeLessThanOrEqual(small.requests);
    expect(byA + byB).toBeGreaterThanOrEqual(small.requests - maxLeasePoints(small));
    // A spends what it still holds, then finds the window spent.
    const rest = (await charge(a, 20)).filter((v) => v?.allowed).length;
    expect(byA + byB + rest).toBe(small.requests);
  });
});
