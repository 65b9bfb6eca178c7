import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/db/ids';
import { eventGroups, eventIdTime, GROUP_WIDTHS_MS, groupsToRead } from '../../../src/deliveries/event-groups';

const t0 = Date.UTC(2026, 10, 27, 12, 0, 0);

describe('event groups', () => {
  it('reads the time back from an id made by newId, and none from another id', () => {
    expect(eventIdTime(newId('evt', t0))).toBe(t0);
    expect(eventIdTime('evt_0000000000000001')).toBeUndefined();
  });

  it('reads at most two groups for a page of timed ids, whatever its length or span, and they hold every id', () => {
    for (const [count, spacing] of [[21, 1], [21, 250], [101, 250], [101, 60_000], [21, 3_600_000]] as const) {
      const ids = Array.from({ length: count }, (_, i) => newId('evt', t0 - i * spacing));
      const read = new Set(groupsToRead('sub_a', ids));
      expect(read.size, `${count} ids ${spacing} ms apart`).toBeLessThanOrEqual(2);
      for (const id of ids) expect(eventGroups('sub_a', id).some((g) => read.has(g))).toBe(true);
    }
  });

  it('reads the narrowest groups that hold the page', () => {
    const ids = [newId('evt', t0), newId('evt', t0 + 5_000)];
    const level = GROUP_WIDTHS_MS.findIndex((w) => w >= 5_000);
    expect(groupsToRead('sub_a', ids).every((g) => g.startsWith(`sub_a~${level}:`))).toBe(true);
  });

  it('reads an id without a time on its own, and never another subscription\u2019s groups', () => {
    const timed = newId('evt', t0);
    expect(groupsToRead('sub_a', ['evt_0000000000000001', timed])).toEqual(['sub_a~x:evt_0000000000000001', `sub_a~0:${Math.floor(t0 / 64)}`]);
    expect(eventGroups('sub_a', 'evt_0000000000000001')).toEqual(['sub_a~x:evt_0000000000000001']);
    expect(eventGroups('sub_b', timed).some((g) => groupsToRead('sub_a', [timed]).includes(g))).toBe(false);
  });
});
