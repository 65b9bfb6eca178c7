import type { Request } from 'express';
import type { ApiKeyRepository, Principal } from '../auth/api-keys';
import { missingScopes } from '../auth/scopes';
import type { ApiRateLimiter } from '../rate-limit/limiter';
import { markRateLimited, setRateLimitHeaders } from './rate-limit';

const principals = new WeakMap<Request, Principal>();

/** Why the handler refused a request, for the `WWW-Authenticate` challenge (RFC 6750 §3.1). */
type AuthFailure = { error: 'invalid_request' | 'invalid_token' } | { error: 'insufficient_scope'; scope: string[] };

const failures = new WeakMap<Request, AuthFailure>();

class AuthError extends Error {
  constructor(
    readonly status: 401 | 403,
    message: string,
  ) {
    super(message);
  }
}

/** Over budget: the validator turns any handler error into its own, so the 429 is noted on the request. */
class RateLimitedError extends Error {
  readonly status = 429;
}

/** The API key could not be checked: a server error (500), never a 401. */
export class KeyStoreError extends Error {
  readonly status = 500;
  constructor(cause: unknown) {
    super(`API key lookup failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/**
 * The validator's handler for the contract's `apiKey` scheme: authenticates the bearer key
 * against the stored hashes, charges the request to the key's budget for the operation's scope
 * (429 when spent), then checks the scopes (401 unknown key, 403 scope).
 */
export function apiKeyHandler(keys: ApiKeyRepository, limiter?: ApiRateLimiter) {
  return async (req: Request, requiredScopes: string[]): Promise<boolean> => {
    const match = /^Bearer[ ]+([\x21-\x7e]+)$/i.exec(req.headers.authorization ?? '');
    if (!match) {
      failures.set(req, { error: 'invalid_request' });
      throw new AuthError(401, 'Authorization header must be "Bearer <api key>"');
    }
    const principal = await keys.authenticate(match[1]!).catch((err: unknown) => {
      // The key store failed (e.g. MongoDB is down), not the key: the validator would answer a
      // status-less error with 401, telling a client whose key is valid that it is not.
      throw new KeyStoreError(err);
    });
    if (!principal) {
      failures.set(req, { error: 'invalid_token' });
      throw new AuthError(401, 'API key is not valid');
    }
    // Charged once the key is known, before the scope check: a key probing forbidden operations pays too.
    const verdict = await limiter?.charge(principal.keyId, requiredScopes[0]);
    if (verdict && req.res) setRateLimitHeaders(req.res, verdict);
    if (verdict && !verdict.allowed) {
      markRateLimited(req, verdict);
      throw new RateLimitedError('rate limit exceeded');
    }
    const missing = missingScopes(principal.scopes, requiredScopes);
    if (missing.length) {
      failures.set(req, { error: 'insufficient_scope', scope: missing });
      throw new AuthError(403, `API key lacks the scope ${missing.join(', ')}`);
    }
    principals.set(req, principal);
    return true;
  };
}

/**
 * The `WWW-Authenticate` value for a 401 or 403 answer: a bare `Bearer` challenge when no key
 * was presented, with `error` (and, for a missing scope, `scope`) when the handler refused it.
 */
export function bearerChallenge(req: Request, status: 401 | 403): string {
  const failure = failures.get(req);
  const params = ['realm="webhook-service"'];
  if (failure?.error === 'insufficient_scope') params.push('error="insufficient_scope"', `scope="${failure.scope.join(' ')}"`);
  else if (failure && status === 401) params.push(`error="${failure.error}"`);
  return `Bearer ${params.join(', ')}`;
}

/** The authenticated caller of a request that passed the security handler. */
export function principalOf(req: Request): Principal {
  const principal = principals.get(req);
  if (!principal) throw new Error('no principal: route is not protected by the apiKey scheme');
  return principal;
}
