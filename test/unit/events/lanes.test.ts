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
    // 20/s against a rate of 10/s: refills never catch up, so nothing creeps back to the default lane.
    const during = Array.from({ length: 40 }, () => (advance(50), l.laneOf('a')));
    expect(new Set(during)).toEqual(new Set(['bulk']));
    // Quiet for burst/rate = 0.5 s: full again, back on the default lane.
    advance(499);
    expect(l.laneOf('a')).toBe('bulk');
    advance(1000);
    expect(l.laneOf('a')).toBe('default');
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

  it('names the bulk task queue after the default one; workers poll both', () => {
    expect(laneTaskQueue('webhook-deliveries')).toBe('webhook-deliveries');
    expect(laneTaskQueue('webhook-deliveries', 'bulk')).toBe('webhook-deliveries-bulk');
    expect(laneTaskQueues('q')).toEqual(['q', 'q-bulk']);
  });
});
