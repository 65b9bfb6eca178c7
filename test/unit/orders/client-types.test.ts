import { cannedClient } from '../../support/canned-client';
import { describe, expect, it } from 'vitest';
import type { components } from '../../../src/client';

// The type-level assertions are in client-types.test-d.ts (vitest typecheck); these run.

type Order = components['schemas']['Order'];

const cannedOrder: Order = {
  id: 9,
  user_id: 1,
  status: 'pending',
  items: [{ product_id: 3, quantity: 2, unit_price: 12.99 }],
  total: 25.98,
  currency: 'EUR',
  date: '2025-06-01T12:00:00.000Z',
  updated_at: '2025-06-01T12:00:00.000Z',
};

describe('typed client: resource operations', () => {
  it('sends the order requests and returns their responses', async () => {
    const { client, sent } = cannedClient(cannedOrder, 201);
    const created = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 3, quantity: 2 }] } });
    expect(created.data).toEqual(cannedOrder);
    expect(sent[0]!.url).toBe('http://service.test/api/orders/');
    expect(sent[0]!.headers.get('authorization')).toBe('Bearer whk_test');

    await client.GET('/api/users/{user_id}/orders', { params: { path: { user_id: 1 }, query: { fields: 'id,total' } } });
    expect(sent[1]!.url).toBe('http://service.test/api/users/1/orders?fields=id%2Ctotal');
  });

  it('does not validate at runtime: bodies and parameters the contract rejects (a type error, see the .test-d.ts) still go out', async () => {
    const { client, sent } = cannedClient(cannedOrder, 201);
    await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 3, quantity: '2' }] } as never });
    await client.POST('/api/orders/', { body: { items: [{ product_id: 3, quantity: 2 }] } as never });
    await client.PATCH('/api/orders/{order_id}', { params: { path: { order_id: 9 } }, body: { status: 'refunded' } as never });
    await client.GET('/api/users/{user_id}', { params: { path: { user_id: 'abc' as never } } });

    expect(sent.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'POST /api/orders/',
      'POST /api/orders/',
      'PATCH /api/orders/9',
      'GET /api/users/abc',
    ]);
  });
});
