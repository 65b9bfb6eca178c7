import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import type { CounterDoc } from '../../../src/orders/repository';
import { seedDemoData } from '../../../src/seed/seed';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { startTestApi, type TestApi } from '../../support/api';

type Problem = components['schemas']['Problem'];

/**
 * Every rejected request: a 4xx application/problem+json document that names the offending
 * field, and nothing written. Order bodies are covered in orders.test.ts, resource queries in
 * resources.test.ts; this file adds what those leave out.
 */

const hook = 'http://127.0.0.1:9/hooks';
/** A public IP literal: accepted by the strict app without any DNS lookup. */
const publicHook = 'http://93.184.216.34/hooks';
const v1 = '/api/webhooks/v1';

interface RawResponse {
  status: number;
  type: string | null;
  headers: Headers;
  body: Problem;
}

/** A request the typed client cannot express; JSON bodies are sent as given (strings verbatim). */
async function send(
  api: TestApi,
  key: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const res = await fetch(`${api.baseUrl}${path}`, {
    method,
    headers: {
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), headers: res.headers, body: JSON.parse(text) as Problem };
}

/** A 4xx problem+json whose `errors` name `path` (or, when it has no `errors`, whose detail does). */
function expectRejected(res: RawResponse, status: number, path: string): void {
  const summary = JSON.stringify(res.body);
  expect(res.status, summary).toBe(status);
  expect(res.type).toContain('application/problem+json');
  expect(res.body).toMatchObject({ status, type: expect.any(String) as unknown, title: expect.any(String) as unknown });
  const paths = res.body.errors?.map((e) => e.path) ?? [];
  if (paths.length) expect(paths, summary).toContain(path);
  else expect(res.body.detail, summary).toContain(path.split('/').pop());
}

describe('bad input: rejected with a problem naming the field, nothing written', () => {
  let api: TestApi;
  /** Same app with CALLBACK_ALLOW_PRIVATE=false: the production SSRF policy. */
  let strict: TestApi;
  let key: string;
  let strictKey: string;
  let admin: string;
  let subId: string;
  let strictSubId: string;

  const subscriptions = (on: TestApi) => on.mongo.db.collection<SubscriptionDoc>('subscriptions');
  const countSubs = (on: TestApi = api) => subscriptions(on).countDocuments();
  const storedSub = async (id: string, on: TestApi = api) => subscriptions(on).findOne({ _id: id });

  beforeAll(async () => {
    [api, strict] = await Promise.all([startTestApi(), startTestApi({ CALLBACK_ALLOW_PRIVATE: 'false' })]);
    await seedDemoData(api.mongo.db);
    ({ key } = await api.clientWith(['webhooks:read', 'webhooks:write', 'resources:read', 'orders:write']));
    ({ key: admin } = await api.clientWith(['admin']));
    ({ key: strictKey } = await strict.clientWith(['webhooks:read', 'webhooks:write', 'resources:read']));
    const created = await send(api, key, 'POST', `${v1}/subscribe`, { url: hook, events: ['order.created'] });
    expect(created.status).toBe(201);
    subId = (created.body as unknown as { id: string }).id;
    const strictCreated = await send(strict, strictKey, 'POST', `${v1}/subscribe`, { url: publicHook, events: ['order.created'] });
    expect(strictCreated.status, JSON.stringify(strictCreated.body)).toBe(201);
    strictSubId = (strictCreated.body as unknown as { id: string }).id;
  });
  afterAll(async () => {
    await Promise.all([api?.close(), strict?.close()]);
  });

  describe('POST /api/webhooks/v1/subscribe (and its aliases)', () => {
    const valid = { url: hook, events: ['order.created'] };

    it.each([
      ['malformed JSON', '/body', '{"url": "http://127.0.0.1:9/", "events": ['],
      ['a truncated string', '/body', '{"url": "http://127.0.0.1:9/'],
      ['JSON null (not an object)', '/body', 'null'],
      ['a trailing comma', '/body', '{"url": "http://127.0.0.1:9/", "events": ["order.created"],}'],
    ])('rejects %s with 400 Malformed JSON', async (_name, path, body) => {
      const before = await countSubs();
      const res = await send(api, key, 'POST', `${v1}/subscribe`, body);
      expectRejected(res, 400, path);
      expect(res.body.title).toBe('Malformed JSON');
      expect(await countSubs()).toBe(before);
    });

    it.each([
      ['url as a number', '/body/url', { ...valid, url: 42 }],
      ['url as null', '/body/url', { ...valid, url: null }],
      ['events as a string', '/body/events', { ...valid, events: 'order.created' }],
      ['events as an object', '/body/events', { ...valid, events: { 0: 'order.created' } }],
      ['an event as a number', '/body/events/0', { ...valid, events: [1] }],
      ['description as a number', '/body/description', { ...valid, description: 5 }],
      ['secret as a boolean', '/body/secret', { ...valid, secret: true }],
      ['a JSON array body', '/body', [valid]],
      ['a JSON string body', '/body', '"http://127.0.0.1:9/"'],
    ])('rejects wrong types: %s, naming %s', async (_name, path, body) => {
      const before = await countSubs();
      expectRejected(await send(api, key, 'POST', `${v1}/subscribe`, body), 400, path);
      expect(await countSubs()).toBe(before);
    });

    it.each([
      ['missing url', '/body/url', { events: ['order.created'] }],
      ['missing events', '/body/events', { url: hook }],
      ['an empty object', '/body/url', {}],
    ])('rejects missing required fields: %s, naming %s', async (_name, path, body) => {
      const before = await countSubs();
      expectRejected(await send(api, key, 'POST', `${v1}/subscribe`, body), 400, path);
      expect(await countSubs()).toBe(before);
    });

    it('rejects a missing body with 400 or 415, writing nothing', async () => {
      const before = await countSubs();
      const res = await send(api, key, 'POST', `${v1}/subscribe`, undefined, { 'Content-Type': 'application/json' });
      expect([400, 415]).toContain(res.status);
      expect(res.type).toContain('application/problem+json');
      expect(await countSubs()).toBe(before);
    });

    it.each([
      ['an unknown top-level property', '/body/colour', { ...valid, colour: 'blue' }],
      ['owner_id (not settable)', '/body/owner_id', { ...valid, owner_id: 'someone-else' }],
      ['status (not settable on create)', '/body/status', { ...valid, status: 'paused' }],
      ['version (fixed by the path)', '/body/version', { ...valid, version: 2 }],
      ['id (assigned by the service)', '/body/id', { ...valid, id: 'sub_AAAAAAAAAAAAAAAAAAAAAA' }],
    ])('rejects %s on the closed schema, naming %s', async (_name, path, body) => {
      const before = await countSubs();
      expectRejected(await send(api, key, 'POST', `${v1}/subscribe`, body), 400, path);
      expect(await countSubs()).toBe(before);
    });

    it.each([
      ['an empty events list', '/body/events', { url: hook, events: [] }],
      ['duplicate events', '/body/events', { url: hook, events: ['order.created', 'order.created'] }],
      ['an unknown event type', '/body/events/0', { url: hook, events: ['order.deleted'] }],
      ['an unknown event type after a valid one', '/body/events/1', { url: hook, events: ['order.created', 'nope'] }],
      ['an event type in the wrong case', '/body/events/0', { url: hook, events: ['Order.Created'] }],
      ['a description over 500 characters', '/body/description', { ...valid, description: 'x'.repeat(501) }],
      ['a secret without the whsec_ prefix', '/body/secret', { ...valid, secret: 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }],
      ['a secret that is too short', '/body/secret', { ...valid, secret: 'whsec_abc' }],
    ])('rejects %s, naming %s', async (_name, path, body) => {
      const before = await countSubs();
      expectRejected(await send(api, key, 'POST', `${v1}/subscribe`, body), 400, path);
      expect(await countSubs()).toBe(before);
    });

    it.each(['/api/webhooks/subscribe', `${v1}/subscribe`, '/api/webhooks/v2/subscribe'])(
      'applies the same rules on %s',
      async (path) => {
        const before = await countSubs();
        expectRejected(await send(api, key, 'POST', path, { url: hook, events: [] }), 400, '/body/events');
        expectRejected(await send(api, key, 'POST', path, { url: 'ftp://example.com/', events: ['order.created'] }), 400, '/body/url');
        expectRejected(await send(api, key, 'POST', path, { ...valid, extra: true }), 400, '/body/extra');
        expect(await countSubs()).toBe(before);
      },
    );

    it.each([
      ['a relative path', '/hooks/orders'],
      ['a relative reference', 'hooks/orders'],
      ['a bare host', 'example.com/hooks'],
      ['a scheme-relative URL', '//example.com/hooks'],
      ['ftp:', 'ftp://example.com/hooks'],
      ['javascript:', 'javascript:alert(1)'],
      ['data:', 'data:text/plain,hello'],
      ['file:', 'file:///etc/passwd'],
      ['ws:', 'ws://example.com/socket'],
      ['an empty string', ''],
      ['credentials in the URL', 'http://user:secret@127.0.0.1:9/hooks'],
      ['a fragment', 'http://127.0.0.1:9/hooks#section'],
      ['an http URL without host', 'http:///hooks'],
      ['a URL over 2048 characters', `http://127.0.0.1:9/${'a'.repeat(2048)}`],
    ])('rejects a callback URL that is not an absolute http(s) URL: %s', async (_name, url) => {
      const before = await countSubs();
      expectRejected(await send(api, key, 'POST', `${v1}/subscribe`, { url, events: ['order.created'] }), 400, '/body/url');
      expect(await countSubs()).toBe(before);
    });
  });

  describe('callback URLs on loopback, private, link-local, CGNAT or metadata addresses', () => {
    const privateUrls = [
      ['loopback', 'http://127.0.0.1/hooks'],
      ['loopback as a decimal integer', 'http://2130706433/hooks'],
      ['loopback in hex', 'http://0x7f000001/hooks'],
      ['loopback in octal', 'http://0177.0.0.1/hooks'],
      ['loopback, short form', 'http://127.1/hooks'],
      ['loopback with a port', 'https://127.0.0.1:8443/hooks'],
      ['IPv6 loopback', 'http://[::1]/hooks'],
      ['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]/hooks'],
      ['IPv4-mapped IPv6 loopback in hex', 'http://[::ffff:7f00:1]/hooks'],
      ['the unspecified address', 'http://0.0.0.0/hooks'],
      ['private 10/8', 'http://10.0.0.1/hooks'],
      ['private 172.16/12', 'http://172.16.5.4/hooks'],
      ['private 192.168/16', 'http://192.168.1.1/hooks'],
      ['IPv6 unique local', 'http://[fd00::1]/hooks'],
      ['link-local / cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
      ['IPv6 link-local', 'http://[fe80::1]/hooks'],
      ['CGNAT 100.64/10', 'http://100.64.0.1/hooks'],
      ['localhost', 'http://localhost/hooks'],
      ['localhost with a trailing dot', 'http://localhost./hooks'],
      ['a localhost subdomain', 'http://api.localhost/hooks'],
      ['a metadata hostname', 'http://metadata.google.internal/computeMetadata/v1/'],
      ['a single-label host', 'http://intranet/hooks'],
    ] as const;

    it.each(privateUrls)('refuses %s (%s) on create with 400 naming /body/url, writing nothing', async (_name, url) => {
      const before = await countSubs(strict);
      const res = await send(strict, strictKey, 'POST', `${v1}/subscribe`, { url, events: ['order.created'] });
      expectRejected(res, 400, '/body/url');
      expect(await countSubs(strict)).toBe(before);
    });

    it.each(privateUrls)('refuses %s (%s) on PATCH url, leaving the subscription unchanged', async (_name, url) => {
      const before = await storedSub(strictSubId, strict);
      const res = await send(strict, strictKey, 'PATCH', `${v1}/subscriptions/${strictSubId}`, { url });
      expectRejected(res, 400, '/body/url');
      expect(await storedSub(strictSubId, strict)).toEqual(before);
      expect(before!.url).toBe(publicHook);
    });

    it.each(privateUrls)('refuses %s (%s) as an OAuth 2.0 token_url with 422 naming /body/auth/token_url, on create and PATCH', async (_name, tokenUrl) => {
      const auth = { type: 'oauth2_client_credentials', token_url: tokenUrl, client_id: 'c', client_secret: 's' };
      const before = await countSubs(strict);
      expectRejected(await send(strict, strictKey, 'POST', `${v1}/subscribe`, { url: publicHook, events: ['order.created'], auth }), 422, '/body/auth/token_url');
      expect(await countSubs(strict)).toBe(before);
      const stored = await storedSub(strictSubId, strict);
      expectRejected(await send(strict, strictKey, 'PATCH', `${v1}/subscriptions/${strictSubId}`, { auth, description: 'not stored' }), 422, '/body/auth/token_url');
      expect(await storedSub(strictSubId, strict)).toEqual(stored);
    });

    it('refuses a PATCH that changes the url to a private one together with other fields, changing none of them', async () => {
      const before = await storedSub(strictSubId, strict);
      const res = await send(strict, strictKey, 'PATCH', `${v1}/subscriptions/${strictSubId}`, {
        url: 'http://10.1.2.3/hooks',
        status: 'paused',
        description: 'should not be stored',
      });
      expectRejected(res, 400, '/body/url');
      expect(await storedSub(strictSubId, strict)).toEqual(before);
    });

    it('accepts every one of them when CALLBACK_ALLOW_PRIVATE=true (local development)', async () => {
      expect(api.config.api.allowPrivateCallbacks).toBe(true);
      const before = await countSubs();
      for (const [name, url] of privateUrls) {
        const res = await send(api, key, 'POST', `${v1}/subscribe`, { url, events: ['order.created'] });
        expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(201);
      }
      expect(await countSubs()).toBe(before + privateUrls.length);
      const patched = await send(api, key, 'PATCH', `${v1}/subscriptions/${subId}`, { url: 'http://169.254.169.254/latest/' });
      expect(patched.status).toBe(200);
      const restored = await send(api, key, 'PATCH', `${v1}/subscriptions/${subId}`, { url: hook });
      expect(restored.status).toBe(200);
    });

    it('still refuses non-http(s) URLs when CALLBACK_ALLOW_PRIVATE=true', async () => {
      const before = await countSubs();
      for (const url of ['ftp://127.0.0.1/', 'javascript:alert(1)', '/relative']) {
        expectRejected(await send(api, key, 'POST', `${v1}/subscribe`, { url, events: ['order.created'] }), 400, '/body/url');
      }
      expect(await countSubs()).toBe(before);
    });
  });

  describe('PATCH /api/webhooks/v1/subscriptions/{id}', () => {
    it.each([
      ['an empty object', '/body', {}],
      ['an unknown property', '/body/colour', { colour: 'blue' }],
      ['a settable field next to an unknown one', '/body/secret', { status: 'paused', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }],
      ['status disabled (set by the service only)', '/body/status', { status: 'disabled' }],
      ['an unknown status', '/body/status', { status: 'archived' }],
      ['events empty', '/body/events', { events: [] }],
      ['an unknown event', '/body/events/1', { events: ['order.created', 'nope'] }],
      ['url as a number', '/body/url', { url: 1 }],
      ['a javascript: url', '/body/url', { url: 'javascript:alert(1)' }],
      ['a relative url', '/body/url', { url: '/hooks' }],
      ['a version the contract lacks', '/body/version', { version: 3 }],
      ['description as null', '/body/description', { description: null }],
    ])('rejects %s naming %s, leaving the subscription unchanged', async (_name, path, body) => {
      const before = await storedSub(subId);
      expectRejected(await send(api, key, 'PATCH', `${v1}/subscriptions/${subId}`, body), 400, path);
      expect(await storedSub(subId)).toEqual(before);
    });

    it('rejects malformed JSON and a wrong content type, leaving the subscription unchanged', async () => {
      const before = await storedSub(subId);
      expectRejected(await send(api, key, 'PATCH', `${v1}/subscriptions/${subId}`, '{"status": "paused"'), 400, '/body');
      expectRejected(
        await send(api, key, 'PATCH', `${v1}/subscriptions/${subId}`, 'status=paused', { 'Content-Type': 'application/x-www-form-urlencoded' }),
        415,
        '/headers/content-type',
      );
      expect(await storedSub(subId)).toEqual(before);
    });

    it.each(['not-an-id', 'sub_short', 'sub_has-a-dash-in-it-1234', 'evt_AAAAAAAAAAAAAAAAAAAAAA'])(
      'rejects the malformed subscription id %s with 400 naming the path parameter',
      async (id) => {
        for (const [method, suffix, body] of [
          ['GET', '', undefined],
          ['PATCH', '', { status: 'paused' }],
          ['DELETE', '', undefined],
          ['POST', '/rotate-secret', {}],
          ['POST', '/test', undefined],
          ['GET', '/attempts', undefined],
          ['POST', '/recover', { since: '2025-01-01T00:00:00Z' }],
        ] as const) {
          const res = await send(api, key, method, `${v1}/subscriptions/${id}${suffix}`, body);
          expectRejected(res, 400, '/path/subscription_id');
        }
      },
    );
  });

  describe('other subscription operations', () => {
    it.each([
      ['a negative overlap', '/body/expire_previous_in_seconds', { expire_previous_in_seconds: -1 }],
      ['an overlap over 7 days', '/body/expire_previous_in_seconds', { expire_previous_in_seconds: 604_801 }],
      ['an overlap as a string', '/body/expire_previous_in_seconds', { expire_previous_in_seconds: '3600' }],
      ['a fractional overlap', '/body/expire_previous_in_seconds', { expire_previous_in_seconds: 1.5 }],
      ['an unknown property', '/body/secret', { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }],
    ])('rotate-secret rejects %s naming %s, keeping the secrets', async (_name, path, body) => {
      const before = await storedSub(subId);
      expectRejected(await send(api, key, 'POST', `${v1}/subscriptions/${subId}/rotate-secret`, body), 400, path);
      expect(await storedSub(subId)).toEqual(before);
    });

    it.each([
      ['a missing since', '/body/since', {}],
      ['since not a date-time', '/body/since', { since: 'yesterday' }],
      ['since as a date only', '/body/since', { since: '2025-01-15' }],
      ['since as a number', '/body/since', { since: 1736929800 }],
      ['an unknown property', '/body/until', { since: '2025-01-15T08:00:00Z', until: '2025-01-16T08:00:00Z' }],
    ])('recover rejects %s naming %s', async (_name, path, body) => {
      expectRejected(await send(api, key, 'POST', `${v1}/subscriptions/${subId}/recover`, body), 400, path);
    });

    it.each([
      ['a malformed subscription_id', 'evt_AAAAAAAAAAAAAAAAAAAAAA', { subscription_id: 'nope' }, '/body/subscription_id'],
      ['an unknown property', 'evt_AAAAAAAAAAAAAAAAAAAAAA', { subscription_ids: [] }, '/body/subscription_ids'],
      ['a malformed event id', 'sub_AAAAAAAAAAAAAAAAAAAAAA', {}, '/path/event_id'],
    ])('redeliver rejects %s (event %s)', async (_name, eventId, body, path) => {
      expectRejected(await send(api, key, 'POST', `${v1}/events/${eventId}/redeliver`, body), 400, path);
    });

    it.each([
      ['limit=0', '/query/limit'],
      ['limit=101', '/query/limit'],
      ['limit=-1', '/query/limit'],
      ['limit=1.5', '/query/limit'],
      ['limit=ten', '/query/limit'],
      ['cursor=', '/query/cursor'],
      [`cursor=${'a'.repeat(201)}`, '/query/cursor'],
      ['cursor=not-one-we-issued', '/query/cursor'],
      [`cursor=${Buffer.from(JSON.stringify({ after: { $gt: '' } })).toString('base64url')}`, '/query/cursor'],
      ['colour=blue', '/query/colour'],
    ])('lists reject %s naming %s', async (query, path) => {
      expectRejected(await send(api, key, 'GET', `${v1}/subscriptions?${query}`), 400, path);
      expectRejected(await send(api, key, 'GET', `${v1}/subscriptions/${subId}/attempts?${query}`), 400, path);
      expectRejected(await send(api, admin, 'GET', `${v1}/alerts?${query}`), 400, path);
    });

    it('test events to a paused subscription are a 409 problem (declared in the contract), storing no event', async () => {
      const events = () => api.mongo.db.collection('events').countDocuments();
      const created = await send(api, key, 'POST', `${v1}/subscribe`, { url: hook, events: ['order.created'] });
      const id = (created.body as unknown as { id: string }).id;
      expect((await send(api, key, 'PATCH', `${v1}/subscriptions/${id}`, { status: 'paused' })).status).toBe(200);
      const before = await events();
      const res = await send(api, key, 'POST', `${v1}/subscriptions/${id}/test`);
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.type).toContain('application/problem+json');
      expect(res.body).toMatchObject({ status: 409, title: 'Subscription Not Active' });
      expect(res.body.detail).toContain('paused');
      expect(await events()).toBe(before);
    });

    it('attempts rejects a malformed event_id filter', async () => {
      expectRejected(await send(api, key, 'GET', `${v1}/subscriptions/${subId}/attempts?event_id=sub_x`), 400, '/query/event_id');
    });
  });

  describe('body size limit and content type', () => {
    it('answers 413 for a body over REQUEST_BODY_LIMIT (64kb by default), writing nothing', async () => {
      expect(api.deps.bodyLimit).toBe('64kb');
      const before = await countSubs();
      const big = JSON.stringify({ url: hook, events: ['order.created'], description: 'x'.repeat(64 * 1024) });
      const res = await send(api, key, 'POST', `${v1}/subscribe`, big);
      expectRejected(res, 413, '/body');
      expect(res.body.detail).toContain(String(64 * 1024));
      expect(await countSubs()).toBe(before);
    });

    it('lets a body just under the limit through to validation (400 for the long description, not 413)', async () => {
      const body = JSON.stringify({ url: hook, events: ['order.created'], description: 'x'.repeat(60 * 1024) });
      expectRejected(await send(api, key, 'POST', `${v1}/subscribe`, body), 400, '/body/description');
    });

    it('answers 413 on every operation with a body: PATCH, rotate-secret, orders', async () => {
      const big = JSON.stringify({ description: 'x'.repeat(70 * 1024) });
      const before = { subs: await countSubs(), sub: await storedSub(subId), orders: await api.mongo.db.collection('orders').countDocuments() };
      expectRejected(await send(api, key, 'PATCH', `${v1}/subscriptions/${subId}`, big), 413, '/body');
      expectRejected(await send(api, key, 'POST', `${v1}/subscriptions/${subId}/rotate-secret`, big), 413, '/body');
      expectRejected(await send(api, key, 'POST', '/api/orders/', big), 413, '/body');
      expect({ subs: await countSubs(), sub: await storedSub(subId), orders: await api.mongo.db.collection('orders').countDocuments() }).toEqual(
        before,
      );
    });

    it.each([
      ['text/plain', JSON.stringify({ url: hook, events: ['order.created'] })],
      ['application/x-www-form-urlencoded', 'url=http%3A%2F%2F127.0.0.1%3A9%2F&events=order.created'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="url"\r\n\r\nhttp://127.0.0.1:9/\r\n--x--\r\n'],
      ['application/xml', '<subscription><url>http://127.0.0.1:9/</url></subscription>'],
    ])('answers 415 for Content-Type %s, naming the header, writing nothing', async (type, body) => {
      const before = await countSubs();
      const res = await send(api, key, 'POST', `${v1}/subscribe`, body, { 'Content-Type': type });
      expectRejected(res, 415, '/headers/content-type');
      expect(res.body.detail).toContain(type.split(';')[0]);
      expect(await countSubs()).toBe(before);
    });

    it('answers 415 for a JSON body in a charset other than UTF-8, or in an unknown Content-Encoding', async () => {
      const before = await countSubs();
      const body = JSON.stringify({ url: hook, events: ['order.created'] });
      const latin1 = await send(api, key, 'POST', `${v1}/subscribe`, body, { 'Content-Type': 'application/json; charset=iso-8859-1' });
      expectRejected(latin1, 415, '/headers/content-type');
      const compressed = await send(api, key, 'POST', `${v1}/subscribe`, body, { 'Content-Encoding': 'compress' });
      expectRejected(compressed, 415, '/headers/content-encoding');
      expect(await countSubs()).toBe(before);
    });

    it('answers 415 for a JSON body sent without any Content-Type', async () => {
      const before = await countSubs();
      const res = await fetch(`${api.baseUrl}${v1}/subscribe`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}` },
        body: new Blob([JSON.stringify({ url: hook, events: ['order.created'] })]),
      });
      expect(res.status).toBe(415);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(((await res.json()) as Problem).errors?.map((e) => e.path)).toContain('/headers/content-type');
      expect(await countSubs()).toBe(before);
    });

    it('answers 415 on orders too, writing nothing', async () => {
      const orders = api.mongo.db.collection('orders');
      const before = await orders.countDocuments();
      const res = await send(api, key, 'POST', '/api/orders/', JSON.stringify({ user_id: 1, items: [{ product_id: 1, quantity: 1 }] }), {
        'Content-Type': 'text/plain',
      });
      expectRejected(res, 415, '/headers/content-type');
      expect(await orders.countDocuments()).toBe(before);
    });
  });

  describe('orders: what orders.test.ts does not cover', () => {
    const snapshot = async () => ({
      orders: await api.mongo.db.collection('orders').countDocuments(),
      seq: (await api.mongo.db.collection<CounterDoc>('counters').findOne({ _id: 'orders' }))?.seq,
    });

    it.each([
      ['user_id as a string', '/body/user_id', { user_id: '1', items: [{ product_id: 1, quantity: 1 }] }],
      ['user_id 0', '/body/user_id', { user_id: 0, items: [{ product_id: 1, quantity: 1 }] }],
      ['user_id as null', '/body/user_id', { user_id: null, items: [{ product_id: 1, quantity: 1 }] }],
      ['items as an object', '/body/items', { user_id: 1, items: { product_id: 1, quantity: 1 } }],
      ['an item as a number', '/body/items/0', { user_id: 1, items: [3] }],
      ['product_id 0', '/body/items/0/product_id', { user_id: 1, items: [{ product_id: 0, quantity: 1 }] }],
      ['a missing product_id', '/body/items/0/product_id', { user_id: 1, items: [{ quantity: 1 }] }],
      ['101 lines', '/body/items', { user_id: 1, items: Array.from({ length: 101 }, () => ({ product_id: 1, quantity: 1 })) }],
      ['a JSON array body', '/body', [{ user_id: 1, items: [{ product_id: 1, quantity: 1 }] }]],
      ['status (set by the service)', '/body/status', { user_id: 1, items: [{ product_id: 1, quantity: 1 }], status: 'paid' }],
    ])('rejects %s naming %s, writing nothing', async (_name, path, body) => {
      const before = await snapshot();
      expectRejected(await send(api, key, 'POST', '/api/orders/', body), 400, path);
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      ['a missing status', '/body/status', {}],
      ['status as a number', '/body/status', { status: 1 }],
      ['status in the wrong case', '/body/status', { status: 'PAID' }],
      ['total (not changeable)', '/body/total', { status: 'paid', total: 0 }],
    ])('PATCH rejects %s naming %s, changing nothing', async (_name, path, body) => {
      const before = await api.mongo.db.collection('orders').findOne({ _id: '1' as never });
      expectRejected(await send(api, key, 'PATCH', '/api/orders/1', body), 400, path);
      expect(await api.mongo.db.collection('orders').findOne({ _id: '1' as never })).toEqual(before);
    });
  });

  describe('resource queries: what resources.test.ts does not cover', () => {
    it.each([
      ['fields=price', '/query/fields'],
      ['fields=ID', '/query/fields'],
      ['fields=id%3Btotal', '/query/fields'],
      ['fields=id,,total', '/query/fields'],
      ['fields=%20id', '/query/fields'],
      [`fields=${Array.from({ length: 30 }, () => 'id').join(',')}`, '/query/fields'], // over maxLength 64
      ['fields=id&fields=total', '/query/fields'],
      ['limit=0', '/query/limit'],
      ['limit=101', '/query/limit'],
    ])('GET /api/users/1/orders rejects %s naming %s', async (query, path) => {
      expectRejected(await send(api, key, 'GET', `/api/users/1/orders?${query}`), 400, path);
    });

    it.each([
      ['filter=category%3D%3Dbooks', '/query/filter'],
      ['filter=category%3Dbooks%26sku%3DBK-001', '/query/filter'],
      ['filter=category%3Dbooks%2Csku%3DBK-001', '/query/filter'],
      [`filter=sku%3D${'A'.repeat(65)}`, '/query/filter'],
      ['filter=%3Dbooks', '/query/filter'],
      ['filter=Category%3Dbooks', '/query/filter'],
      ['filter=category%3D%7B%22%24ne%22%3Anull%7D', '/query/filter'],
      ['filter=category%3Dbooks&filter=sku%3DBK-001', '/query/filter'],
      ['filter[category]=books', '/query/filter'],
    ])('GET /api/catalog/products rejects %s naming %s', async (query, path) => {
      expectRejected(await send(api, key, 'GET', `/api/catalog/products?${query}`), 400, path);
    });

    it('rejects unknown query parameters on operations that take none', async () => {
      expectRejected(await send(api, key, 'GET', '/api/inventory/stock?limit=5'), 400, '/query/limit');
      expectRejected(await send(api, key, 'GET', `${v1}/event-types?lang=en`), 400, '/query/lang');
      expectRejected(await send(api, key, 'GET', '/api/users/1?expand=orders'), 400, '/query/expand');
    });
  });
});
