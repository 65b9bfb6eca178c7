import { describe, expect, it } from 'vitest';
import type { AttemptDoc } from '../../../src/deliveries/attempts';
import type { HeldDoc } from '../../../src/deliveries/held';
import { EXPIRY_GRACE_MS } from '../../../src/subscriptions/hold';
import { holdExpiredKey, type HoldSweepDeps, sweepHoldsOnce } from '../../../src/deliveries/hold-sweep';
import { createLogger } from '../../../src/logger';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';

const hour = 3_600_000;
const pausedAt = new Date('2026-11-27T00:00:00Z');

function sub(id: string, over: Partial<SubscriptionDoc>): SubscriptionDoc {
  return { _id: id, owner_id: 'o', url: 'https://example.test/hook', events: ['order.created'], status: 'active', version: 1, secrets: [], created_at: pausedAt, updated_at: pausedAt, ...over };
}

function heldDoc(subscriptionId: string, n: number, heldAt = new Date(pausedAt.getTime() + n)): HeldDoc {
  return {
    _id: `held_${subscriptionId}_${n}`,
    subscription_id: subscriptionId,
    event_id: `evt_${n}`,
    event_type: 'order.created',
    emitted_at: new Date(pausedAt.getTime() + n),
    held_at: heldAt,
    origin: `event/evt_${n}`,
    attempt: 1,
    slot: `${subscriptionId}@0`,
  };
}

/** A sweep over in-memory held records and subscriptions, recording what it did. */
function fakes(subs: SubscriptionDoc[], held: HeldDoc[], nowMs: number) {
  const records = new Map(held.map((d) => [d._id, d]));
  const claims = new Map<string, 'drain' | 'expiry'>();
  const logged: AttemptDoc[] = [];
  const alerts: string[] = [];
  const drains: string[] = [];
  const byId = new Map(subs.map((s) => [s._id, s]));
  const deps: HoldSweepDeps = {
    held: {
      holding: () => Promise.resolve([...new Set([...records.values()].map((d) => d.subscription_id))].map((subscriptionId) => ({ subscriptionId, settling: false }))),
      page: (id, limit, after) => {
        const all = [...records.values()].filter((d) => d.subscription_id === id && (!after || d._id > after.id)).sort((a, b) => (a._id < b._id ? -1 : 1));
        const docs = all.slice(0, limit);
        const last = docs[docs.length - 1];
        return Promise.resolve({ docs, ...(all.length > limit && last ? { next: { at: last.emitted_at.getTime(), id: last._id } } : {}) });
      },
      release: (ids) => Promise.resolve(void ids.forEach((id) => records.delete(id))),
      dropAll: (id) => {
        const gone = [...records.values()].filter((d) => d.subscription_id === id);
        for (const d of gone) records.delete(d._id);
        return Promise.resolve(gone.length);
      },
      settle: (id) => Promise.resolve(![...records.values()].some((d) => d.subscription_id === id)),
      count: (id) => Promise.resolve([...records.values()].filter((d) => d.subscription_id === id).length),
      claim: (docs, by) => {
        const mine = new Set<string>();
        for (const d of docs) {
          if (!claims.has(d._id)) claims.set(d._id, by);
          if (claims.get(d._id) === by) mine.add(d._id);
        }
        return Promise.resolve(mine);
      },
    },
    subscriptions: {
      findForDelivery: (id) => Promise.resolve(byId.get(id)),
    },
    attempts: { recordMany: (docs) => Promise.resolve(void logged.push(...docs)).then(() => new Set<number>()) },
    raiseAlert: (input) => Promise.resolve(void alerts.push(input.key)),
    startDrain: (id) => Promise.resolve(void drains.push(id)),
    holdMaxMs: hour,
    now: () => new Date(nowMs),
    logger: createLogger('silent', 'test'),
  };
  return { deps, records, logged, alerts, drains, byId, claims };
}

