import { cannedClient } from '../../support/canned-client';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { components } from '../../../src/client';

type Order = components['schemas']['Order'];
type OrderSummary = components['schemas']['OrderSummary'];

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
  it('types the order responses from the contract', async () => {
    const { client, sent } = cannedClient(cannedOrder, 201);
    const created = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 3, quantity: 2 }] } });
    expectTypeOf(created.data).toEqualTypeOf<Order | undefined>();
    expect(created.data).toEqual(cannedOrder);
    expect(sent[0]!.url).toBe('http://service.test/api/orders/');
    expect(sent[0]!.headers.get('authorization')).toBe('Bearer whk_test');

    const summaries = await client.GET('/api/users/{user_id}/orders', { params: { path: { user_id: 1 }, query: { fields: 'id,total' } } });
    expectTypeOf(summaries.data!.data).toEqualTypeOf<OrderSummary[]>();
    expect(sent[1]!.url).toBe('http://service.test/api/users/1/orders?fields=id%2Ctotal');
  });

  it('rejects bodies and parameters that do not match the contract at compile time', async () => {
    const { client, sent } = cannedClient(cannedOrder, 201);
    const stringQuantity = { user_id: 1, items: [{ product_id: 3, quantity: '2' }] };
    const missingUser = { items: [{ product_id: 3, quantity: 2 }] };
    const unknownStatus = { status: 'refunded' };

    // @ts-expect-error quantity must be a number, not a string
    await client.POST('/api/orders/', { body: stringQuantity });
    // @ts-expect-error user_id is required
    await client.POST('/api/orders/', { body: missingUser });
    // @ts-expect-error status must be one of the contract's OrderStatus values
    await client.PATCH('/api/orders/{order_id}', { params: { path: { order_id: 9 } }, body: unknownStatus });
    // @ts-expect-error user_id in the path is a number
    await client.GET('/api/users/{user_id}', { params: { path: { user_id: 'abc' } } });

    // The calls still ran (the types, not the runtime, reject them).
    expect(sent.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'POST /api/orders/',
      'POST /api/orders/',
      'PATCH /api/orders/9',
      'GET /api/users/abc',
    ]);
  });
});
