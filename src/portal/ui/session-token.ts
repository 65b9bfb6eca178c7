import { hashWithoutToken, tokenFromHash } from './token';

const storageKey = 'webhooks-portal-token';

/** What the page was opened with. */
export type TokenSource = { kind: 'token'; token: string } | { kind: 'missing' } | { kind: 'malformed' };

/**
 * The session token: taken from the link's fragment (then kept in sessionStorage and removed
 * from the address bar and history), else the one this tab stored before a reload.
 */
export function takeSessionToken(): TokenSource {
  const hash = location.hash;
  if (!hash.includes('token=')) {
    const stored = sessionStorage.getItem(storageKey);
    return stored ? { kind: 'token', token: stored } : { kind: 'missing' };
  }
  // Even a malformed token leaves the address: it must not linger in history or bookmarks.
  history.replaceState(history.state, '', `${location.pathname}${location.search}${hashWithoutToken(hash)}`);
  const token = tokenFromHash(hash);
  if (!token) return { kind: 'malformed' };
  sessionStorage.setItem(storageKey, token);
  return { kind: 'token', token };
}

/** Forgets the stored token (an expired or invalid session). */
export function forgetSessionToken(): void {
  sessionStorage.removeItem(storageKey);
}
