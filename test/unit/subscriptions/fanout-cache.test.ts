import { describe, expect, it } from 'vitest';
import type { EventType } from '../../../src/contract/types';
import { FanoutCache, type FanoutMembers } from '../../../src/subscriptions/fanout-cache';
import type { FanoutMember } from '../../../src/subscriptions/repository';

/** Subscribers another process may change, by type and owner; counts the reads. */
function fakeMembers() {
  const rows: Array<FanoutMember & { type: EventType; owner?: string }> = [];
  const reads: string[] = [];
  let failNext = false;
  const source: FanoutMembers = {
    currentSubscribers(type, owner) {
      reads.push(`${type}/${owner ?? '-'}`);
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('connection refused'));
      }
      return Promise.resolve(rows.filter((r) => r.type === type && (owner === undefined || r.owner === owner || r.owner === undefined)).map(({ _id, filter, created_at }) => ({ _id, created_at, ...(filter ? { filter } : {}) })));
    },
  };
  return { source, rows, reads, failOnce: () => (failNext = true) };
}

const t = (s: number) => new Date(s * 1000);

describe('FanoutCache', () => {
  it('reads once per type and owner within the TTL, then again', async () => {
    let now = 0;
    const { source, rows, reads } = fakeMembers();
    rows.push({ _id: 'sub_1', type: 'order.created', owner: 'o1', created_at: t(0) });
    const cache = new FanoutCache(source, { ttlMs: 1000, now: () => now });
    expect(await cache.activeSubscribers('order.created', t(1), 'o1')).toEqual([{ _id: 'sub_1' }]);
    // Another process adds one: unseen until the TTL is over.
    rows.push({ _id: 'sub_2', type: 'order.created', owner: 'o1', created_at: t(0) });
    now = 999;
    expect(await cache.activeSubscribers('order.created', t(1), 'o1')).toEqual([{ _id: 'sub_1' }]);
    expect(reads).toEqual(['order.created/o1']);
    // Other keys are read apart.
    expect(await cache.activeSubscribers('order.created', t(1), 'o2')).toEqual([]);
    expect(await cache.activeSubscribers('order.created', t(1))).toHaveLength(2);
    expect(await cache.activeSubscribers('stock.updated', t(1), 'o1')).toEqual([]);
    expect(reads).toHaveLength(4);
    now = 1000;
    expect((await cache.activeSubscribers('order.created', t(1), 'o1')).map((c) => c._id)).toEqual(['sub_1', 'sub_2']);
    expect(reads).toHaveLength(5);
  });

  it("sees this process's writes at once: invalidate drops every read, those under way too", async () => {
    const { source, rows, reads } = fakeMembers();
    const cache = new FanoutCache(source, { ttlMs: 60_000, now: () => 0 });
    const underWay = cache.activeSubscribers('order.created', t(1), 'o1');
    rows.push({ _id: 'sub_1', type: 'order.created', owner: 'o1', created_at: t(0), filter: '{"data.total":{"$gte":10}}' });
    cache.invalidate();
    await underWay;
    expect(await cache.activeSubscribers('order.created', t(1), 'o1')).toEqual([{ _id: 'sub_1', filter: '{"data.total":{"$gte":10}}' }]);
    expect(reads).toHaveLength(2);
  });

  it('gives an event only the subscriptions created by its time, as the repository does', async () => {
    const { source, rows } = fakeMembers();
    rows.push({ _id: 'sub_old', type: 'order.created', owner: 'o1', created_at: t(10) }, { _id: 'sub_new', type: 'order.created', owner: 'o1', created_at: t(20) });
    const cache = new FanoutCache(source, { ttlMs: 60_000, now: () => 0 });
    expect((await cache.activeSubscribers('order.created', t(9), 'o1')).map((c) => c._id)).toEqual([]);
    expect((await cache.activeSubscribers('order.created', t(10), 'o1')).map((c) => c._id)).toEqual(['sub_old']);
    expect((await cache.activeSubscribers('order.created', t(20), 'o1')).map((c) => c._id)).toEqual(['sub_old', 'sub_new']);
  });

  it('shares a read under way, and keeps no failed one', async () => {
    const { source, reads, failOnce } = fakeMembers();
    const cache = new FanoutCache(source, { ttlMs: 60_000, now: () => 0 });
    await Promise.all([cache.activeSubscribers('order.created', t(1), 'o1'), cache.activeSubscribers('order.created', t(1), 'o1')]);
    expect(reads).toHaveLength(1);
    cache.invalidate();
    failOnce();
    await expect(cache.activeSubscribers('order.created', t(1), 'o1')).rejects.toThrow('connection refused');
    expect(await cache.activeSubscribers('order.created', t(1), 'o1')).toEqual([]);
    expect(reads).toHaveLength(3);
  });

  it('reads every time with a TTL of 0', async () => {
    const { source, reads } = fakeMembers();
    const cache = new FanoutCache(source, { ttlMs: 0, now: () => 0 });
    await cache.activeSubscribers('order.created', t(1), 'o1');
    await cache.activeSubscribers('order.created', t(1), 'o1');
    expect(reads).toHaveLength(2);
  });
});
