import { describe, expect, it } from 'vitest';
import { laneTaskQueue, laneTaskQueues, OwnerLanes } from '../../../src/events/lanes';

/** Lanes over a clock the test moves. */
function lanes(ratePerSecond: number, burst: number, maxOwners?: number) {
  let t = 1_000_000;
  const l = new OwnerLanes({ ratePerSecond, burst, now: () => t, ...(maxOwners ? { maxOwners } : {}) });
  return { l, advance: (ms: number) => (t += ms), many: (owner: string, n: number) => Array.from({ length: n }, () => l.laneOf(owner)) };
}

describe('OwnerLanes', () => {
  it("keeps an owner's burst on the default lane and sends what passes it to the bulk lane", () => {
    const { many } = lanes(10, 5);
    expect(many('a', 7)).toEqual(['default', 'default', 'default', 'default', 'default', 'bulk', 'bulk']);
  });

  it('keeps a steady owner at its rate on the default lane however long it sends', () => {
    const { l, advance } = lanes(10, 5);
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      seen.add(l.laneOf('steady'));
      advance(100);
    }
    expect([...seen]).toEqual(['default']);
  });

  it('keeps a flooding owner on the bulk lane until its bucket refilled, while it still sends over its rate', () => {
    const { l, advance, many } = lanes(10, 5);
    many('a', 6);
    // 20/s against a rate of 10/s (refilled at 15/s on the bulk lane): nothing creeps back to the default lane.
    const during = Array.from({ length: 40 }, () => (advance(50), l.laneOf('a')));
    expect(new Set(during)).toEqual(new Set(['bulk']));
    // Quiet for burst / (1.5 × rate) = 0.33 s: full again, back on the default lane.
    advance(250);
    expect(l.laneOf('a')).toBe('bulk');
    advance(400);
    expect(l.laneOf('a')).toBe('default');
  });

  it('brings an owner at its rate back to the default lane after a clump ran its bucket dry', () => {
    const { l, advance, many } = lanes(10, 50);
    // Its events reach the dispatcher in one clump (e.g. the API stalled): the bucket runs dry.
    expect(many('b', 60).slice(-1)).toEqual(['bulk']);
    const lanesAtRate = Array.from({ length: 200 }, () => (advance(100), l.laneOf('b')));
    // At 10/s the bucket refills at 15/s on the bulk lane: full after 50 / 5 = 10 s, then it stays.
    expect(lanesAtRate.indexOf('default')).toBeGreaterThan(90);
    expect(lanesAtRate.indexOf('default')).toBeLessThanOrEqual(101);
    expect(new Set(lanesAtRate.slice(110))).toEqual(new Set(['default']));
  });

  it("never moves one owner's flood onto another owner, nor an event of no owner", () => {
    const { l, many } = lanes(10, 3);
    many('a', 10);
    expect(many('b', 3)).toEqual(['default', 'default', 'default']);
    expect(l.laneOf(undefined)).toBe('default');
  });

  it('puts everything on the default lane at rate 0', () => {
    const { many } = lanes(0, 1);
    expect(new Set(many('a', 100))).toEqual(new Set(['default']));
  });

  it('forgets the least recent owner past its bound: it starts again with a full bucket', () => {
    const { l, many } = lanes(10, 2, 2);
    many('a', 3);
    expect(l.laneOf('a')).toBe('bulk');
    l.laneOf('b');
    l.laneOf('c');
    expect(l.laneOf('a')).toBe('default');
  });

  it('tells whether an owner other than the one asking started on the default lane lately', () => {
    const { l, advance, many } = lanes(10, 5);
    many('a', 3);
    expect([l.othersActive('a', 2000), l.othersActive('b', 2000)]).toEqual([false, true]);
    many('b', 1);
    expect([l.othersActive('a', 2000), l.othersActive('b', 2000)]).toEqual([true, true]);
    // a floods onto the bulk lane: only its default-lane starts count as sending beside b.
    many('a', 20);
    advance(1500);
    many('b', 1);
    advance(1000);
    expect([l.othersActive('a', 2000), l.othersActive('b', 2000)]).toEqual([true, false]);
    advance(1500);
    expect(l.othersActive('a', 2000)).toBe(false);
  });

  it('names the bulk task queue after the default one; workers poll both', () => {
    expect(laneTaskQueue('webhook-deliveries')).toBe('webhook-deliveries');
    expect(laneTaskQueue('webhook-deliveries', 'bulk')).toBe('webhook-deliveries-bulk');
    expect(laneTaskQueues('q')).toEqual(['q', 'q-bulk']);
  });
});
