import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { components } from '../../../generated/api';
import type { WebhookServiceClient } from '../../../src/client';
import { ADMIN_OWNER } from '../../../src/auth/api-keys';
import { demoOrders, demoProducts, demoStock, demoUsers } from '../../../src/seed/demo-data';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, type TestApi } from '../../support/api';

type User = components['schemas']['User'];
type Product = components['schemas']['Product'];
type OrderSummary = components['schemas']['OrderSummary'];
type StockLevel = components['schemas']['StockLevel'];
type Problem = components['schemas']['Problem'];

describe('resources API: users, their orders, catalog, stock', () => {
  let api: TestApi;
  let client: WebhookServiceClient;
  let key: string;
  beforeAll(async () => {
    api = await startTestApi();
    expect(await seedDemoData(api.mongo.db)).toBe(true);
    // The demo orders belong to the operator's owner: a read-only key of that owner sees them.
    ({ client, key } = await api.clientWith(['resources:read'], ADMIN_OWNER));
  });
  afterAll(async () => {
    await api.close();
  });

  /** A raw GET, for requests the typed client cannot express. */
  async function rawGet(path: string, withKey = true): Promise<{ status: number; type: string | null; body: Problem }> {
    const res = await fetch(`${api.baseUrl}${path}`, { headers: withKey ? { Authorization: `Bearer ${key}` } : {} });
    return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Problem };
  }

  it('seeds only an empty database', async () => {
    expect(await seedDemoData(api.mongo.db)).toBe(false);
    expect(await api.mongo.db.collection('users').countDocuments()).toBe(demoUsers.length);
    expect(await api.mongo.db.collection('orders').countDocuments()).toBe(demoOrders.length);
  });

  describe('GET /api/users/{user_id}', () => {
    it('returns the user', async () => {
      const res = await client.GET('/api/users/{user_id}', { params: { path: { user_id: 1 } } });
      expect(res.response.status).toBe(200);
      expectTypeOf(res.data!).toEqualTypeOf<User>();
      expect(res.data).toEqual({ id: 1, name: 'Ada Lovelace', email: 'ada@example.com', created_at: '2024-11-04T09:12:00.000Z' });
    });

    it('gives a 404 problem for an unknown user', async () => {
      const res = await client.GET('/api/users/{user_id}', { params: { path: { user_id: 999 } } });
      expect(res.response.status).toBe(404);
      expect(res.response.headers.get('content-type')).toContain('application/problem+json');
      expect(res.error).toMatchObject({ status: 404, title: 'Not Found', detail: 'No user 999' });
    });

    it.each(['abc', '0', '-1', '1.5'])('rejects user_id=%s with 400 naming the path parameter', async (id) => {
      const res = await rawGet(`/api/users/${id}`);
      expect(res.status).toBe(400);
      expect(res.type).toContain('application/problem+json');
      expect(res.body.errors?.map((e) => e.path)).toEqual([expect.stringContaining('user_id')]);
    });
  });

  describe('GET /api/users/{user_id}/orders', () => {
    const ordersOf = (userId: number) =>
      demoOrders
        .filter((o) => o.user_id === userId)
        .sort((a, b) => b.date.getTime() - a.date.getTime() || b.id - a.id);

    it('lists the user’s orders newest first (date, then id) with id, total and date', async () => {
      const res = await client.GET('/api/users/{user_id}/orders', { params: { path: { user_id: 1 } } });
      expect(res.response.status).toBe(200);
      expectTypeOf(res.data!.data).toEqualTypeOf<OrderSummary[]>();
      const expected = ordersOf(1).map((o) => ({ id: o.id, total: o.total, date: o.date.toISOString() }));
      expect(res.data!.data).toEqual(expected);
      // Orders 3 and 4 share a creation time: the higher id comes first.
      expect(res.data!.data.map((o) => o.id)).toEqual([4, 3, 2, 1]);
    });

    it.each([
      ['id', ['id']],
      ['total', ['total']],
      ['date', ['date']],
      ['id,total', ['id', 'total']],
      ['id,date', ['date', 'id']],
      ['total,date', ['date', 'total']],
      ['date,total,id', ['date', 'id', 'total']],
      ['id,id,total', ['id', 'total']],
    ])('fields=%s carries exactly %j', async (fields, keys) => {
      const res = await client.GET('/api/users/{user_id}/orders', { params: { path: { user_id: 1 }, query: { fields } } });
      expect(res.response.status).toBe(200);
      expect(res.data!.data).toHaveLength(4);
      for (const item of res.data!.data) expect(Object.keys(item).sort()).toEqual(keys);
      const expected = ordersOf(1).map((o) => ({ id: o.id, total: o.total, date: o.date.toISOString() }));
      expect(res.data!.data).toEqual(expected.map((o) => Object.fromEntries(keys.map((k) => [k, o[k as keyof typeof o]]))));
    });

    it('honours limit', async () => {
      const res = await client.GET('/api/users/{user_id}/orders', { params: { path: { user_id: 1 }, query: { limit: 2, fields: 'id' } } });
      expect(res.data!.data).toEqual([{ id: 4 }, { id: 3 }]);
    });

    it("lists only the caller's owner's orders: another owner sees none of the user's, an admin key all", async () => {
      const { client: stranger } = await api.clientWith(['resources:read'], 'globex');
      const theirs = await stranger.GET('/api/users/{user_id}/orders', { params: { path: { user_id: 1 } } });
      expect(theirs.response.status).toBe(200);
      expect(theirs.data).toEqual({ data: [] });
      const { client: admin } = await api.clientWith(['admin'], 'ops');
      const all = await admin.GET('/api/users/{user_id}/orders', { params: { path: { user_id: 1 }, query: { fields: 'id' } } });
      expect(all.data!.data).toEqual([{ id: 4 }, { id: 3 }, { id: 2 }, { id: 1 }]);
    });

    it('gives an empty list for a user without orders', async () => {
      const res = await client.GET('/api/users/{user_id}/orders', { params: { path: { user_id: 5 } } });
      expect(res.response.status).toBe(200);
      expect(res.data).toEqual({ data: [] });
    });

    it('gives 404 for an unknown user', async () => {
      const res = await client.GET('/api/users/{user_id}/orders', { params: { path: { user_id: 999 } } });
      expect(res.response.status).toBe(404);
      expect(res.error).toMatchObject({ status: 404, detail: 'No user 999' });
    });

    it.each([
      ['limit=0', '/query/limit'],
      ['limit=101', '/query/limit'],
      ['limit=abc', '/query/limit'],
      ['fields=id,bogus', '/query/fields'],
      ['fields=', '/query/fields'],
      ['fields=id,', '/query/fields'],
    ])('rejects %s with 400 naming %s', async (query, path) => {
      const res = await rawGet(`/api/users/1/orders?${query}`);
      expect(res.status).toBe(400);
      expect(res.type).toContain('application/problem+json');
      expect(res.body.errors?.map((e) => e.path)).toContain(path);
    });

    it('accepts limit=100 (the contract maximum)', async () => {
      const res = await client.GET('/api/users/{user_id}/orders', { params: { path: { user_id: 2 }, query: { limit: 100 } } });
      expect(res.data!.data.map((o) => o.id)).toEqual([6, 5]);
    });
  });

  describe('GET /api/catalog/products', () => {
    const asProduct = (p: (typeof demoProducts)[number]): Product => ({
      id: p._id,
      sku: p.sku,
      name: p.name,
      category: p.category,
      price: p.price,
      currency: p.currency,
    });

    it('lists products in id order, 20 by default', async () => {
      const res = await client.GET('/api/catalog/products');
      expect(res.response.status).toBe(200);
      expectTypeOf(res.data!.data).toEqualTypeOf<Product[]>();
      expect(res.data!.data).toEqual(demoProducts.map(asProduct));
    });

    it('honours limit', async () => {
      const res = await client.GET('/api/catalog/products', { params: { query: { limit: 3 } } });
      expect(res.data!.data.map((p) => p.id)).toEqual([1, 2, 3]);
    });

    it('filters by category', async () => {
      const res = await client.GET('/api/catalog/products', { params: { query: { filter: 'category=garden' } } });
      expect(res.data!.data).toEqual(demoProducts.filter((p) => p.category === 'garden').map(asProduct));
      expect(res.data!.data).toHaveLength(4);
    });

    it('filters by category with a limit', async () => {
      const res = await client.GET('/api/catalog/products', { params: { query: { filter: 'category=electronics', limit: 2 } } });
      expect(res.data!.data.map((p) => p.sku)).toEqual(['EL-001', 'EL-002']);
    });

    it('filters by sku', async () => {
      const res = await client.GET('/api/catalog/products', { params: { query: { filter: 'sku=BK-003' } } });
      expect(res.data!.data).toEqual([asProduct(demoProducts[2]!)]);
    });

    it('accepts the unencoded form filter=category=books', async () => {
      const res = await rawGet('/api/catalog/products?filter=category=books');
      expect(res.status).toBe(200);
      expect((res.body as unknown as { data: Product[] }).data.map((p) => p.category)).toEqual(['books', 'books', 'books', 'books']);
    });

    it('rejects the unencoded form filter=color=red with 400', async () => {
      const res = await rawGet('/api/catalog/products?filter=color=red');
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ path: '/query/filter', message: expect.stringContaining('pattern') as unknown }]);
    });

    it('gives an empty list when the filter matches nothing', async () => {
      const res = await client.GET('/api/catalog/products', { params: { query: { filter: 'category=toys' } } });
      expect(res.response.status).toBe(200);
      expect(res.data).toEqual({ data: [] });
      const sku = await client.GET('/api/catalog/products', { params: { query: { filter: 'sku=NOPE-1' } } });
      expect(sku.data).toEqual({ data: [] });
    });

    it.each([
      'filter=color%3Dred',
      'filter=category',
      'filter=category%3D',
      'filter=category%3Dbo%20oks',
      'filter=name%3DBook',
      'limit=0',
      'limit=101',
    ])('rejects %s with 400 problem+json', async (query) => {
      const res = await rawGet(`/api/catalog/products?${query}`);
      expect(res.status).toBe(400);
      expect(res.type).toContain('application/problem+json');
      expect(res.body.errors?.map((e) => e.path)).toEqual([`/query/${query.split('=')[0]}`]);
    });
  });

  describe('GET /api/inventory/stock', () => {
    it('lists every product’s stock level in product id order', async () => {
      const res = await client.GET('/api/inventory/stock');
      expect(res.response.status).toBe(200);
      expectTypeOf(res.data!.data).toEqualTypeOf<StockLevel[]>();
      expect(res.data!.data).toEqual(
        demoStock.map((s) => ({ product_id: s.product_id, sku: s.sku, quantity: s.quantity, low_stock_threshold: 5, updated_at: s.updated_at.toISOString() })),
      );
      expect(res.data!.data).toHaveLength(demoProducts.length);
    });
  });

  describe('scopes', () => {
    it('needs a key: 401 without one', async () => {
      for (const path of ['/api/users/1', '/api/users/1/orders', '/api/catalog/products', '/api/inventory/stock', '/api/orders/1']) {
        const res = await rawGet(path, false);
        expect(res.status, path).toBe(401);
        expect(res.type).toContain('application/problem+json');
      }
    });

    it('needs resources:read: 403 with another scope, 200 with admin', async () => {
      const { client: writer } = await api.clientWith(['webhooks:read', 'orders:write']);
      const denied = await writer.GET('/api/users/{user_id}', { params: { path: { user_id: 1 } } });
      expect(denied.response.status).toBe(403);
      expect(denied.error).toMatchObject({ status: 403, title: 'Forbidden' });
      const { client: admin } = await api.clientWith(['admin']);
      const allowed = await admin.GET('/api/inventory/stock');
      expect(allowed.response.status).toBe(200);
    });
  });
});
