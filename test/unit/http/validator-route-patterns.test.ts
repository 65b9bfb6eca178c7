import { describe, expect, it } from 'vitest';
import { memoizeValidatorRoutePatterns } from '../../../src/http/validator-route-patterns';

describe('memoizeValidatorRoutePatterns', () => {
  it("compiles a route pattern once for the validator's copy of path-to-regexp, with the same result", () => {
    const mod = memoizeValidatorRoutePatterns();
    expect(memoizeValidatorRoutePatterns()).toBe(mod);
    const options = { sensitive: false, strict: false };
    const first = mod.pathToRegexp('/api/webhooks/v1/subscriptions/:subscription_id', options) as { regexp: RegExp; keys: Array<{ name: string }> };
    expect(mod.pathToRegexp('/api/webhooks/v1/subscriptions/:subscription_id', { ...options })).toBe(first);
    expect(first.keys.map((k) => k.name)).toEqual(['subscription_id']);
    expect(first.regexp.exec('/api/webhooks/v1/subscriptions/sub_1')?.[1]).toBe('sub_1');
    expect(first.regexp.exec('/api/webhooks/v1/subscriptions/sub_1/attempts')).toBeNull();
    // Other options are another pattern.
    const sensitive = mod.pathToRegexp('/api/webhooks/v1/subscriptions/:subscription_id', { sensitive: true, strict: false }) as { regexp: RegExp };
    expect(sensitive).not.toBe(first);
    expect(sensitive.regexp.exec('/API/webhooks/v1/subscriptions/x')).toBeNull();
    expect(first.regexp.exec('/API/webhooks/v1/subscriptions/x')).not.toBeNull();
  });
});
