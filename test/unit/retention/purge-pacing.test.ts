import { describe, expect, it } from 'vitest';
import type { Expiring } from '../../../src/db/timeline';
import { purgeRounds } from '../../../src/retention/purge';

/** A backlog of `rounds` rounds, each deleting 10 documents in `roundMs` of the fake clock. */
function backlog(rounds: number, roundMs: number, clock: { t: number }): Expiring {
  let left = rounds;
  return {
    expire: () => {
      clock.t += roundMs;
      left--;
      return Promise.resolve({ deleted: 10, buckets: 1, more: left > 0 });
    },
  };
}

describe('retention pacing', () => {
  const run = (busyShare: number | undefined, budgetMs = 60_000) => {
    const clock = { t: 0 };
    const rests: number[] = [];
    const rest = (ms: number) => {
      rests.push(ms);
      clock.t += ms;
      return Promise.resolve();
    };
    const opts = { before: new Date(), batchSize: 10, maxBatches: 100, budgetMs, rest, clock: () => clock.t, ...(busyShare !== undefined ? { busyShare } : {}) };
    return purgeRounds(backlog(4, 100, clock), opts).then((r) => ({ r, rests, elapsed: clock.t }));
  };

  it('rests after each round that leaves more, so deleting takes the configured share of the time', async () => {
    const { r, rests, elapsed } = await run(0.25);
    expect(r).toEqual({ deleted: 40, batches: 4, more: false });
    // 100 ms rounds at a quarter of the time: 300 ms of rest after each but the last.
    expect(rests).toEqual([300, 300, 300]);
    expect(elapsed).toBe(1300);
  });

  it('does not rest at all by default (a share of 1)', async () => {
    const { rests, elapsed } = await run(undefined);
    expect(rests).toEqual([]);
    expect(elapsed).toBe(400);
  });

  it('never rests past the call budget', async () => {
    const { r, rests } = await run(0.1, 500);
    // Round 1 ends at 100 ms; 900 ms of rest is cut to the 400 ms left; then the budget is spent.
    expect(rests).toEqual([400]);
    expect(r).toEqual({ deleted: 10, batches: 1, more: true });
  });
});
