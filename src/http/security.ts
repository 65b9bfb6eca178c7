import type { Request } from 'express';
import type { ApiKeyRepository, Principal } from '../auth/api-keys';
import { missingScopes } from '../auth/scopes';

const principals = new WeakMap<Request, Principal>();

class AuthError extends Error {
  constructor(
    readonly status: 401 | 403,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The validator's handler for the contract's `apiKey` scheme: authenticates the bearer key
 * against the stored hashes, then checks the operation's scopes (401 unknown key, 403 scope).
 */
export function apiKeyHandler(keys: ApiKeyRepository) {
  return async (req: Request, requiredScopes: string[]): Promise<boolean> => {
    const match = /^Bearer[ ]+([\x21-\x7e]+)$/i.exec(req.headers.authorization ?? '');
    if (!match) throw new AuthError(401, 'Authorization header must be "Bearer <api key>"');
    const principal = await keys.authenticate(match[1]!);
    if (!principal) throw new AuthError(401, 'API key is not valid');
    const missing = missingScopes(principal.scopes, requiredScopes);
    if (missing.length) throw new AuthError(403, `API key lacks the scope ${missing.join(', ')}`);
    principals.set(req, principal);
    return true;
  };
}

/** The authenticated caller of a request that passed the security handler. */
export function principalOf(req: Request): Principal {
  const principal = principals.get(req);
  if (!principal) throw new Error('no principal: route is not protected by the apiKey scheme');
  return principal;
}
