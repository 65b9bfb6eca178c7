import { describe, expect, it } from 'vitest';
import { SubscriptionCache } from '../../../activities/subscription-cache';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';

const sub = (id: string) => ({ _id: id }) as SubscriptionDoc;

describe('SubscriptionCache', () => {
  it('gives a read subscription (or its absence) until the TTL has passed since the read began', () => {
    let now = 1_000;
    const cache = new SubscriptionCache(1_000, () => now);
    cache.set('a', sub('a'), 1_000);
    cache.set('gone', undefined, 1_000);
    now = 1_999;
    expect(cache.get('a')?.doc?._id).toBe('a');
    expect(cache.get('gone')).toEqual({ doc: undefined });
    now = 2_000;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('gone')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps nothing with a TTL of 0', () => {
    const cache = new SubscriptionCache(0, () => 0);
    cache.set('a', sub('a'), 0);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.enabled).toBe(false);
  });

  it('holds at most its bound, dropping the oldest read', () => {
    const cache = new SubscriptionCache(1_000, () => 0, 2);
    for (const id of ['a', 'b', 'c']) cache.set(id, sub(id), 0);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')?.doc?._id).toBe('c');
  });
});
