import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors/domain-error';
import { assertNoAuthorizationHeader, assertTokenUrl, openAuth, sealAuth, viewAuth } from '../../../src/subscriptions/outgoing-auth';
import { SecretBox } from '../../../src/subscriptions/secret-box';

const box = new SecretBox({ id: 'k1', key: randomBytes(32) });
const oauth = { type: 'oauth2_client_credentials', token_url: 'https://auth.example.com/token', client_id: 'cid', client_secret: 'cs_secret_value', scope: 'a b' } as const;

function refusal(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e;
  }
  throw new Error('expected a DomainError');
}

describe('outgoing auth', () => {
  it('seals every credential, shows none, and opens them for sending', () => {
    const bearer = sealAuth(box, 'sub_1', { type: 'bearer', token: 'tok_value' });
    const basic = sealAuth(box, 'sub_1', { type: 'basic', username: 'user_value', password: 'pw:value' });
    const o = sealAuth(box, 'sub_1', oauth);
    for (const stored of [bearer, basic, o]) {
      const text = JSON.stringify(stored);
      for (const secret of ['tok_value', 'user_value', 'pw:value', 'cs_secret_value']) expect(text).not.toContain(secret);
    }
    expect(viewAuth(bearer)).toEqual({ type: 'bearer' });
    expect(viewAuth(basic)).toEqual({ type: 'basic' });
    expect(viewAuth(o)).toEqual({ type: 'oauth2_client_credentials', token_url: oauth.token_url, client_id: 'cid', scope: 'a b' });
    expect(openAuth(box, 'sub_1', bearer)).toEqual({ type: 'static', authorization: 'Bearer tok_value' });
    expect(openAuth(box, 'sub_1', basic)).toEqual({ type: 'static', authorization: `Basic ${Buffer.from('user_value:pw:value').toString('base64')}` });
    expect(openAuth(box, 'sub_1', o)).toMatchObject({ type: 'oauth2', tokenUrl: oauth.token_url, clientId: 'cid', clientSecret: 'cs_secret_value', scope: 'a b' });
    // Bound to its subscription like signing secrets: moved to another document it does not open.
    expect(() => openAuth(box, 'sub_2', bearer)).toThrow();
  });

  it("seals the token URL whole, shows it with its query masked, and opens it for sending", () => {
    const withQuery = { ...oauth, token_url: 'https://auth.example.com/token?tenant=acme&api_key=tq_secret_1' };
    const stored = sealAuth(box, 'sub_1', withQuery);
    expect(JSON.stringify(stored)).not.toContain('tq_secret_1');
    expect(viewAuth(stored)).toMatchObject({ token_url: 'https://auth.example.com/token?********' });
    expect(openAuth(box, 'sub_1', stored)).toMatchObject({ tokenUrl: withQuery.token_url });
    // Stored plain before sealing covered it: still masked on read, and sent as it is.
    const legacy = { ...stored, token_url: withQuery.token_url, token_url_shown: undefined };
    expect(viewAuth(legacy)).toMatchObject({ token_url: 'https://auth.example.com/token?********' });
    expect(openAuth(box, 'sub_1', legacy)).toMatchObject({ tokenUrl: withQuery.token_url });
  });

  it('keys the token cache by subscription and credentials: a new secret never reuses a token', () => {
    const key = (sub: string, secret: string) => {
      const opened = openAuth(box, sub, sealAuth(box, sub, { ...oauth, client_secret: secret }));
      return opened.type === 'oauth2' ? opened.key : '';
    };
    expect(key('sub_1', 'a')).toBe(key('sub_1', 'a'));
    expect(key('sub_1', 'a')).not.toBe(key('sub_1', 'b'));
    expect(key('sub_1', 'a')).not.toBe(key('sub_2', 'a'));
    expect(key('sub_1', 'a')).not.toContain('a:');
  });

  it('refuses a custom Authorization header beside auth, naming where the clash came from', () => {
    expect(() => assertNoAuthorizationHeader(['X-Api-Key'], 'headers')).not.toThrow();
    const fromHeaders = refusal(() => assertNoAuthorizationHeader(['X-Api-Key', 'authorization'], 'headers'));
    expect(fromHeaders.errors?.map((e) => e.field)).toEqual([['headers', 'authorization']]);
    expect(fromHeaders.errors?.[0]?.message).toContain('set by auth');
    const fromAuth = refusal(() => assertNoAuthorizationHeader(['Authorization'], 'auth'));
    expect(fromAuth.kind).toBe('unprocessable');
    expect(fromAuth.errors?.[0]?.field).toEqual(['auth']);
  });

  it('checks the token URL like a callback URL, naming auth.token_url', async () => {
    await expect(assertTokenUrl({ type: 'bearer', token: 't' }, () => Promise.reject(new Error('not called')))).resolves.toBeUndefined();
    await expect(assertTokenUrl(oauth, () => Promise.resolve({ ok: true }))).resolves.toBeUndefined();
    const err = await assertTokenUrl(oauth, () => Promise.resolve({ ok: false, reason: 'host 10.0.0.1 is a private address' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('unprocessable');
    expect((err as DomainError).errors).toEqual([{ field: ['auth', 'token_url'], message: 'host 10.0.0.1 is a private address' }]);
  });
});
