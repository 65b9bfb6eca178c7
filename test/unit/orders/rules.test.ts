import { describe, expect, it } from 'vitest';
import type { Problem } from '../../../src/contract/types';
import { DomainError } from '../../../src/errors/domain-error';
import { loadContract } from '../../../src/contract/openapi';
import { parameterLocations } from '../../../src/http/field-locations';
import { toProblem } from '../../../src/http/problem';
import type { OrderStatus } from '../../../src/contract/types';
import { canTransition, orderTotal, parseFields, parseProductFilter, toCents } from '../../../src/orders/rules';

/** The problem operation `operationId` answers with for what `fn` throws. */
function problemOf(operationId: string, fn: () => unknown): Problem {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return toProblem(err, undefined, parameterLocations(loadContract()).get(operationId));
    throw err;
  }
  throw new Error('expected a DomainError');
}

describe('parseFields', () => {
  it('selects all three without fields', () => {
    expect([...parseFields(undefined)].sort()).toEqual(['date', 'id', 'total']);
  });
  it.each([
    ['id', ['id']],
    ['total,date', ['date', 'total']],
    ['date,id,id', ['date', 'id']],
  ])('%s selects %j', (raw, expected) => {
    expect([...parseFields(raw)].sort()).toEqual(expected);
  });
  it.each(['', 'id,bogus', 'ID', 'id,', 'id total'])('rejects %j naming /query/fields', (raw) => {
    const p = problemOf('listUserOrders', () => parseFields(raw));
    expect(p.status).toBe(400);
    expect(p.errors).toEqual([{ path: '/query/fields', message: expect.any(String) as unknown }]);
  });
});

describe('parseProductFilter', () => {
  it('is absent without filter', () => {
    expect(parseProductFilter(undefined)).toBeUndefined();
  });
  it.each([
    ['category=books', { field: 'category', value: 'books' }],
    ['sku=BK-001', { field: 'sku', value: 'BK-001' }],
    ['category=no_such_category', { field: 'category', value: 'no_such_category' }],
  ])('parses %s', (raw, expected) => {
    expect(parseProductFilter(raw)).toEqual(expected);
  });
  it.each(['color=red', 'category=', 'category', '=books', 'category=bo oks', 'category=a=b', `sku=${'x'.repeat(65)}`, 'category==books'])(
    'rejects %j with a 400 naming /query/filter',
    (raw) => {
      const p = problemOf('listProducts', () => parseProductFilter(raw));
      expect(p.status).toBe(400);
      expect(p.errors).toEqual([{ path: '/query/filter', message: expect.any(String) as unknown }]);
    },
  );
});

describe('canTransition', () => {
  const all: OrderStatus[] = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'];
  const allowed = new Set(['pending→paid', 'pending→cancelled', 'paid→shipped', 'paid→cancelled', 'shipped→delivered']);
  for (const from of all) {
    for (const to of all) {
      const move = `${from}→${to}`;
      it(`${move} is ${allowed.has(move) ? 'allowed' : 'refused'}`, () => {
        expect(canTransition(from, to)).toBe(allowed.has(move));
      });
    }
  }
});

describe('order totals in cents', () => {
  it('sums 3 × 12.99 + 1 × 5.50 to exactly 44.47', () => {
    expect(orderTotal([{ quantity: 3, unit_price: 12.99 }, { quantity: 1, unit_price: 5.5 }])).toBe(44.47);
  });
  it('avoids float drift on many small amounts', () => {
    expect(0.1 * 3).not.toBe(0.3);
    expect(orderTotal([{ quantity: 3, unit_price: 0.1 }])).toBe(0.3);
    expect(orderTotal([{ quantity: 10000, unit_price: 19.99 }, { quantity: 7, unit_price: 0.07 }])).toBe(199900.49);
  });
  it('converts amounts to integer cents', () => {
    expect(toCents(12.99)).toBe(1299);
    expect(toCents(199)).toBe(19900);
  });
});
