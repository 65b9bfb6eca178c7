import { describe, expect, it } from 'vitest';
import { fieldName } from '../../../src/errors/field-issue';
import { FILTER_LIMITS, type FilterError, matchesFilter, validateFilter, type Filter } from '../../../src/subscriptions/filter';

const nameOf = (err: FilterError | undefined) => err && fieldName(err.field);

const event = {
  type: 'order.created',
  id: 'evt_1',
  data: {
    total: 150,
    currency: 'EUR',
    status: 'paid',
    customer: { email: 'ann@example.com', tier: 'gold', address: { country: 'FR' } },
    tags: ['rush', 'gift'],
    items: [{ sku: 'A', qty: 2 }, { sku: 'B', qty: 1 }],
    note: null,
  },
};

const m = (filter: Filter) => {
  expect(validateFilter(filter)).toBeUndefined();
  return matchesFilter(filter, event);
};

describe('matchesFilter', () => {
  it('an empty filter matches everything', () => {
    expect(m({})).toBe(true);
  });

  it('literal equality, at the top and on nested paths (nested objects or dotted keys)', () => {
    expect(m({ type: 'order.created' })).toBe(true);
    expect(m({ type: 'order.updated' })).toBe(false);
    expect(m({ data: { customer: { address: { country: 'FR' } } } })).toBe(true);
    expect(m({ 'data.customer.address.country': 'FR' })).toBe(true);
    expect(m({ 'data.customer.address.country': 'DE' })).toBe(false);
    expect(m({ data: { 'customer.tier': 'gold', currency: 'EUR' } })).toBe(true);
    expect(m({ data: { note: null } })).toBe(true);
    expect(m({ data: { missing: null } })).toBe(false);
  });

  it('$eq and $neq', () => {
    expect(m({ data: { total: { $eq: 150 } } })).toBe(true);
    expect(m({ data: { total: { $eq: '150' } } })).toBe(false);
    expect(m({ data: { total: { $neq: 150 } } })).toBe(false);
    expect(m({ data: { total: { $neq: 1 } } })).toBe(true);
    expect(m({ data: { missing: { $neq: 1 } } })).toBe(true);
    expect(m({ data: { customer: { $eq: { email: 'ann@example.com', tier: 'gold', address: { country: 'FR' } } } } })).toBe(true);
  });

  it('$gt, $gte, $lt, $lte on numbers and strings; a type mismatch never holds', () => {
    expect(m({ data: { total: { $gte: 150 } } })).toBe(true);
    expect(m({ data: { total: { $gt: 150 } } })).toBe(false);
    expect(m({ data: { total: { $lte: 150 } } })).toBe(true);
    expect(m({ data: { total: { $lt: 150 } } })).toBe(false);
    expect(m({ data: { total: { $gte: 100, $lt: 200 } } })).toBe(true);
    expect(m({ data: { currency: { $gt: 'DDD' } } })).toBe(true);
    expect(m({ data: { currency: { $lt: 'DDD' } } })).toBe(false);
    expect(m({ data: { total: { $gt: '100' } } })).toBe(false);
    expect(m({ data: { total: { $lt: '100' } } })).toBe(false);
    expect(m({ data: { currency: { $gt: 1 } } })).toBe(false);
    expect(m({ data: { missing: { $gt: 1 } } })).toBe(false);
    expect(m({ data: { note: { $lt: 1 } } })).toBe(false);
  });

  it('$in and $nin', () => {
    expect(m({ data: { status: { $in: ['paid', 'shipped'] } } })).toBe(true);
    expect(m({ data: { status: { $in: ['open'] } } })).toBe(false);
    expect(m({ data: { status: { $nin: ['open'] } } })).toBe(true);
    expect(m({ data: { status: { $nin: ['paid'] } } })).toBe(false);
    expect(m({ data: { missing: { $in: ['x'] } } })).toBe(false);
    expect(m({ data: { missing: { $nin: ['x'] } } })).toBe(true);
    expect(m({ data: { total: { $in: ['150'] } } })).toBe(false);
  });

  it('$exists', () => {
    expect(m({ data: { total: { $exists: true } } })).toBe(true);
    expect(m({ data: { note: { $exists: true } } })).toBe(true);
    expect(m({ data: { missing: { $exists: true } } })).toBe(false);
    expect(m({ data: { missing: { $exists: false } } })).toBe(true);
    expect(m({ 'data.customer.nothing.deeper': { $exists: false } })).toBe(true);
  });

  it('$startsWith only on strings', () => {
    expect(m({ type: { $startsWith: 'order.' } })).toBe(true);
    expect(m({ type: { $startsWith: 'invoice.' } })).toBe(false);
    expect(m({ data: { total: { $startsWith: '1' } } })).toBe(false);
  });

  it('$and, $or, $not (logical and on a field)', () => {
    expect(m({ $or: [{ data: { total: { $gt: 1000 } } }, { 'data.customer.tier': 'gold' }] })).toBe(true);
    expect(m({ $or: [{ data: { total: { $gt: 1000 } } }, { 'data.customer.tier': 'silver' }] })).toBe(false);
    expect(m({ $and: [{ data: { total: { $gt: 100 } } }, { 'data.customer.tier': 'gold' }] })).toBe(true);
    expect(m({ $and: [{ data: { total: { $gt: 100 } } }, { 'data.customer.tier': 'silver' }] })).toBe(false);
    expect(m({ $not: { data: { status: 'paid' } } })).toBe(false);
    expect(m({ $not: { data: { status: 'open' } } })).toBe(true);
    expect(m({ data: { total: { $not: { $gt: 1000 } } } })).toBe(true);
    expect(m({ data: { total: { $not: { $gte: 100 } } } })).toBe(false);
    expect(m({ data: { $or: [{ total: { $lt: 10 } }, { currency: 'EUR' }] } })).toBe(true);
  });

  it('on arrays: a literal or operator holds for any element; an array literal compares the whole array', () => {
    expect(m({ data: { tags: 'gift' } })).toBe(true);
    expect(m({ data: { tags: 'none' } })).toBe(false);
    expect(m({ data: { tags: ['rush', 'gift'] } })).toBe(true);
    expect(m({ data: { tags: ['gift', 'rush'] } })).toBe(false);
    expect(m({ data: { tags: { $in: ['gift'] } } })).toBe(true);
    expect(m({ data: { tags: { $nin: ['gift'] } } })).toBe(false);
    expect(m({ data: { tags: { $startsWith: 'ru' } } })).toBe(true);
    expect(m({ data: { items: { $eq: { sku: 'B', qty: 1 } } } })).toBe(true);
    // Arrays are not traversed by name: `items.sku` is no path.
    expect(m({ 'data.items.sku': { $exists: true } })).toBe(false);
  });

  it('does not read inherited properties', () => {
    expect(m({ 'data.constructor': { $exists: true } })).toBe(false);
    expect(m({ data: { toString: { $exists: true } } })).toBe(false);
  });

  it('reads each element a bounded number of times: a large array under a filter that touches every element', () => {
    const filter: Filter = { $and: [{ data: { items: { $gt: 10_000_000 } } }, { data: { items: { $in: [-1] } } }] };
    expect(validateFilter(filter)).toBeUndefined();
    // Counts element reads through a proxy: linear work reads each element a fixed number of times.
    const reads = (n: number) => {
      let count = 0;
      const items = new Proxy(
        Array.from({ length: n }, (_, i) => i),
        {
          get: (target, key, receiver): unknown => {
            if (typeof key === 'string' && /^\d+$/.test(key)) count++;
            return Reflect.get(target, key, receiver);
          },
        },
      );
      expect(matchesFilter(filter, { type: 'order.created', id: 'evt_big', data: { items } })).toBe(false);
      return count;
    };
    const small = reads(2_000);
    expect(small).toBeGreaterThanOrEqual(2_000);
    expect(reads(20_000)).toBeLessThanOrEqual(10 * small);
  });
});

