import type { Request } from 'express';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { components } from '../../../generated/api';
import type { BodyOf, OrderCreate, PathOf, QueryOf, RotatedSecret, SubscriptionCreate } from '../../../src/contract/types';
import { validated } from '../../../src/http/validated';

type Schemas = components['schemas'];

/** What Express hands a route: every parameter a string, the parsed JSON body as is. */
function request(parts: { params?: Record<string, string>; query?: Record<string, string | string[]>; body?: unknown }): Request {
  return { params: parts.params ?? {}, query: parts.query ?? {}, body: parts.body } as unknown as Request;
}

describe('validated(): a request read by its contract operation', () => {
  it('types path, query and body from the generated operations', () => {
    expectTypeOf<PathOf<'getOrder'>>().toEqualTypeOf<{ order_id: number }>();
    expectTypeOf<QueryOf<'listUserOrders'>>().toEqualTypeOf<{ limit?: number; fields?: string }>();
    expectTypeOf<BodyOf<'createOrder'>>().toEqualTypeOf<OrderCreate>();
    expectTypeOf<BodyOf<'createSubscriptionV2'>>().toEqualTypeOf<SubscriptionCreate>();
    // An optional request body may be absent.
    expectTypeOf<BodyOf<'rotateSubscriptionSecret'>>().toEqualTypeOf<Schemas['SecretRotation'] | undefined>();
    expectTypeOf<BodyOf<'getOrder'>>().toEqualTypeOf<undefined>();
    expectTypeOf<BodyOf<'rotateSubscriptionSecret'>>().not.toEqualTypeOf<RotatedSecret>();
  });

  it('converts integer parameters by their contract schema and keeps strings as they are', () => {
    const got = validated(request({ params: { user_id: '42' }, query: { limit: '5', fields: 'id,total' } }), 'listUserOrders');
    expect(got.path).toEqual({ user_id: 42 });
    expect(got.query).toEqual({ limit: 5, fields: 'id,total' });
  });

  it('keeps query values the validator already converted', () => {
    const req = { params: {}, query: { limit: 3, filter: 'category=books' }, body: undefined } as unknown as Request;
    expect(validated(req, 'listProducts').query).toEqual({ limit: 3, filter: 'category=books' });
  });

  it('leaves absent query parameters out, and reads path-level parameters', () => {
    const got = validated(request({ params: { subscription_id: 'sub_3kTzY8qLm2NvB7xRw9Pd' } }), 'listDeliveryAttempts');
    expect(got.path).toEqual({ subscription_id: 'sub_3kTzY8qLm2NvB7xRw9Pd' });
    expect(got.query).toEqual({});
  });

  it('keeps an id that looks like a number a string when the contract says string', () => {
    expect(validated(request({ query: { cursor: '12345' } }), 'listSubscriptions').query).toEqual({ cursor: '12345' });
  });

  it('passes the body through', () => {
    const body = { user_id: 1, items: [{ product_id: 2, quantity: 3 }] };
    expect(validated(request({ body }), 'createOrder').body).toBe(body);
    expect(validated(request({ params: { subscription_id: 'sub_3kTzY8qLm2NvB7xRw9Pd' } }), 'rotateSubscriptionSecret').body).toBeUndefined();
  });

  it('refuses a route whose path does not name the contract parameter (e.g. :id for subscription_id)', () => {
    expect(() => validated(request({ params: { id: 'sub_3kTzY8qLm2NvB7xRw9Pd' } }), 'getSubscription')).toThrow(
      /does not name the path parameter :subscription_id/,
    );
  });
});
