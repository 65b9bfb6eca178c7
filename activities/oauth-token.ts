import { LRUCache } from 'lru-cache';
import type { OpenedAuth } from '../src/subscriptions/outgoing-auth';
import type { DeliveryProxy, PostRequest, PostResult } from './http-post';

/** An OAuth 2.0 client as a worker asks a token endpoint for a token. */
export type OAuthClient = Extract<OpenedAuth, { type: 'oauth2' }>;

/** A token to send, or why there is none (the attempt's error). */
export type TokenResult = { ok: true; token: string; expiresAt: number } | { ok: false; error: string };

/** How token requests leave the worker: like deliveries (address policy, source address, proxy, timeout). */
export interface TokenCacheDeps {
  post: (req: PostRequest) => Promise<PostResult>;
  timeoutMs: number;
  allowPrivate: boolean;
  sourceAddress?: string | undefined;
  proxy?: DeliveryProxy | undefined;
  userAgent: string;
  now?: () => number;
  /** Most clients whose tokens one worker keeps (default 10 000). */
  maxEntries?: number;
}

/** A token is dropped this long before its `expires_in` runs out (at most half its life). */
export const TOKEN_EXPIRY_MARGIN_MS = 30_000;
/** How long a token without `expires_in` is kept; a 401 from the receiver replaces it sooner. */
export const TOKEN_DEFAULT_LIFETIME_MS = 60_000;
/** Largest token response read: enough for large JWTs, bounded against a hostile endpoint. */
const MAX_TOKEN_RESPONSE_BYTES = 16_384;

/** RFC 6749 §2.3.1: client id and secret are form-encoded before they are joined for HTTP Basic. */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/** The token endpoint as named in errors: origin and path only (a query may hold secrets). */
function endpointName(raw: string): string {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  return url ? `${url.origin}${url.pathname}` : 'token endpoint';
}

/**
 * Fetches OAuth 2.0 client credentials tokens and keeps each until shortly before it expires, per
 * worker, keyed by the subscription and a hash of its credentials (a changed secret never reuses a
 * token). Concurrent attempts for one client share one request. A failure is never kept: the next
 * attempt asks again. Errors name the endpoint and the HTTP status or the OAuth `error` code,
 * never a credential or the response body.
 */
export function createTokenCache(deps: TokenCacheDeps) {
  const now = deps.now ?? Date.now;
  const cache = new LRUCache<string, Promise<TokenResult>>({ max: deps.maxEntries ?? 10_000 });

  async function fetchToken(client: OAuthClient): Promise<TokenResult> {
    const asked = now();
    const name = endpointName(client.tokenUrl);
    const form = new URLSearchParams({ grant_type: 'client_credentials', ...(client.scope !== undefined ? { scope: client.scope } : {}) });
    const result = await deps.post({
      url: client.tokenUrl,
      body: form.toString(),
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
        'User-Agent': deps.userAgent,
        Authorization: `Basic ${Buffer.from(`${formEncode(client.clientId)}:${formEncode(client.clientSecret)}`, 'utf8').toString('base64')}`,
      },
      timeoutMs: deps.timeoutMs,
      allowPrivate: deps.allowPrivate,
      sourceAddress: deps.sourceAddress,
      proxy: deps.proxy,
      maxResponseBytes: MAX_TOKEN_RESPONSE_BYTES,
    });
    if (!('statusCode' in result)) return { ok: false, error: `oauth2 token endpoint ${name}: ${result.outcome} (${result.error})` };
    let json: unknown;
    try {
      json = JSON.parse(result.responseExcerpt);
    } catch {
      json = undefined;
    }
    const body = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : undefined;
    if (result.outcome !== 'delivered') {
      const code = typeof body?.error === 'string' && /^[\x20-\x7E]{1,64}$/.test(body.error) ? ` (${body.error})` : '';
      return { ok: false, error: `oauth2 token endpoint ${name} answered HTTP ${result.statusCode}${code}` };
    }
    if (!body) return { ok: false, error: `oauth2 token endpoint ${name} answered HTTP ${result.statusCode} without a JSON object` };
    const token = body.access_token;
    // b64token characters only: a token is sent as a header value, so nothing may break it.
    if (typeof token !== 'string' || !/^[\x21-\x7E]{1,8192}$/.test(token)) return { ok: false, error: `oauth2 token endpoint ${name} answered without a usable access_token` };
    if (body.token_type !== undefined && (typeof body.token_type !== 'string' || body.token_type.toLowerCase() !== 'bearer')) {
      return { ok: false, error: `oauth2 token endpoint ${name} issued a token of type ${typeof body.token_type === 'string' ? body.token_type.slice(0, 32) : typeof body.token_type}, not bearer` };
    }
    const lifetime = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in * 1000 : TOKEN_DEFAULT_LIFETIME_MS;
    // Counted from when it was asked for: the endpoint's clock started no later than that.
    return { ok: true, token, expiresAt: asked + lifetime - Math.min(TOKEN_EXPIRY_MARGIN_MS, lifetime / 2) };
  }

  function start(client: OAuthClient): Promise<TokenResult> {
    const pending = fetchToken(client).catch((err: unknown) => ({ ok: false as const, error: `oauth2 token endpoint ${endpointName(client.tokenUrl)}: ${err instanceof Error ? err.message : String(err)}` }));
    cache.set(client.key, pending);
    void pending.then((r) => {
      if (!r.ok && cache.get(client.key) === pending) cache.delete(client.key);
    });
    return pending;
  }

  return {
    /** A token for `client`: the kept one while it is fresh, else a new one. */
    async get(client: OAuthClient): Promise<TokenResult> {
      const kept = cache.get(client.key);
      if (kept) {
        const r = await kept;
        // A request this attempt joined that failed is its failure too; only an expired token is asked for again.
        if (!r.ok || r.expiresAt > now()) return r;
        // Another attempt may have started a new request meanwhile: join it.
        const current = cache.get(client.key);
        if (current && current !== kept) return current;
      }
      return start(client);
    },

    /** A new token after the receiver refused `stale` with a 401 (unless another attempt already replaced it). */
    async refresh(client: OAuthClient, stale: string): Promise<TokenResult> {
      const kept = cache.get(client.key);
      if (kept) {
        const r = await kept;
        if (!r.ok || (r.token !== stale && r.expiresAt > now())) return r;
        const current = cache.get(client.key);
        if (current && current !== kept) return current;
      }
      return start(client);
    },
  };
}

export type TokenCache = ReturnType<typeof createTokenCache>;
