import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../../src/seed/seed';
import { createApiMetrics } from '../../../src/telemetry/metrics';
import { startTestApi, type TestApi } from '../../support/api';

// Two API instances over one database, as two API processes would run: one budget per key.
describe('rate limits per API key', () => {
  // 60 requests at once test the budget's count, not load shedding: no bound on requests in flight.
  const env = { RATE_LIMITS: 'default=3/1m,orders:write=2/1m,webhooks:read=20/1m', MONGODB_DB: `test_rl_${randomUUID().slice(0, 8)}`, API_MAX_IN_FLIGHT: '0' };
  let a: TestApi;
  let b: TestApi;

  beforeAll(async () => {
    a = await startTestApi(env, { metrics: createApiMetrics() });
    b = await startTestApi(env);
    await seedDemoData(a.mongo.db);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  const get = (api: TestApi, path: string, key?: string) =>
    fetch(`${api.baseUrl}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  const newKey = async (scopes: Parameters<TestApi['clientWith']>[0] = ['resources:read', 'orders:write']) => (await a.clientWith(scopes, 'owner-rl')).key;
  const order = (api: TestApi, key: string) =>
    fetch(`${api.baseUrl}/api/orders/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: 1, items: [{ product_id: 1, quantity: 1 }] }),
    });

  it('counts down in RateLimit, then answers 429 problem+json with Retry-After, naming the key', async () => {
    const key = await newKey();
    for (const left of [2, 1, 0]) {
      const res = await get(a, '/api/inventory/stock', key);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe('"default";q=3;w=60');
      expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${left};t=([1-9]|[1-5][0-9]|60)$`));
    }
    const refused = await get(a, '/api/inventory/stock', key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit')).toBe(`"default";r=0;t=${retryAfter}`);
    expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=3;w=60');
    expect(await refused.json()).toMatchObject({
      status: 429,
      title: 'Too Many Requests',
      detail: expect.stringContaining("'default' (3 requests per 60 s)") as unknown,
      errors: [{ path: '/headers/authorization' }],
    });
  });

  it('writes nothing for a request over the budget', async () => {
    const key = await newKey();
    expect((await order(a, key)).status).toBe(201);
    expect((await order(a, key)).status).toBe(201);
    const orders = await a.mongo.db.collection('orders').countDocuments();
    const refused = await order(a, key);
    expect(refused.status).toBe(429);
    expect(await a.mongo.db.collection('orders').countDocuments()).toBe(orders);
  });

  it('charges a scope with its own budget apart from default', async () => {
    const key = await newKey();
    const first = await order(a, key);
    expect(first.headers.get('ratelimit-policy')).toBe('"orders:write";q=2;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"orders:write";r=1;t=\d+$/);
    expect((await order(a, key)).status).toBe(201);
    expect((await order(a, key)).status).toBe(429);
    // The default budget of the same key is untouched by its orders.
    const read = await get(a, '/api/inventory/stock', key);
    expect(read.status).toBe(200);
    expect(read.headers.get('ratelimit')).toMatch(/^"default";r=2;t=\d+$/);
  });

  it('shares one budget between two API instances', async () => {
    const key = await newKey();
    expect((await get(a, '/api/inventory/stock', key)).headers.get('ratelimit')).toMatch(/;r=2;/);
    expect((await get(b, '/api/inventory/stock', key)).headers.get('ratelimit')).toMatch(/;r=1;/);
    expect((await get(a, '/api/inventory/stock', key)).status).toBe(200);
    expect((await get(b, '/api/inventory/stock', key)).status).toBe(429);
    expect((await get(a, '/api/inventory/stock', key)).status).toBe(429);
  });

  it("does not let one key's spending touch another key's budget", async () => {
    const spent = await newKey();
    const other = await newKey();
    for (let i = 0; i < 4; i++) await get(a, '/api/inventory/stock', spent);
    expect((await get(a, '/api/inventory/stock', spent)).status).toBe(429);
    const res = await get(a, '/api/inventory/stock', other);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit')).toMatch(/^"default";r=2;t=\d+$/);
  });

  // FerretDB v1 applies $inc as read-then-write: only charging one batch at a time per key keeps this exact.
  it('holds the budget exactly under 60 concurrent requests to one API instance', async () => {
    const key = await newKey(['webhooks:read']);
    const statuses = await Promise.all(Array.from({ length: 60 }, async () => (await get(a, '/api/webhooks/v1/subscriptions', key)).status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
  });

  it('never limits health, readiness, metrics, the document or the docs, even for a spent key', async () => {
    const key = await newKey();
    for (let i = 0; i < 4; i++) await get(a, '/api/inventory/stock', key);
    for (const path of ['/healthz', '/readyz', '/metrics', '/openapi.json', '/docs']) {
      for (let i = 0; i < 5; i++) {
        const res = await get(a, path, key);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('ratelimit'), path).toBeNull();
      }
    }
  });

  it('answers unauthenticated requests 401 as before, uncharged', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await get(a, '/api/inventory/stock', i % 2 ? undefined : 'whk_not_a_key_at_all_000000000000');
      expect(res.status).toBe(401);
      expect(res.headers.get('ratelimit')).toBeNull();
    }
  });

  it('charges a key refused for its scope (403) too', async () => {
    const key = await newKey(['webhooks:read']);
    const res = await get(a, '/api/inventory/stock', key);
    expect(res.status).toBe(403);
    expect(res.headers.get('ratelimit')).toMatch(/^"default";r=2;t=\d+$/);
  });
});

describe('rate limits switched off', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ RATE_LIMIT_ENABLED: 'false', RATE_LIMITS: 'default=1/1m' });
  });
  afterAll(async () => {
    await api.close();
  });

  it('lets every request through without RateLimit headers', async () => {
    const { key } = await api.clientWith(['resources:read']);
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${api.baseUrl}/api/inventory/stock`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit')).toBeNull();
      expect(res.headers.get('ratelimit-policy')).toBeNull();
    }
  });
});
