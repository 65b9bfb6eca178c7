import { describe, expect, it } from 'vitest';
import { declaredIndexes, storageOwners } from '../../../src/db/indexes';
import { idIndex, type IndexSpec, type QueryShape, serves, type StorageDeclarations } from '../../../src/db/query-shapes';

const indexes = declaredIndexes();
const shapes = storageOwners.flatMap((owner) => owner.queryShapes);

/** The declared indexes of the shape's collection, `_id_` first. */
function candidates(shape: QueryShape): IndexSpec[] {
  return [idIndex(shape.collection), ...indexes.filter((i) => i.collection === shape.collection)];
}

describe('declared indexes', () => {
  it('are exactly these: names, keys and uniqueness (a change here is a change to every database)', () => {
    const byName = (a: IndexSpec, b: IndexSpec) => `${a.collection}.${a.name}`.localeCompare(`${b.collection}.${b.name}`);
    const existing: IndexSpec[] = [
      { collection: 'api_keys', name: 'hash_unique', key: { hash: 1 }, unique: true },
      { collection: 'alerts', name: 'timeline', key: { tl: 1, created_at: -1, _id: -1 } },
      { collection: 'attempts', name: 'event_subscription', key: { event_id: 1, subscription_id: 1, started_at: -1, _id: -1 } },
      { collection: 'attempts', name: 'timeline', key: { tl: 1, started_at: -1, _id: -1 } },
      { collection: 'attempts', name: 'event_groups', key: { eg: 1 } },
      { collection: 'events', name: 'timeline', key: { tl: 1, created_at: -1, _id: -1 } },
      { collection: 'held_deliveries', name: 'subscription', key: { subscription_id: 1 } },
      { collection: 'held_deliveries', name: 'slot', key: { slot: 1 } },
      { collection: 'held_slots', name: 'subscription', key: { subscription_id: 1 } },
      { collection: 'held_slots', name: 'hour', key: { hour: 1 } },
      { collection: 'held_claims', name: 'subscription', key: { subscription_id: 1 } },
      { collection: 'held_marks', name: 'subscription', key: { subscription_id: 1 } },
      { collection: 'inbox', name: 'subscription_state', key: { subscription_id: 1, state: 1 } },
      { collection: 'inbox_settlements', name: 'timeline', key: { tl: 1 } },
      { collection: 'inbox', name: 'timeline', key: { tl: 1 } },
      { collection: 'ordering_marks', name: 'timeline', key: { tl: 1 } },
      { collection: 'order_claims', name: 'timeline', key: { tl: 1 } },
      { collection: 'orders', name: 'timeline', key: { tl: 1, date: -1, id: -1 } },
      { collection: 'products', name: 'category', key: { category: 1 } },
      { collection: 'products', name: 'sku_unique', key: { sku: 1 }, unique: true },
      { collection: 'rate_limits', name: 'key_unique', key: { key: 1 }, unique: true },
      { collection: 'stock', name: 'product_unique', key: { product_id: 1 }, unique: true },
      { collection: 'stock_moves', name: 'slot_unique', key: { slot: 1 }, unique: true },
      { collection: 'subscriptions', name: 'all_owners_fanout', key: { all_owners: 1, events: 1, status: 1 } },
      { collection: 'subscriptions', name: 'fanout', key: { events: 1, status: 1 } },
      { collection: 'subscriptions', name: 'owner_fanout', key: { owner_id: 1, events: 1, status: 1 } },
      { collection: 'subscriptions', name: 'owner_newest', key: { owner_id: 1, _id: -1 } },
      { collection: 'subscriptions', name: 'version_status_newest', key: { version: 1, status: 1, _id: -1 } },
      { collection: 'timeline', name: 'slot', key: { slot: 1 } },
      { collection: 'timeline', name: 'up', key: { up: 1 } },
    ];
    expect([...indexes].sort(byName)).toEqual(existing.sort(byName));
  });

  it('each name once per collection', () => {
    const names = indexes.map((i) => `${i.collection}.${i.name}`);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('query shapes', () => {
  const indexed = shapes.filter((s) => s.index !== undefined);
  it.each(indexed.map((s) => [`${s.method} on ${s.collection}`, s.index!, s] as const))('%s is served by %s', (_, name, shape) => {
    const index = candidates(shape).find((i) => i.name === name);
    expect(index, `${name} is not declared on ${shape.collection}`).toBeDefined();
    expect(serves(index!, shape), `${name} ${JSON.stringify(index!.key)} does not serve ${JSON.stringify(shape)}`).toBe(true);
  });

  it('each names an index or says why none serves it', () => {
    for (const s of shapes) expect([s.index, s.unindexed].filter((x) => x !== undefined), s.method).toHaveLength(1);
  });

  it('a query said to be unindexed really is: no declared index serves it', () => {
    for (const s of shapes.filter((x) => x.unindexed !== undefined)) {
      expect(candidates(s).filter((i) => serves(i, s)).map((i) => i.name), s.method).toEqual([]);
    }
  });

  // The known gaps, listed here too so a new unindexed query is a visible change to this test.
  it('the unindexed queries are exactly the known ones', () => {
    expect(shapes.filter((s) => s.unindexed !== undefined).map((s) => s.method).sort()).toEqual(
      ['DispatchNotes.countHeldDue', 'DispatchNotes.countWaiting', 'DispatchNotes.due', 'ProductRepository.list (filter=category)', 'StockIntents.due'].sort(),
    );
  });

  it('every repository method that touches its collection lists its query shape', () => {
    const listed = new Set(shapes.map((s) => s.method.split(' ')[0]));
    type RepositoryClass = StorageDeclarations & { name: string; prototype: Record<string, unknown> };
    for (const owner of storageOwners.filter((o): o is RepositoryClass => typeof o === 'function')) {
      const proto = owner.prototype;
      // Collections are `#` fields: a method reading one names it in its source.
      const touches = (name: string) => /this\.#\w+/.test(String(proto[name]));
      for (const name of Object.getOwnPropertyNames(proto).filter((n) => n !== 'constructor' && touches(n))) {
        expect(listed, `${owner.name}.${name} has no query shape`).toContain(`${owner.name}.${name}`);
      }
    }
  });
});

describe('serves', () => {
  const index: IndexSpec = { collection: 'c', name: 'a_b', key: { a: 1, b: -1 } };
  const shape = (s: Partial<QueryShape>): QueryShape => ({ collection: 'c', method: 'm', equality: [], ...s });

  it('takes the equality fields then the sort as an index prefix, in either direction', () => {
    expect(serves(index, shape({ equality: ['a'], sort: { b: -1 } }))).toBe(true);
    expect(serves(index, shape({ equality: ['a'], sort: { b: 1 } }))).toBe(true);
    expect(serves(index, shape({ sort: { a: 1, b: 1 } }))).toBe(false);
    expect(serves(index, shape({ sort: { a: -1, b: 1 } }))).toBe(true);
    expect(serves(index, shape({ equality: ['b', 'a'] }))).toBe(true);
  });

  it('refuses equality beyond the prefix, and a sort key the index lacks', () => {
    expect(serves(index, shape({ equality: ['b'] }))).toBe(false);
    expect(serves(index, shape({ equality: ['a', 'c'] }))).toBe(false);
    expect(serves(index, shape({ equality: ['a'], sort: { b: -1, _id: -1 } }))).toBe(false);
  });

  it('a unique index bound by equality serves whatever else is filtered', () => {
    expect(serves(idIndex('c'), shape({ equality: ['_id', 'owner_id'] }))).toBe(true);
    expect(serves(idIndex('other'), shape({ equality: ['_id'] }))).toBe(false);
  });

  it('a range-only query needs an index led by a bounded field', () => {
    expect(serves(index, shape({ range: ['a'] }))).toBe(true);
    expect(serves(index, shape({ range: ['b'] }))).toBe(false);
  });
});
