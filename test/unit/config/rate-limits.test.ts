import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/config';
import { describeRateLimits, parseRateLimits, policyFor, type RateLimitPolicies } from '../../../src/config/rate-limits';

const parsed = (text: string) => parseRateLimits(text) as RateLimitPolicies;

describe('RATE_LIMITS', () => {
  it('is on by default with 60000 requests a minute per key and scope', () => {
    const { rateLimit } = loadConfig({}).api;
    expect(rateLimit.enabled).toBe(true);
    expect(rateLimit.policies.fallback).toEqual({ name: 'default', requests: 60000, windowSeconds: 60 });
    expect(rateLimit.policies.byScope.size).toBe(0);
  });

  it('turns off with RATE_LIMIT_ENABLED=false', () => {
    expect(loadConfig({ RATE_LIMIT_ENABLED: 'false' }).api.rateLimit.enabled).toBe(false);
  });

  it('gives scopes their own budget and the rest the default', () => {
    const p = parsed('default=600/1m, orders:write=60/30s,admin=10/1h');
    expect(policyFor(p, 'orders:write')).toEqual({ name: 'orders:write', requests: 60, windowSeconds: 30 });
    expect(policyFor(p, 'admin')).toEqual({ name: 'admin', requests: 10, windowSeconds: 3600 });
    expect(policyFor(p, 'resources:read')).toEqual({ name: 'default', requests: 600, windowSeconds: 60 });
    expect(policyFor(p, undefined).name).toBe('default');
    expect(describeRateLimits(p)).toBe('default=600/60s, orders:write=60/30s, admin=10/3600s');
  });

  it('keeps the built-in default when only scopes are given', () => {
    expect(parsed('orders:write=5/1s').fallback).toEqual({ name: 'default', requests: 60000, windowSeconds: 60 });
  });

  it.each([
    ['default=600', 'must look like'],
    ['default=600/1m,', 'must look like'],
    ['default=-1/1m', 'must look like'],
    ['default=0/1m', 'at least 1 request'],
    ['orders:delete=5/1m', "'orders:delete' is not default or a scope"],
    ['default=5/1m,default=6/1m', 'given twice'],
    ['default=5/500ms', 'whole seconds from 1s to 24h'],
    ['default=5/1.5s', 'whole seconds from 1s to 24h'],
    ['default=5/25h', 'whole seconds from 1s to 24h'],
    ['default=5/2d', 'whole seconds from 1s to 24h'],
  ])('refuses %s', (text, message) => {
    expect(parseRateLimits(text)).toContain(message);
    expect(() => loadConfig({ RATE_LIMITS: text })).toThrow(ConfigError);
    expect(() => loadConfig({ RATE_LIMITS: text })).toThrow(/RATE_LIMITS: /);
  });
});
