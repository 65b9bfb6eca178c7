import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/openapi';
import { DomainError } from '../../../src/errors/domain-error';
import { InsufficientStock } from '../../../src/errors/insufficient-stock';
import { parameterLocations, toFieldError } from '../../../src/http/field-locations';
import { toProblem } from '../../../src/http/problem';

const locations = parameterLocations(loadContract());

describe('where a refused input field travelled', () => {
  it('reads every operation’s path and query parameters from the contract, resolving references', () => {
    expect(locations.get('listProducts')?.get('filter')).toBe('query');
    expect(locations.get('updateSubscription')?.get('subscription_id')).toBe('path');
    expect(locations.get('listUserOrders')?.get('user_id')).toBe('path');
    expect(locations.get('listUserOrders')?.get('fields')).toBe('query');
    expect(locations.get('listSubscriptions')?.get('cursor')).toBe('query');
    // Headers are not input fields of a use case.
    expect(locations.get('createOrder')?.has('Idempotency-Key')).toBe(false);
  });

  it('maps a field to its parameter, and anything else into the body, as a JSON pointer', () => {
    expect(toFieldError({ field: ['filter'], message: 'm' }, locations.get('listProducts'))).toEqual({ path: '/query/filter', message: 'm' });
    expect(toFieldError({ field: ['filter', 'data', 'total', '$gt'], message: 'm' }, locations.get('createSubscriptionV2'))).toEqual({
      path: '/body/filter/data/total/$gt',
      message: 'm',
    });
    expect(toFieldError({ field: ['subscription_id'], message: 'm' }, locations.get('updateSubscription'))?.path).toBe('/path/subscription_id');
    expect(toFieldError({ field: ['items', 0, 'quantity'], message: 'm' }, locations.get('createOrder'))?.path).toBe('/body/items/0/quantity');
    expect(toFieldError({ field: [], message: 'm' }, locations.get('adjustStock'))?.path).toBe('/body');
    // A key holding `/` or `~` stays one pointer segment (RFC 6901).
    expect(toFieldError({ field: ['headers', 'a/b~c'], message: 'm' }, undefined)?.path).toBe('/body/headers/a~1b~0c');
  });

  it('is applied to domain refusals and stock shortfalls alike', () => {
    const refusal = DomainError.invalid('Invalid Cursor', 'bad', [{ field: ['cursor'], message: 'm' }]);
    expect(toProblem(refusal, undefined, locations.get('listSubscriptions')).errors).toEqual([{ path: '/query/cursor', message: 'm' }]);
    const short = new InsufficientStock([{ product_id: 1, requested: 2, available: 1, field: ['items', 1, 'quantity'] }]);
    expect(toProblem(short, undefined, locations.get('createOrder')).errors?.[0]?.path).toBe('/body/items/1/quantity');
  });
});
