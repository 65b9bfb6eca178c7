import { describe, expect, it } from 'vitest';
import type { DispatchNotes } from '../../../src/events/dispatch-notes';
import { relayBacklog } from '../../../src/telemetry/delivery-gauges';

describe('relayBacklog', () => {
  it('adds held notes past their due time, counted at most once a minute, to the notes not held', async () => {
    const counts = { waiting: 3, heldDue: 5, heldReads: 0, before: [] as number[] };
    const notes = {
      countWaiting: (before: Date) => (counts.before.push(before.getTime()), Promise.resolve(counts.waiting)),
      countHeldDue: () => (counts.heldReads++, Promise.resolve(counts.heldDue)),
    } as unknown as DispatchNotes;
    let now = 100_000;
    const backlog = relayBacklog(notes, 5_000, () => now);

    expect(await backlog()).toBe(8);
    expect(counts.before).toEqual([95_000]);
    counts.waiting = 1;
    counts.heldDue = 0;
    now += 59_999;
    // The held count is kept for a minute: one scan of a flood's notes per minute, not per scrape.
    expect(await backlog()).toBe(6);
    now += 1;
    expect(await backlog()).toBe(1);
    expect(counts.heldReads).toBe(2);
  });
});