describe('the hold sweep', () => {
  it('reads nothing more when nothing is held', async () => {
    const f = fakes([], [], pausedAt.getTime());
    expect(await sweepHoldsOnce(f.deps)).toEqual({ drains: 0, expired: 0, dropped: 0, failed: 0 });
  });

  it('starts the drain of an active subscription still holding; leaves a pause within the limit alone', async () => {
    const f = fakes([sub('sub_a', {}), sub('sub_p', { status: 'paused', paused_at: pausedAt })], [heldDoc('sub_a', 1), heldDoc('sub_p', 2)], pausedAt.getTime() + hour - 1);
    expect(await sweepHoldsOnce(f.deps)).toEqual({ drains: 1, expired: 0, dropped: 0, failed: 0 });
    expect(f.drains).toEqual(['sub_a']);
    expect(f.records.size).toBe(2);
  });

  it('cancels what a disabled or deleted subscription held', async () => {
    const f = fakes([sub('sub_d', { status: 'disabled' })], [heldDoc('sub_d', 1), heldDoc('sub_gone', 2)], pausedAt.getTime());
    expect(await sweepHoldsOnce(f.deps)).toMatchObject({ dropped: 2 });
    expect(f.records.size).toBe(0);
    expect(f.logged).toEqual([]);
  });

  it('past the limit: each held delivery logged failed as hold_expired, one alert for the pause, the pause left as it is', async () => {
    const f = fakes([sub('sub_p', { status: 'paused', paused_at: pausedAt })], [heldDoc('sub_p', 1), heldDoc('sub_p', 2), heldDoc('sub_p', 3)], pausedAt.getTime() + hour + EXPIRY_GRACE_MS + 3);
    expect(await sweepHoldsOnce(f.deps)).toMatchObject({ expired: 3, failed: 0 });
    expect(f.logged.map((a) => [a.event_id, a.outcome, a.state, a.series, a.attempt])).toEqual([1, 2, 3].map((n) => [`evt_${n}`, 'hold_expired', 'failed', `event/evt_${n}#sub_p`, 1]));
    expect(f.alerts).toEqual([holdExpiredKey(pausedAt)]);
    // The subscription is not written: a resume racing the sweep is never undone.
    expect(f.byId.get('sub_p')?.paused_at).toEqual(pausedAt);
    expect(f.records.size).toBe(0);
    // Nothing held any more: the next pass neither fails nor alerts.
    expect(await sweepHoldsOnce(f.deps)).toEqual({ drains: 0, expired: 0, dropped: 0, failed: 0 });
    expect(f.alerts).toHaveLength(1);
  });

  it('fails only what was held longer than the limit; what was held later waits its own turn', async () => {
    const late = new Date(pausedAt.getTime() + 2 * hour);
    const f = fakes([sub('sub_p', { status: 'paused', paused_at: pausedAt })], [heldDoc('sub_p', 1), heldDoc('sub_p', 2, late)], pausedAt.getTime() + hour + EXPIRY_GRACE_MS + 1);
    expect(await sweepHoldsOnce(f.deps)).toMatchObject({ expired: 1 });
    expect([...f.records.keys()]).toEqual(['held_sub_p_2']);
  });

  it('stops at the page where it finds the subscription resumed: the rest is for the drain', async () => {
    const paused = sub('sub_p', { status: 'paused', paused_at: pausedAt });
    const docs = Array.from({ length: 250 }, (_, i) => heldDoc('sub_p', 1000 + i));
    const f = fakes([paused], docs, pausedAt.getTime() + 2 * hour + EXPIRY_GRACE_MS);
    let reads = 0;
    f.deps.subscriptions.findForDelivery = (id) => {
      reads += 1;
      return Promise.resolve(reads <= 2 ? paused : { ...paused, _id: id, status: 'active' });
    };
    expect(await sweepHoldsOnce(f.deps)).toMatchObject({ expired: 200 });
    expect(f.records.size).toBe(50);
  });

  it('leaves a record the drain claimed first to it (a drain stalled while paused again): never both started and failed', async () => {
    const f = fakes([sub('sub_p', { status: 'paused', paused_at: pausedAt })], [heldDoc('sub_p', 1), heldDoc('sub_p', 2)], pausedAt.getTime() + hour + EXPIRY_GRACE_MS + 3);
    f.claims.set('held_sub_p_1', 'drain');
    expect(await sweepHoldsOnce(f.deps)).toMatchObject({ expired: 1 });
    expect(f.logged.map((a) => a.event_id)).toEqual(['evt_2']);
    expect([...f.records.keys()]).toEqual(['held_sub_p_1']);
  });

  it('reads a bounded number of pages per subscription a pass, and goes on from there the next pass', async () => {
    const docs = Array.from({ length: 2500 }, (_, i) => heldDoc('sub_p', 1000 + i));
    const f = fakes([sub('sub_p', { status: 'paused', paused_at: pausedAt })], docs, pausedAt.getTime() + 2 * hour + EXPIRY_GRACE_MS);
    const page = f.deps.held.page;
    let pages = 0;
    f.deps.held.page = (...args) => ((pages += 1), page(...args));
    const deps = { ...f.deps, expiryCursors: new Map() };
    expect(await sweepHoldsOnce(deps)).toMatchObject({ expired: 1000 });
    expect(pages).toBe(5);
    expect(await sweepHoldsOnce(deps)).toMatchObject({ expired: 1000 });
    expect(await sweepHoldsOnce(deps)).toMatchObject({ expired: 500 });
    expect(f.records.size).toBe(0);
    expect(pages).toBe(13);
  });

  it('settles again what a crash left mid-settle for a paused subscription within the limit', async () => {
    const f = fakes([sub('sub_p', { status: 'paused', paused_at: pausedAt })], [], pausedAt.getTime());
    const settled: string[] = [];
    f.deps.held.holding = () => Promise.resolve([{ subscriptionId: 'sub_p', settling: true }]);
    f.deps.held.settle = (id) => Promise.resolve(void settled.push(id)).then(() => true);
    await sweepHoldsOnce(f.deps);
    expect(settled).toEqual(['sub_p']);
  });

  it('repairs what a crash left mid-settle before it expires a pause past the limit', async () => {
    const f = fakes([sub('sub_p', { status: 'paused', paused_at: pausedAt })], [heldDoc('sub_p', 1)], pausedAt.getTime() + 2 * hour + EXPIRY_GRACE_MS);
    const calls: string[] = [];
    f.deps.held.holding = () => Promise.resolve([{ subscriptionId: 'sub_p', settling: true }]);
    const settle = f.deps.held.settle;
    f.deps.held.settle = (id, opts) => (calls.push(`settle repair=${opts?.repair ?? true}`), settle(id, opts));
    const page = f.deps.held.page;
    f.deps.held.page = (...args) => (calls.push('page'), page(...args));
    expect(await sweepHoldsOnce(f.deps)).toMatchObject({ expired: 1 });
    expect(calls[0]).toBe('settle repair=true');
    expect(calls.indexOf('page')).toBeGreaterThan(0);
  });

  it('a step that fails is counted and retried next pass; the others go on', async () => {
    const f = fakes([sub('sub_a', {}), sub('sub_b', {})], [heldDoc('sub_a', 1), heldDoc('sub_b', 2)], pausedAt.getTime());
    f.deps.startDrain = (id) => (id === 'sub_a' ? Promise.reject(new Error('Temporal away')) : Promise.resolve());
    expect(await sweepHoldsOnce(f.deps)).toMatchObject({ drains: 1, failed: 1 });
  });
});
