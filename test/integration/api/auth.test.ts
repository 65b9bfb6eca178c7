import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import { generateApiKey, hashApiKey } from '../../../src/auth/api-keys';
import { createClient } from '../../../src/client';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { startTestApi, type TestApi } from '../../support/api';

type Problem = components['schemas']['Problem'];

const hook = 'http://127.0.0.1:9/hooks';
const v1 = '/api/webhooks/v1';

interface RawResponse {
  status: number;
  type: string | null;
  challenge: string | null;
  body: unknown;
}

describe('authentication and authorization', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  /** A raw request with exactly the Authorization header given (none when undefined). */
  async function call(method: string, path: string, authorization?: string, body?: unknown): Promise<RawResponse> {
    const res = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: {
        ...(authorization !== undefined ? { Authorization: authorization } : {}),
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    const type = res.headers.get('content-type');
    return {
      status: res.status,
      type,
      challenge: res.headers.get('www-authenticate'),
      body: type?.includes('json') ? (JSON.parse(text) as unknown) : text,
    };
  }

  const countSubs = () => api.mongo.db.collection('subscriptions').countDocuments();

  function expectUnauthorized(res: RawResponse): void {
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(res.type).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 401, title: 'Unauthorized' });
    expect((res.body as Problem).errors?.map((e) => e.path)).toEqual(['/headers/authorization']);
    expect(res.challenge).toMatch(/^Bearer\b/);
  }

  describe('401: no, malformed, wrong, unknown or revoked key', () => {
    it('answers 401 with a Bearer challenge when no key is sent', async () => {
      const res = await call('GET', `${v1}/subscriptions`);
      expectUnauthorized(res);
      expect(res.challenge).toBe('Bearer realm="webhook-service"');
      expect((res.body as Problem).detail).toMatch(/authorization/i);
    });

    it.each([
      ['an empty header', ''],
      ['another scheme', 'Basic d2hrOnNlY3JldA=='],
      ['a token without scheme', generateApiKey()],
      ['the scheme without a token', 'Bearer'],
      ['the scheme and a blank', 'Bearer '],
      ['two tokens', 'Bearer whk_a whk_b'],
      ['a token scheme', `Token ${generateApiKey()}`],
      ['a non-ASCII token', 'Bearer whk_cl\u00e9'],
    ])('answers 401 for a malformed Authorization header: %s', async (_name, header) => {
      expectUnauthorized(await call('GET', `${v1}/subscriptions`, header));
    });

    it('answers 401 invalid_token for a wrong or unknown key', async () => {
      const { key } = await api.clientWith(['webhooks:read']);
      for (const presented of [`${key}x`, key.slice(0, -1), key.toUpperCase(), generateApiKey(), 'whk_' + 'A'.repeat(32)]) {
        const res = await call('GET', `${v1}/subscriptions`, `Bearer ${presented}`);
        expectUnauthorized(res);
        expect(res.challenge).toContain('error="invalid_token"');
        expect((res.body as Problem).detail).toBe('API key is not valid');
      }
      // The scheme name is case-insensitive (RFC 9110 §11.1): the same key works as "bearer".
      expect((await call('GET', `${v1}/subscriptions`, `bearer ${key}`)).status).toBe(200);
    });

    it('answers 401 at once for a key this process revoked that worked before', async () => {
      const { key, principal } = await api.clientWith(['webhooks:read']);
      expect((await call('GET', `${v1}/subscriptions`, `Bearer ${key}`)).status).toBe(200);
      // Another process's revoke holds within KEY_STATUS_CACHE_TTL_MS: test/integration/security/revoke-key-cli.test.ts.
      expect(await api.deps.apiKeys.revoke(principal.keyId)).toBe(true);
      const res = await call('GET', `${v1}/subscriptions`, `Bearer ${key}`);
      expectUnauthorized(res);
      expect(res.challenge).toContain('error="invalid_token"');
    });

    it('checks the key before the body: 401, not 400, and nothing written', async () => {
      const before = await countSubs();
      expectUnauthorized(await call('POST', `${v1}/subscribe`, undefined, { url: 'ftp://nope', events: [] }));
      expectUnauthorized(await call('POST', `${v1}/subscribe`, `Bearer ${generateApiKey()}`, { url: hook, events: ['order.created'] }));
      expectUnauthorized(await call('POST', '/api/orders/', undefined, { user_id: 1, items: [{ product_id: 1, quantity: 1 }] }));
      expect(await countSubs()).toBe(before);
      expect(await api.mongo.db.collection('orders').countDocuments()).toBe(0);
    });

    it('needs a key on every protected operation', async () => {
      const sub = 'sub_AAAAAAAAAAAAAAAAAAAAAA';
      const protectedOps: Array<[string, string, unknown?]> = [
        ['POST', '/api/webhooks/subscribe', { url: hook, events: ['order.created'] }],
        ['POST', `${v1}/subscribe`, { url: hook, events: ['order.created'] }],
        ['POST', '/api/webhooks/v2/subscribe', { url: hook, events: ['order.created'] }],
        ['GET', `${v1}/subscriptions`],
        ['GET', `${v1}/subscriptions/${sub}`],
        ['PATCH', `${v1}/subscriptions/${sub}`, { status: 'paused' }],
        ['DELETE', `${v1}/subscriptions/${sub}`],
        ['POST', `${v1}/subscriptions/${sub}/rotate-secret`, {}],
        ['POST', `${v1}/subscriptions/${sub}/test`],
        ['GET', `${v1}/subscriptions/${sub}/attempts`],
        ['POST', `${v1}/subscriptions/${sub}/recover`, { since: '2025-01-01T00:00:00Z' }],
        ['POST', `${v1}/events/evt_AAAAAAAAAAAAAAAAAAAAAA/redeliver`, {}],
        ['GET', `${v1}/event-types`],
        ['GET', `${v1}/alerts`],
        ['GET', '/api/users/1'],
        ['GET', '/api/users/1/orders'],
        ['GET', '/api/catalog/products'],
        ['POST', '/api/orders/', { user_id: 1, items: [{ product_id: 1, quantity: 1 }] }],
        ['GET', '/api/orders/1'],
        ['PATCH', '/api/orders/1', { status: 'paid' }],
        ['GET', '/api/inventory/stock'],
      ];
      for (const [method, path, body] of protectedOps) {
        const res = await call(method, path, undefined, body);
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.challenge, `${method} ${path}`).toMatch(/^Bearer\b/);
      }
    });
  });

  describe('403: a valid key without the scope', () => {
    it.each([
      ['GET', `${v1}/subscriptions`, undefined, ['webhooks:write', 'resources:read'], 'webhooks:read'],
      ['POST', `${v1}/subscribe`, { url: hook, events: ['order.created'] }, ['webhooks:read'], 'webhooks:write'],
      ['GET', '/api/catalog/products', undefined, ['webhooks:read'], 'resources:read'],
      ['POST', '/api/orders/', { user_id: 1, items: [{ product_id: 1, quantity: 1 }] }, ['resources:read'], 'orders:write'],
      ['GET', `${v1}/alerts`, undefined, ['webhooks:write', 'resources:read', 'orders:write'], 'webhooks:read'],
    ] as const)('%s %s with %j answers 403 naming %s', async (method, path, body, scopes, missing) => {
      const before = await countSubs();
      const { key } = await api.clientWith([...scopes]);
      const res = await call(method, path, `Bearer ${key}`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.type).toContain('application/problem+json');
      expect(res.body).toMatchObject({ status: 403, title: 'Forbidden' });
      expect((res.body as Problem).detail).toContain(missing);
      expect((res.body as Problem).errors).toEqual([{ path: '/headers/authorization', message: expect.stringContaining(missing) as unknown }]);
      expect(res.challenge).toBe(`Bearer realm="webhook-service", error="insufficient_scope", scope="${missing}"`);
      expect(await countSubs()).toBe(before);
    });

    it("alerts need webhooks:read: 403 without, 200 with (its owner's only) and for admin", async () => {
      const { client: writer } = await api.clientWith(['webhooks:write']);
      const denied = await writer.GET('/api/webhooks/v1/alerts');
      expect(denied.response.status).toBe(403);
      expect(denied.error).toMatchObject({ status: 403, detail: expect.stringContaining('webhooks:read') as unknown });
      const { client: reader } = await api.clientWith(['webhooks:read']);
      expect((await reader.GET('/api/webhooks/v1/alerts')).data).toEqual({ data: [] });
      const { client: admin } = await api.clientWith(['admin']);
      const allowed = await admin.GET('/api/webhooks/v1/alerts');
      expect(allowed.response.status).toBe(200);
      expect(allowed.data).toEqual({ data: [] });
    });

    it('an admin key satisfies every scope', async () => {
      const { key } = await api.clientWith(['admin'], 'owner-admin');
      const auth = `Bearer ${key}`;
      const created = await call('POST', `${v1}/subscribe`, auth, { url: hook, events: ['order.created'] });
      expect(created.status).toBe(201); // webhooks:write
      expect((await call('GET', `${v1}/subscriptions`, auth)).status).toBe(200); // webhooks:read
      expect((await call('GET', `${v1}/event-types`, auth)).status).toBe(200); // webhooks:read
      expect((await call('GET', '/api/catalog/products', auth)).status).toBe(200); // resources:read
      expect((await call('GET', '/api/users/1', auth)).status).toBe(404); // resources:read passed: no such user
      const order = await call('POST', '/api/orders/', auth, { user_id: 1, items: [{ product_id: 1, quantity: 1 }] });
      expect(order.status).toBe(422); // orders:write passed: the empty catalog refuses it
      expect((await call('GET', `${v1}/alerts`, auth)).status).toBe(200); // admin
    });
  });

  describe('ADMIN_API_KEY bootstrap', () => {
    it('makes the configured key an admin key, idempotently', async () => {
      const adminKey = `whk_bootstrap_${'x'.repeat(24)}`;
      const auth = `Bearer ${adminKey}`;
      expectUnauthorized(await call('GET', `${v1}/alerts`, auth));

      await api.deps.apiKeys.ensureBootstrapAdmin(adminKey);
      expect((await call('GET', `${v1}/alerts`, auth)).status).toBe(200);
      expect((await call('POST', `${v1}/subscribe`, auth, { url: hook, events: ['webhook.test'] })).status).toBe(201);

      // Every API process calls it at start: repeating it changes nothing.
      const keys = api.mongo.db.collection('api_keys');
      const stored = await keys.find({ hash: hashApiKey(adminKey) }).toArray();
      await api.deps.apiKeys.ensureBootstrapAdmin(adminKey);
      await Promise.all([api.deps.apiKeys.ensureBootstrapAdmin(adminKey), api.deps.apiKeys.ensureBootstrapAdmin(adminKey)]);
      expect(await keys.find({ hash: hashApiKey(adminKey) }).toArray()).toEqual(stored);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ owner_id: 'admin', scopes: ['admin'] });
      expect(stored[0]).not.toHaveProperty('key');
      expect(JSON.stringify(stored)).not.toContain(adminKey);
      expect((await call('GET', `${v1}/subscriptions`, auth)).status).toBe(200);
    });
  });

  describe("another owner's subscription is invisible", () => {
    it('answers 404 on GET, PATCH, DELETE, rotate-secret, test, attempts and recover, and changes nothing', async () => {
      const { client: owner } = await api.clientWith(['webhooks:read', 'webhooks:write', 'resources:read'], 'owner-a');
      const { key: otherKey } = await api.clientWith(['webhooks:read', 'webhooks:write', 'resources:read'], 'owner-b');
      const created = await owner.POST('/api/webhooks/v1/subscribe', { body: { url: hook, events: ['order.created'] } });
      const id = created.data!.id;
      const subs = api.mongo.db.collection<SubscriptionDoc>('subscriptions');
      const before = await subs.findOne({ _id: id });
      const events = () => api.mongo.db.collection('events').countDocuments();
      const eventsBefore = await events();

      const other = `Bearer ${otherKey}`;
      const attempts: Array<[string, string, unknown?]> = [
        ['GET', `${v1}/subscriptions/${id}`],
        ['PATCH', `${v1}/subscriptions/${id}`, { status: 'paused', url: 'http://127.0.0.1:9/stolen' }],
        ['DELETE', `${v1}/subscriptions/${id}`],
        ['POST', `${v1}/subscriptions/${id}/rotate-secret`, { expire_previous_in_seconds: 0 }],
        ['POST', `${v1}/subscriptions/${id}/test`],
        ['GET', `${v1}/subscriptions/${id}/attempts`],
        ['POST', `${v1}/subscriptions/${id}/recover`, { since: '2020-01-01T00:00:00Z' }],
      ];
      for (const [method, path, body] of attempts) {
        const res = await call(method, path, other, body);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.type).toContain('application/problem+json');
        // Exactly what a subscription that does not exist looks like.
        expect((res.body as Problem).detail).toBe(`No subscription ${id}`);
      }
      expect(await subs.findOne({ _id: id })).toEqual(before);
      expect(await events()).toBe(eventsBefore);

      const list = await call('GET', `${v1}/subscriptions`, other);
      expect((list.body as { data: Array<{ id: string }> }).data.map((s) => s.id)).not.toContain(id);

      // The owner still sees and controls it.
      const mine = await owner.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } } });
      expect(mine.response.status).toBe(200);
      expect(mine.data!.url).toBe(hook);
    });

    it("answers 404 when redelivering another owner's event", async () => {
      const { client: owner } = await api.clientWith(['webhooks:write', 'resources:read'], 'owner-c');
      const { key: otherKey } = await api.clientWith(['webhooks:write', 'resources:read'], 'owner-d');
      const created = await owner.POST('/api/webhooks/v1/subscribe', { body: { url: hook, events: ['order.created'] } });
      const sent = await owner.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', {
        params: { path: { subscription_id: created.data!.id } },
      });
      expect(sent.response.status).toBe(202);
      const eventId = sent.data!.event_id;
      const res = await call('POST', `${v1}/events/${eventId}/redeliver`, `Bearer ${otherKey}`, {});
      expect(res.status).toBe(404);
      const targeted = await call('POST', `${v1}/events/${eventId}/redeliver`, `Bearer ${otherKey}`, { subscription_id: created.data!.id });
      expect(targeted.status).toBe(404);
    });
  });

  describe('public endpoints need no key', () => {
    it.each(['/healthz', '/readyz', '/openapi.json', '/docs', '/docs/assets/redoc.standalone.js'])('%s answers 200 without a key', async (path) => {
      const res = await fetch(`${api.baseUrl}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('www-authenticate')).toBeNull();
      await res.arrayBuffer();
    });

    it.each(['/healthz', '/openapi.json', '/docs'])('%s ignores an invalid key', async (path) => {
      const res = await fetch(`${api.baseUrl}${path}`, { headers: { Authorization: 'Bearer nope' } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    });

    it('the typed client without a key reaches them too', async () => {
      const anon = createClient({ baseUrl: api.baseUrl });
      expect((await anon.GET('/healthz')).data).toEqual({ status: 'ok' });
      expect((await anon.GET('/readyz')).data).toMatchObject({ status: 'ready' });
      expect((await anon.GET('/api/webhooks/v1/subscriptions')).response.status).toBe(401);
    });
  });
});
