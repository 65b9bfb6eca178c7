import { describe, expect, it } from 'vitest';
import type { Expiring } from '../../../src/db/timeline';
import { expireInTurn } from '../../../src/retention/purge';

/** A list of `buckets` old buckets of `perBucket` documents, deleted as Timeline.expire does: stop before a bucket once a limit is reached. */
function list(buckets: number, perBucket: number) {
  const calls: Array<{ maxBuckets: number; maxDocs: number }> = [];
  let left = buckets;
  const expiring: Expiring = {
    expire: (_before, maxBuckets, maxDocs) => {
      calls.push({ maxBuckets, maxDocs });
      let deleted = 0;
      let done = 0;
      while (left > 0 && done < maxBuckets && deleted < maxDocs) {
        left--;
        done++;
        deleted += perBucket;
      }
      return Promise.resolve({ deleted, buckets: done, more: left > 0 });
    },
  };
  return { expiring, calls, left: () => left };
}

describe('expireInTurn', () => {
  it('gives the next list what the first left of the round, and says more while any has some left', async () => {
    const attempts = list(2, 3);
    const inbox = list(5, 1);
    const both = expireInTurn(attempts.expiring, inbox.expiring);
    expect(await both.expire(new Date(), 4, 100)).toEqual({ deleted: 6 + 2, buckets: 4, more: true });
    expect(inbox.calls).toEqual([{ maxBuckets: 2, maxDocs: 94 }]);
    expect(await both.expire(new Date(), 4, 100)).toEqual({ deleted: 3, buckets: 3, more: false });
    expect([attempts.left(), inbox.left()]).toEqual([0, 0]);
  });

  it('does not reach the next list while the first has more', async () => {
    const attempts = list(10, 1);
    const inbox = list(1, 1);
    expect(await expireInTurn(attempts.expiring, inbox.expiring).expire(new Date(), 3, 100)).toEqual({ deleted: 3, buckets: 3, more: true });
    expect(inbox.calls).toEqual([]);
  });
});
