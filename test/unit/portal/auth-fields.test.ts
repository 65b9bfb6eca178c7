import { describe, expect, it } from 'vitest';
import { authBody, describeAuth, emptyAuthFields } from '../../../src/portal/ui/auth-fields';

describe('the portal authentication fields', () => {
  it('keeps the stored auth unless told otherwise; none removes it only when editing', () => {
    expect(authBody('keep', emptyAuthFields, true)).toEqual({});
    expect(authBody('none', emptyAuthFields, true)).toEqual({ auth: null });
    expect(authBody('none', emptyAuthFields, false)).toEqual({});
  });

  it('builds each type from its own fields only', () => {
    const f = { ...emptyAuthFields, token: ' t0k ', username: 'u', password: ' p ', tokenUrl: 'https://auth.example/token', clientId: 'c', clientSecret: 's', scope: ' a   b ' };
    expect(authBody('bearer', f, false)).toEqual({ auth: { type: 'bearer', token: 't0k' } });
    expect(authBody('basic', f, false)).toEqual({ auth: { type: 'basic', username: 'u', password: ' p ' } });
    expect(authBody('oauth2_client_credentials', f, true)).toEqual({
      auth: { type: 'oauth2_client_credentials', token_url: 'https://auth.example/token', client_id: 'c', client_secret: 's', scope: 'a b' },
    });
    expect(authBody('oauth2_client_credentials', { ...f, scope: '' }, true)).toEqual({
      auth: { type: 'oauth2_client_credentials', token_url: 'https://auth.example/token', client_id: 'c', client_secret: 's' },
    });
  });

  it('names the first missing field', () => {
    expect(authBody('bearer', emptyAuthFields, false)).toEqual({ error: 'Enter the bearer token for authentication.' });
    expect(authBody('basic', { ...emptyAuthFields, username: 'u' }, false)).toEqual({ error: 'Enter the password for authentication.' });
    expect(authBody('oauth2_client_credentials', { ...emptyAuthFields, tokenUrl: 'https://a.example/t' }, false)).toEqual({ error: 'Enter the client id for authentication.' });
  });

  it('describes the stored auth without anything secret', () => {
    expect(describeAuth({ type: 'bearer' })).toBe('Bearer token (hidden)');
    expect(describeAuth({ type: 'oauth2_client_credentials', token_url: 'https://a.example/t', client_id: 'c', scope: 'x' })).toBe(
      'OAuth 2.0 client credentials: client c at https://a.example/t, scope x (secret hidden)',
    );
  });
});
