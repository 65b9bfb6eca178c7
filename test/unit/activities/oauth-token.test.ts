import { describe, expect, it } from 'vitest';
import type { PostRequest, PostResult } from '../../../activities/http-post';
import { createTokenCache, type OAuthClient, TOKEN_EXPIRY_MARGIN_MS } from '../../../activities/oauth-token';

const client: OAuthClient = { type: 'oauth2', tokenUrl: 'https://auth.example.com/token?tenant=t1', clientId: 'id one', clientSecret: 's&cret', scope: 'a b', key: 'sub_1:h1' };
const answer = (statusCode: number, body: unknown): PostResult => ({
  startedAt: 0,
  durationMs: 1,
  outcome: statusCode < 300 ? 'delivered' : 'http_error',
  statusCode,
  responseExcerpt: typeof body === 'string' ? body : JSON.stringify(body),
});

function setup(answers: Array<PostResult | (() => Promise<PostResult>)>) {
  let clock = 1_000_000;
  const requests: PostRequest[] = [];
  const cache = createTokenCache({
    post: (req) => {
      requests.push(req);
      const next = answers.shift();
      if (!next) throw new Error('no answer scripted');
      return typeof next === 'function' ? next() : Promise.resolve(next);
    },
    timeoutMs: 1000,
    allowPrivate: false,
    userAgent: 'test',
    now: () => clock,
  });
  return { cache, requests, advance: (ms: number) => (clock += ms) };
}

describe('OAuth 2.0 token cache', () => {
  it('asks with a form-encoded client credentials grant and HTTP Basic client auth (RFC 6749)', async () => {
    const { cache, requests } = setup([answer(200, { access_token: 'at1', token_type: 'Bearer', expires_in: 3600 })]);
    expect(await cache.get(client)).toMatchObject({ ok: true, token: 'at1' });
    const req = requests[0]!;
    expect(req.url).toBe(client.tokenUrl);
    expect(new URLSearchParams(req.body).get('grant_type')).toBe('client_credentials');
    expect(new URLSearchParams(req.body).get('scope')).toBe('a b');
    expect(req.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    // Form-encoded before joining: the space becomes +, & becomes %26.
    expect(req.headers.Authorization).toBe(`Basic ${Buffer.from('id+one:s%26cret').toString('base64')}`);
    expect(req.allowPrivate).toBe(false);
  });

  it('keeps a token until shortly before it expires, then asks again', async () => {
    const { cache, requests, advance } = setup([answer(200, { access_token: 'at1', expires_in: 3600 }), answer(200, { access_token: 'at2', expires_in: 3600 })]);
    expect((await cache.get(client)) as { token: string }).toMatchObject({ token: 'at1' });
    advance(3600_000 - TOKEN_EXPIRY_MARGIN_MS - 1);
    expect(await cache.get(client)).toMatchObject({ token: 'at1' });
    advance(2);
    expect(await cache.get(client)).toMatchObject({ token: 'at2' });
    expect(requests).toHaveLength(2);
  });

  it('shares one request among concurrent attempts', async () => {
    let release: (r: PostResult) => void = () => undefined;
    const { cache, requests } = setup([() => new Promise((r) => (release = r))]);
    const all = Promise.all([cache.get(client), cache.get(client), cache.get(client)]);
    await new Promise((r) => setImmediate(r));
    release(answer(200, { access_token: 'shared', expires_in: 60 }));
    expect((await all).map((r) => r.ok && r.token)).toEqual(['shared', 'shared', 'shared']);
    expect(requests).toHaveLength(1);
  });

  it('refresh replaces the refused token once; a second refresh of the same stale token joins it', async () => {
    const { cache, requests } = setup([answer(200, { access_token: 'old', expires_in: 3600 }), answer(200, { access_token: 'new', expires_in: 3600 })]);
    await cache.get(client);
    const [a, b] = await Promise.all([cache.refresh(client, 'old'), cache.refresh(client, 'old')]);
    expect(a).toMatchObject({ token: 'new' });
    expect(b).toMatchObject({ token: 'new' });
    expect(await cache.get(client)).toMatchObject({ token: 'new' });
    expect(requests).toHaveLength(2);
  });

  it.each([
    ['a non-2xx answer, with its OAuth error code', answer(401, { error: 'invalid_client', error_description: 'bad secret s&cret' }), 'answered HTTP 401 (invalid_client)'],
    ['a body that is not JSON', answer(200, '<html>'), 'without a JSON object'],
    ['JSON without access_token', answer(200, { token_type: 'bearer' }), 'without a usable access_token'],
    ['a token that would break the header', answer(200, { access_token: 'a\r\nX-Evil: 1' }), 'without a usable access_token'],
    ['another token type', answer(200, { access_token: 'x', token_type: 'mac' }), 'of type mac, not bearer'],
    ['no answer in time', { startedAt: 0, durationMs: 1000, outcome: 'timeout' as const, error: 'no complete answer within 1000 ms' }, 'timeout (no complete answer'],
    ['a refused address', { startedAt: 0, durationMs: 0, outcome: 'blocked' as const, error: 'callback host x resolves to 10.0.0.1 (private address)' }, 'blocked (callback host'],
  ])('fails with %s, names the endpoint without its query, keeps nothing', async (_name, result, reason) => {
    const { cache, requests } = setup([result, answer(200, { access_token: 'later' })]);
    const r = await cache.get(client);
    expect(r.ok).toBe(false);
    const error = (r as { error: string }).error;
    expect(error).toContain('https://auth.example.com/token');
    expect(error).not.toContain('tenant=t1');
    expect(error).toContain(reason);
    expect(error).not.toContain('s&cret');
    expect(await cache.get(client)).toMatchObject({ ok: true, token: 'later' });
    expect(requests).toHaveLength(2);
  });
});
