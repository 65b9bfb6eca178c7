/** Portal session tokens as minted by `POST /api/webhooks/v1/portal-sessions`. */
const tokenPattern = /^whps_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * The `token` parameter of a portal link's fragment (`#token=whps_...`), or undefined when the
 * fragment has none or it is not shaped like a session token.
 */
export function tokenFromHash(hash: string): string | undefined {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const token = params.get('token')?.trim();
  return token && tokenPattern.test(token) ? token : undefined;
}

/** The fragment with `token` removed (empty when nothing else was in it), to rewrite the address. */
export function hashWithoutToken(hash: string): string {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  params.delete('token');
  const rest = params.toString();
  return rest ? `#${rest}` : '';
}
