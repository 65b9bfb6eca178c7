import { describe, expect, it } from 'vitest';
import { createEventCache } from '../../../activities/event-cache';
import type { EventDoc } from '../../../src/events/repository';

const created = new Date('2025-06-01T12:00:00.000Z');

/** A logged event as the event log holds it, with a field deliveries never read (source). */
function doc(id: string): EventDoc {
  return { _id: id, type: 'order.created', data: { order_id: 1 }, created_at: created, owner_id: 'o', subscription_ids: ['sub_1'], source: { collection: 'orders', id: 1 } };
}

/** A loader over `known` ids that counts its reads per id. */
function loader(known: string[]) {
  const reads = new Map<string, number>();
  const load = (id: string) => {
    reads.set(id, (reads.get(id) ?? 0) + 1);
    return Promise.resolve(known.includes(id) ? doc(id) : undefined);
  };
  return { load, reads };
}

describe('createEventCache', () => {
  it('gives up on a read that never answers, and reads afresh on the next get', async () => {
    let reads = 0;
    const cache = createEventCache((id) => (++reads === 1 ? new Promise<never>(() => {}) : Promise.resolve(doc(id))), 10, 50);
    await expect(cache.get('a')).rejects.toThrow('reading event a: no answer within 50 ms');
    expect((await cache.get('a'))?._id).toBe('a');
    expect(reads).toBe(2);
  });

  it('reads an event once and keeps only the immutable fields', async () => {
    const { load, reads } = loader(['a']);
    const cache = createEventCache(load, 10);
    const first = await cache.get('a');
    expect(await cache.get('a')).toBe(first);
    expect(reads.get('a')).toBe(1);
    expect(first).toEqual({ _id: 'a', type: 'order.created', data: { order_id: 1 }, created_at: created, subscription_ids: ['sub_1'], owner_id: 'o' });
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('does not keep misses', async () => {
    const known: string[] = [];
    const { load, reads } = loader(known);
    const cache = createEventCache(load, 10);
    expect(await cache.get('late')).toBeUndefined();
    known.push('late');
    expect(await cache.get('late')).toMatchObject({ _id: 'late' });
    expect(await cache.get('late')).toMatchObject({ _id: 'late' });
    expect(reads.get('late')).toBe(2);
    expect(cache.size).toBe(1);
  });

  it('does not keep failed reads', async () => {
    let fail = true;
    const cache = createEventCache((id) => (fail ? Promise.reject(new Error('db down')) : Promise.resolve(doc(id))), 10);
    await expect(cache.get('a')).rejects.toThrow('db down');
    fail = false;
    expect(await cache.get('a')).toMatchObject({ _id: 'a' });
  });

  it('shares one read between concurrent gets of an id', async () => {
    const { load, reads } = loader(['a']);
    const cache = createEventCache(load, 10);
    const all = await Promise.all([cache.get('a'), cache.get('a'), cache.get('a')]);
    expect(new Set(all).size).toBe(1);
    expect(reads.get('a')).toBe(1);
  });

  it('evicts the least recently used beyond its bound', async () => {
    const { load, reads } = loader(['a', 'b', 'c']);
    const cache = createEventCache(load, 2);
    await cache.get('a');
    await cache.get('b');
    await cache.get('a'); // a is now the most recent
    await cache.get('c'); // evicts b
    expect(cache.size).toBe(2);
    await cache.get('a');
    await cache.get('b');
    expect(reads.get('a')).toBe(1);
    expect(reads.get('b')).toBe(2);
    expect(cache.size).toBe(2);
  });

  it('rejects a bound that is not a positive integer', () => {
    expect(() => createEventCache(loader([]).load, 0)).toThrow(RangeError);
  });
});
