import { createHash } from 'node:crypto';
import { DomainError } from '../errors/domain-error';
import type { components } from '../../generated/api';

type Schemas = components['schemas'];
import { isSealed, type SecretBox } from './secret-box';
import { MASKED_VALUE } from './custom-headers';

/** What an integrator sets: bearer, basic or OAuth 2.0 client credentials (contract `SubscriptionAuth`). */
export type SubscriptionAuth = Schemas['SubscriptionAuth'];
/** What a read shows: the type, and for OAuth 2.0 the token URL, client id and scope; never a secret. */
export type SubscriptionAuthView = Schemas['SubscriptionAuthView'];

/** The stored form: every credential sealed (bound to the subscription) like a signing secret. */
export type StoredAuth =
  | { type: 'bearer'; token: string }
  | { type: 'basic'; username: string; password: string }
  | {
      type: 'oauth2_client_credentials';
      /** Sealed whole: its query may carry a credential (stored plain before sealing covered it). */
      token_url: string;
      /** The token URL as reads show it, query masked (absent before sealing covered it). */
      token_url_shown?: string;
      client_id: string;
      client_secret: string;
      scope?: string;
    };

/** The opened form a worker sends with: a fixed `Authorization` value, or what to ask a token endpoint for. */
export type OpenedAuth =
  | { type: 'static'; authorization: string }
  | { type: 'oauth2'; tokenUrl: string; clientId: string; clientSecret: string; scope?: string | undefined; key: string };

/**
 * 422 when a custom `Authorization` header would compete with `auth`, which sets it. `from` says
 * which field of this request brought the clash: the headers, or the auth beside stored headers.
 */
export function assertNoAuthorizationHeader(headerNames: readonly string[], from: 'headers' | 'auth'): void {
  const clash = headerNames.find((n) => n.toLowerCase() === 'authorization');
  if (clash === undefined) return;
  const field = from === 'headers' ? ['headers', clash] : ['auth'];
  const message = from === 'headers' ? `${clash} is set by auth; remove the header or the auth` : `the subscription has a custom ${clash} header; remove it (headers) to set auth`;
  throw DomainError.unprocessable(`a custom ${clash} header cannot be combined with auth, which sets it`, [{ field, message }]);
}

/** 422 naming `auth.token_url` unless an OAuth 2.0 token URL passes the callback URL rules (`check`). */
export async function assertTokenUrl(auth: SubscriptionAuth, check: (raw: string) => Promise<{ ok: true } | { ok: false; reason: string }>): Promise<void> {
  if (auth.type !== 'oauth2_client_credentials') return;
  const result = await check(auth.token_url);
  if (!result.ok) throw DomainError.unprocessable(`auth.token_url ${result.reason}`, [{ field: ['auth', 'token_url'], message: result.reason }]);
}

/** How a token URL is shown: its query, which may carry a credential, masked as a whole. */
export function maskTokenUrl(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? url : `${url.slice(0, at)}?${MASKED_VALUE}`;
}

/** The stored form of `auth`: every credential sealed to the subscription. */
export function sealAuth(box: SecretBox, subscriptionId: string, auth: SubscriptionAuth): StoredAuth {
  switch (auth.type) {
    case 'bearer':
      return { type: 'bearer', token: box.seal(auth.token, subscriptionId) };
    case 'basic':
      return { type: 'basic', username: box.seal(auth.username, subscriptionId), password: box.seal(auth.password, subscriptionId) };
    case 'oauth2_client_credentials':
      return {
        type: 'oauth2_client_credentials',
        token_url: box.seal(auth.token_url, subscriptionId),
        token_url_shown: maskTokenUrl(auth.token_url),
        client_id: auth.client_id,
        client_secret: box.seal(auth.client_secret, subscriptionId),
        ...(auth.scope !== undefined ? { scope: auth.scope } : {}),
      };
  }
}

/** The API form: the type, and the non-secret parts of an OAuth 2.0 client (the token URL's query masked). */
export function viewAuth(stored: StoredAuth): SubscriptionAuthView {
  if (stored.type !== 'oauth2_client_credentials') return { type: stored.type };
  // One stored plain before sealing covered it is masked on the way out; a sealed one always has its shown form.
  const shown = stored.token_url_shown ?? (isSealed(stored.token_url) ? undefined : maskTokenUrl(stored.token_url));
  return { type: stored.type, ...(shown !== undefined ? { token_url: shown } : {}), client_id: stored.client_id, ...(stored.scope !== undefined ? { scope: stored.scope } : {}) };
}

/**
 * Opens the stored credentials for sending. For OAuth 2.0, `key` names the token cache entry:
 * the subscription and a hash of everything the token depends on, so a changed secret, URL or
 * scope never reuses a token fetched with the old ones.
 */
export function openAuth(box: SecretBox, subscriptionId: string, stored: StoredAuth): OpenedAuth {
  switch (stored.type) {
    case 'bearer':
      return { type: 'static', authorization: `Bearer ${box.open(stored.token, subscriptionId)}` };
    case 'basic': {
      const pair = `${box.open(stored.username, subscriptionId)}:${box.open(stored.password, subscriptionId)}`;
      return { type: 'static', authorization: `Basic ${Buffer.from(pair, 'utf8').toString('base64')}` };
    }
    case 'oauth2_client_credentials': {
      const clientSecret = box.open(stored.client_secret, subscriptionId);
      const tokenUrl = box.open(stored.token_url, subscriptionId);
      const hash = createHash('sha256').update(JSON.stringify([tokenUrl, stored.client_id, clientSecret, stored.scope ?? null])).digest('base64url');
      return { type: 'oauth2', tokenUrl, clientId: stored.client_id, clientSecret, scope: stored.scope, key: `${subscriptionId}:${hash}` };
    }
  }
}
