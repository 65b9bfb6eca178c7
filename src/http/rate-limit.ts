import type { Request, Response } from 'express';
import type { RateLimitPolicy } from '../config/rate-limits';
import type { RateLimitVerdict } from '../request-budgets/limiter';

/** `"default";q=600;w=60`: the policy as draft-ietf-httpapi-ratelimit-headers writes it. */
export function rateLimitPolicyHeader(policy: RateLimitPolicy): string {
  return `${quoted(policy.name)};q=${policy.requests};w=${policy.windowSeconds}`;
}

/** `"default";r=0;t=12`: what is left of the policy's quota, and the seconds until it resets. */
export function rateLimitHeader(v: RateLimitVerdict): string {
  return `${quoted(v.policy.name)};r=${v.remaining};t=${v.resetSeconds}`;
}

// A structured-field String: only \ and " need escaping (policy names are scopes anyway).
const quoted = (name: string) => `"${name.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** Sets RateLimit-Policy and RateLimit (and, when refused, Retry-After) on the response. */
export function setRateLimitHeaders(res: Response, v: RateLimitVerdict): void {
  res.setHeader('RateLimit-Policy', rateLimitPolicyHeader(v.policy));
  res.setHeader('RateLimit', rateLimitHeader(v));
  if (!v.allowed) res.setHeader('Retry-After', String(v.resetSeconds));
}

const refused = new WeakMap<Request, RateLimitVerdict>();

/** Notes that `req` was over its budget: the error handler answers it with 429. */
export function markRateLimited(req: Request, v: RateLimitVerdict): void {
  refused.set(req, v);
}

/** The 429 problem's detail and field error when `req` was over its budget, else undefined. */
export function rateLimitRefusal(req: Request): { detail: string; error: { path: string; message: string } } | undefined {
  const v = refused.get(req);
  if (!v) return undefined;
  const { name, requests, windowSeconds } = v.policy;
  const budget = `${requests} requests per ${windowSeconds} s`;
  return {
    detail: `This API key used its rate limit '${name}' (${budget}); retry in ${v.resetSeconds} s`,
    error: { path: '/headers/authorization', message: `this API key has no requests left of '${name}' (${budget}) for ${v.resetSeconds} s` },
  };
}