describe('validateFilter', () => {
  it('accepts the documented example', () => {
    expect(validateFilter({ data: { total: { $gte: 100 } } })).toBeUndefined();
  });

  it('names the path of an unknown operator', () => {
    const err = validateFilter({ data: { total: { $gtee: 100 } } });
    expect(nameOf(err)).toBe('filter.data.total.$gtee');
    expect(err?.message).toContain('unknown operator $gtee');
    expect(nameOf(validateFilter({ $nor: [] }))).toBe('filter.$nor');
    expect(nameOf(validateFilter({ $or: [{ type: 'x' }, { data: { a: { $regex: '.*' } } }] }))).toBe('filter.$or[1].data.a.$regex');
    expect(nameOf(validateFilter({ 'data.total': { $not: { $like: 1 } } }))).toBe('filter.data.total.$like');
  });

  it('refuses malformed operands, naming where', () => {
    expect(nameOf(validateFilter([] as unknown))).toBe('filter');
    expect(nameOf(validateFilter('x'))).toBe('filter');
    expect(nameOf(validateFilter({ $or: [] }))).toBe('filter.$or');
    expect(nameOf(validateFilter({ $or: ['x'] }))).toBe('filter.$or[0]');
    expect(nameOf(validateFilter({ $not: 1 }))).toBe('filter.$not');
    expect(nameOf(validateFilter({ a: { $in: 'x' } }))).toBe('filter.a.$in');
    expect(nameOf(validateFilter({ a: { $in: [{ b: 1 }] } }))).toBe('filter.a.$in');
    expect(nameOf(validateFilter({ a: { $gt: true } }))).toBe('filter.a.$gt');
    expect(nameOf(validateFilter({ a: { $exists: 'yes' } }))).toBe('filter.a.$exists');
    expect(nameOf(validateFilter({ a: { $startsWith: 1 } }))).toBe('filter.a.$startsWith');
    expect(nameOf(validateFilter({ a: { $not: 1 } }))).toBe('filter.a.$not');
    expect(validateFilter({ a: { $not: { b: 1 } } })).toBeUndefined();
    expect(nameOf(validateFilter({ a: { $gt: 1, b: 2 } }))).toBe('filter.a.b');
    expect(nameOf(validateFilter({ '': 1 }))).toBe('filter.');
  });

  it('bounds size, depth and list lengths', () => {
    expect(validateFilter({ a: 'x'.repeat(FILTER_LIMITS.maxBytes) })?.message).toContain('bytes');
    let deep: Filter = { z: 1 };
    for (let i = 0; i < FILTER_LIMITS.maxDepth; i++) deep = { a: deep };
    expect(validateFilter(deep)?.message).toContain('levels');
    let ok: Filter = { z: 1 };
    for (let i = 0; i < FILTER_LIMITS.maxDepth - 2; i++) ok = { a: ok };
    expect(validateFilter(ok)).toBeUndefined();
    const list = Array.from({ length: FILTER_LIMITS.maxListLength + 1 }, (_, i) => i);
    expect(nameOf(validateFilter({ a: { $in: list } }))).toBe('filter.a.$in');
    expect(nameOf(validateFilter({ $or: list.map((i) => ({ a: i })) }))).toBe('filter.$or');
  });

  it('a hostile depth is refused without recursing through it', () => {
    let deep: Filter = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(nameOf(validateFilter(deep))).toBe('filter');
  });
});
