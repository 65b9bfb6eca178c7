import { describe, expectTypeOf, it } from 'vitest';
import type { components } from '../../../src/client';
import { cannedClient } from '../../support/canned-client';

// Type-level tests, run by vitest's typecheck (and tsc): nothing here is executed.

type Order = components['schemas']['Order'];
type OrderSummary = components['schemas']['OrderSummary'];

const { client } = cannedClient(null);

describe('typed client: resource operations', () => {
  it('types the order responses from the contract', async () => {
    const created = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 3, quantity: 2 }] } });
    expectTypeOf(created.data).toEqualTypeOf<Order | undefined>();
    const summaries = await client.GET('/api/users/{user_id}/orders', { params: { path: { user_id: 1 }, query: { fields: 'id,total' } } });
    expectTypeOf(summaries.data!.data).toEqualTypeOf<OrderSummary[]>();
  });

  it('rejects bodies and parameters that do not match the contract', async () => {
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
  });
});
