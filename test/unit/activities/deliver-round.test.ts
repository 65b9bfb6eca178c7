import { describe, expect, it } from 'vitest';
import type { AttemptLogEntry, MadeAttempt } from '../../../activities/attempt';
import { deliverRoundWith, type RoundInput } from '../../../activities/deliver-round';
import { settleRound } from '../../../workflows/delivery-model';

const now = 1_000_000;
const made = (statusCode: number): MadeAttempt => ({ startedAt: now, durationMs: 3, outcome: statusCode < 300 ? 'delivered' : 'http_error', statusCode, responseExcerpt: '', url: 'https://r.example/' });
const round: RoundInput = {
  eventId: 'evt_1',
  attempts: [
    { eventId: 'evt_1', subscriptionId: 'a', attempt: 1 },
    { eventId: 'evt_1', subscriptionId: 'b', attempt: 2 },
    { eventId: 'evt_1', subscriptionId: 'c', attempt: 1 },
  ],
  policy: { scheduleMs: [60_000], maxAttempts: 3, jitterRatio: 0.1 },
  due: [
    ['a', { attempt: 1, at: now }],
    ['b', { attempt: 2, at: now }],
    ['c', { attempt: 1, at: now }],
  ],
  randoms: [0.1, 0.5, 0.9],
  origin: 'event/evt_1',
};
const results = [made(200), made(503), { outcome: 'skipped' as const, reason: 'subscription paused' }];

describe('deliverRoundWith', () => {
  it('settles the answers as the workflow would, and logs the made attempts', async () => {
    const logged: AttemptLogEntry[][] = [];
    const done = await deliverRoundWith(round, {
      post: () => Promise.resolve(results),
      record: (entries) => {
        logged.push(entries);
        return Promise.resolve({ failing: [{ subscriptionId: 'b', since: 1 }] });
      },
      now: () => now,
    });
    expect(done.steps).toEqual(settleRound(round.policy, round.due, results, round.randoms, now));
    expect(done).toMatchObject({ logged: true, failing: [{ subscriptionId: 'b', since: 1 }] });
    expect(logged).toHaveLength(1);
    expect(logged[0]!.map((e) => [e.subscriptionId, e.attempt, e.state])).toEqual([
      ['a', 1, 'delivered'],
      ['b', 2, 'retrying'],
    ]);
  });

  it('returns the steps unlogged when the log write fails after the POSTs, rather than throwing', async () => {
    const errors: unknown[] = [];
    const done = await deliverRoundWith(round, { post: () => Promise.resolve(results), record: () => Promise.reject(new Error('db down')), now: () => now, logFailed: (e) => errors.push(e) });
    expect(done).toMatchObject({ logged: false, failing: [] });
    expect(done.steps).toHaveLength(3);
    expect(errors).toHaveLength(1);
  });

  it('throws when the POSTs cannot be prepared (nothing sent), and writes nothing for a round without made attempts', async () => {
    await expect(deliverRoundWith(round, { post: () => Promise.reject(new Error('no subscriptions')), record: () => Promise.reject(new Error('not called')), now: () => now })).rejects.toThrow('no subscriptions');
    const skipped = results.map(() => results[2]!);
    const done = await deliverRoundWith(round, { post: () => Promise.resolve(skipped), record: () => Promise.reject(new Error('not called')), now: () => now });
    expect(done).toMatchObject({ logged: true, failing: [] });
  });
});
