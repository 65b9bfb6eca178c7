import type { SubscriptionAuth } from './types';

/** What the authentication picker says: keep the stored auth, none, or one of the contract's types. */
export type AuthChoice = 'keep' | 'none' | SubscriptionAuth['type'];

/** The authentication form's fields; only those of the chosen type are read. */
export interface AuthFields {
  token: string;
  username: string;
  password: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string;
}

/** Empty fields: secrets are never shown again, so editing starts from these too. */
export const emptyAuthFields: AuthFields = { token: '', username: '', password: '', tokenUrl: '', clientId: '', clientSecret: '', scope: '' };

/**
 * The `auth` part of a create or PATCH body: nothing for `keep` (and for `none` on create),
 * `null` to remove it when editing, or the chosen type with its fields; an error naming the
 * first empty required field.
 */
export function authBody(choice: AuthChoice, f: AuthFields, editing: boolean): { auth?: SubscriptionAuth | null } | { error: string } {
  const missing = (label: string) => ({ error: `Enter the ${label} for authentication.` });
  switch (choice) {
    case 'keep':
      return {};
    case 'none':
      return editing ? { auth: null } : {};
    case 'bearer':
      return f.token.trim() ? { auth: { type: 'bearer', token: f.token.trim() } } : missing('bearer token');
    case 'basic':
      if (!f.username.trim()) return missing('user name');
      return f.password ? { auth: { type: 'basic', username: f.username.trim(), password: f.password } } : missing('password');
    case 'oauth2_client_credentials':
      if (!f.tokenUrl.trim()) return missing('token URL');
      if (!f.clientId.trim()) return missing('client id');
      if (!f.clientSecret) return missing('client secret');
      return {
        auth: {
          type: 'oauth2_client_credentials',
          token_url: f.tokenUrl.trim(),
          client_id: f.clientId.trim(),
          client_secret: f.clientSecret,
          ...(f.scope.trim() ? { scope: f.scope.trim().replace(/\s+/g, ' ') } : {}),
        },
      };
  }
}

/** How the detail names a subscription's auth, with nothing secret in it. */
export function describeAuth(auth: { type: SubscriptionAuth['type']; token_url?: string; client_id?: string; scope?: string }): string {
  if (auth.type === 'bearer') return 'Bearer token (hidden)';
  if (auth.type === 'basic') return 'HTTP Basic (user name and password hidden)';
  return `OAuth 2.0 client credentials: client ${auth.client_id ?? '?'} at ${auth.token_url ?? '?'}${auth.scope ? `, scope ${auth.scope}` : ''} (secret hidden)`;
}
