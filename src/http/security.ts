import type { Request } from 'express';
import type { ApiKeyRepository, Principal } from '../auth/api-keys';
import { missingScopes } from '../auth/scopes';
import { PORTAL_TOKEN_PREFIX, type PortalSessions, PortalTokenError } from '../portal/sessions';
import type { ApiRateLimiter } from '../request-budgets/limiter';
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

/** What the security handlers check credentials against. */
export interface Credentials {
  keys: ApiKeyRepository;
  /** Absent: portal session tokens are refused like unknown keys. */
  portal?: PortalSessions | undefined;
  limiter?: ApiRateLimiter | undefined;
}

// Every scheme's handler runs for an operation listing several: the bearer is checked and charged once.
const verdicts = new WeakMap<Request, Promise<Principal>>();

function authenticate(req: Request, scope: string | undefined, credentials: Credentials): Promise<Principal> {
  let verdict = verdicts.get(req);
  if (!verdict) {
    verdict = check(req, scope, credentials);
    verdicts.set(req, verdict);
  }
  return verdict;
}

async function check(req: Request, scope: string | undefined, { keys, portal, limiter }: Credentials): Promise<Principal> {
  const match = /^Bearer[ ]+([\x21-\x7e]+)$/i.exec(req.headers.authorization ?? '');
  if (!match) {
    failures.set(req, { error: 'invalid_request' });
    throw new AuthError(401, 'Authorization header must be "Bearer <api key or portal session token>"');
  }
  const token = match[1]!;
  const principal = token.startsWith(PORTAL_TOKEN_PREFIX) ? await portalPrincipal(req, token, portal) : await keyPrincipal(req, token, keys);
  // Charged once the caller is known, before the scope check: a key probing forbidden operations pays too.
  const verdict = await limiter?.charge(principal.keyId, scope);
  if (verdict && req.res) setRateLimitHeaders(req.res, verdict);
  if (verdict && !verdict.allowed) {
    markRateLimited(req, verdict);
    throw new RateLimitedError('rate limit exceeded');
  }
  return principal;
}

async function keyPrincipal(req: Request, key: string, keys: ApiKeyRepository): Promise<Principal> {
  const principal = await keys.authenticate(key).catch((err: unknown) => {
    // The key store failed (e.g. MongoDB is down), not the key: the validator would answer a
    // status-less error with 401, telling a client whose key is valid that it is not.
    throw new KeyStoreError(err);
  });
  if (!principal) {
    failures.set(req, { error: 'invalid_token' });
    throw new AuthError(401, 'API key is not valid');
  }
  return principal;
}

async function portalPrincipal(req: Request, token: string, portal: PortalSessions | undefined): Promise<Principal> {
  const session = await portal?.verify(token).catch((err: unknown) => {
    if (!(err instanceof PortalTokenError)) throw new KeyStoreError(err);
    failures.set(req, { error: 'invalid_token' });
    throw new AuthError(401, err.message);
  });
  if (!session) {
    failures.set(req, { error: 'invalid_token' });
    throw new AuthError(401, 'portal sessions are not enabled on this server');
  }
  // Charged to the owner, not the session: opening more sessions must not multiply the budget.
  return { keyId: `portal:${session.ownerId}`, ownerId: session.ownerId, scopes: [...session.grants], portal: session };
}

function requireScopes(req: Request, granted: string[], required: string[], who: string): void {
  const missing = missingScopes(granted, required);
  if (missing.length) {
    failures.set(req, { error: 'insufficient_scope', scope: missing });
    throw new AuthError(403, `${who} lacks the scope ${missing.join(', ')}`);
  }
}

type Scheme = 'apiKey' | 'portalSession';

/** The scopes the operation asks of `scheme`, or undefined when it does not accept that scheme. */
function schemeScopes(req: Request, scheme: Scheme): string[] | undefined {
  const security = (req as Request & { openapi?: { schema?: { security?: Record<string, string[]>[] } } }).openapi?.schema?.security;
  return security?.find((requirement) => scheme in requirement)?.[scheme];
}

/**
 * Checks the authenticated caller against the operation, whichever scheme's handler asks: every
 * handler of an operation runs and the validator answers the first one's error, so each answers
 * for the credential actually presented (a portal token's missing grant, not "use an API key").
 */
async function authorize(req: Request, scheme: Scheme, requiredScopes: string[], credentials: Credentials): Promise<true> {
  const principal = await authenticate(req, requiredScopes[0], credentials);
  const presented: Scheme = principal.portal ? 'portalSession' : 'apiKey';
  const scopes = presented === scheme ? requiredScopes : schemeScopes(req, presented);
  if (!scopes) {
    throw new AuthError(403, principal.portal ? 'a portal session token cannot call this operation; use an API key' : 'this operation takes a portal session token, not an API key');
  }
  requireScopes(req, principal.scopes, scopes, principal.portal ? 'portal session' : 'API key');
  principals.set(req, principal);
  return true;
}

/**
 * The validator's handler for the contract's `apiKey` scheme: authenticates the bearer key
 * against the stored hashes, charges the request to the key's budget for the operation's scope
 * (429 when spent), then checks the scopes (401 unknown key, 403 scope). A portal session
 * token is accepted only where the operation also lists `portalSession`.
 */
export function apiKeyHandler(credentials: Credentials) {
  return (req: Request, requiredScopes: string[]): Promise<boolean> => authorize(req, 'apiKey', requiredScopes, credentials);
}

/**
 * The validator's handler for the `portalSession` scheme: a valid, unexpired portal session
 * token (401 otherwise) whose grants include the operation's scopes (403 otherwise).
 */
export function portalSessionHandler(credentials: Credentials) {
  return (req: Request, requiredScopes: string[]): Promise<boolean> => authorize(req, 'portalSession', requiredScopes, credentials);
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

/** The owner of an authenticated request; undefined for one no security handler passed. */
export function ownerOfRequest(req: Request): string | undefined {
  return principals.get(req)?.ownerId;
}

/** The authenticated caller of a request that passed the security handler. */
export function principalOf(req: Request): Principal {
  const principal = principals.get(req);
  if (!principal) throw new Error('no principal: route is not protected by a security scheme');
  return principal;
}
