import { isScope } from '../auth/scopes';
import { parseDuration } from './durations';

/** One budget: `requests` per `windowSeconds`, counted per API key. */
export interface RateLimitPolicy {
  /** `default` or the scope whose operations it covers; the policy's name in the RateLimit headers. */
  name: string;
  requests: number;
  windowSeconds: number;
}

/** The budget of every scope: `byScope` where configured, `fallback` (the `default` entry) for the rest. */
export interface RateLimitPolicies {
  fallback: RateLimitPolicy;
  byScope: ReadonlyMap<string, RateLimitPolicy>;
}

/** 1,000 requests a second per key and scope: far above what the bench's ingest asks (~200/s). */
export const DEFAULT_RATE_LIMITS = 'default=60000/1m';

const entryPattern = /^([a-z:]+)=(\d{1,9})\/(\S+)$/;

/**
 * Parses `RATE_LIMITS`: comma-separated `<default|scope>=<requests>/<window>` entries, e.g.
 * `default=600/1m,orders:write=60/1m`; the window is whole seconds from 1s to 24h. Entries
 * replace the built-in `default`; scopes without an entry use `default`. Returns the policies,
 * or a message naming the first bad entry.
 */
export function parseRateLimits(text: string): RateLimitPolicies | string {
  const policies = new Map<string, RateLimitPolicy>();
  for (const raw of text.split(',').map((e) => e.trim())) {
    const m = entryPattern.exec(raw);
    if (!m) return `'${raw}' must look like <default|scope>=<requests>/<window>, e.g. default=600/1m`;
    const [, name, count, window] = m as unknown as [string, string, string, string];
    if (name !== 'default' && !isScope(name)) return `'${name}' is not default or a scope (webhooks:read, webhooks:write, resources:read, orders:write, admin)`;
    if (policies.has(name)) return `'${name}' is given twice`;
    const requests = Number(count);
    if (requests < 1) return `'${raw}' must allow at least 1 request`;
    const ms = parseDuration(window);
    if (ms === undefined || ms % 1000 !== 0 || ms < 1000 || ms > 86_400_000) return `'${raw}' needs a window of whole seconds from 1s to 24h`;
    policies.set(name, { name, requests, windowSeconds: ms / 1000 });
  }
  const builtIn = parseDefault();
  const fallback = policies.get('default') ?? builtIn;
  policies.delete('default');
  return { fallback, byScope: policies };
}

function parseDefault(): RateLimitPolicy {
  const [count, window] = DEFAULT_RATE_LIMITS.slice('default='.length).split('/') as [string, string];
  return { name: 'default', requests: Number(count), windowSeconds: parseDuration(window)! / 1000 };
}

/** The policy an operation requiring `scope` is charged to (no scope: `default`). */
export function policyFor(policies: RateLimitPolicies, scope: string | undefined): RateLimitPolicy {
  return (scope === undefined ? undefined : policies.byScope.get(scope)) ?? policies.fallback;
}

/** `default=600/1m, orders:write=60/1m`: the policies as people configure them, for logs and reports. */
export function describeRateLimits(policies: RateLimitPolicies): string {
  const all = [policies.fallback, ...policies.byScope.values()];
  return all.map((p) => `${p.name}=${p.requests}/${p.windowSeconds}s`).join(', ');
}
