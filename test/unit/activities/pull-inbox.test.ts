import { describe, expect, it } from 'vitest';
import { PULL_ACK_DEADLINE_MS, type PullRequest, pullAttempt } from '../../../activities/pull-inbox';
import { type InboxDoc, type InboxRepository, inboxMessageId, type ReportedOutcome, type Settlement, type SettlementChange } from '../../../src/deliveries/inbox';

/**
 * The repository's contract in memory: insert-if-absent messages and settlements; a settlement
 * marks its message unless `markLost` (the mark is best effort).
 */
function memoryInbox(opts: { onFind?: (doc: InboxDoc) => void; markLost?: boolean } = {}) {
  const docs = new Map<string, InboxDoc>();
  const settlements = new Map<string, Settlement>();
  const inbox = {
    put: (doc: InboxDoc) => Promise.resolve(docs.has(doc._id) ? false : (docs.set(doc._id, { ...doc }), true)),
    find: (id: string) => {
      const doc = docs.get(id);
      const copy = doc ? { ...doc } : null;
      // After the copy: what changes now is what a concurrent writer did after this read.
      if (doc) opts.onFind?.(doc);
      return Promise.resolve(copy);
    },
    settlement: (id: string) => Promise.resolve(settlements.get(id) ?? null),
    settle: (id: string, change: SettlementChange, at: Date) => {
      if (settlements.has(id)) return Promise.resolve(false);
      settlements.set(id, { _id: id, ...change, settled_at: at });
      const doc = docs.get(id);
      if (doc && !opts.markLost) Object.assign(doc, change);
      return Promise.resolve(true);
    },
  };
  return { inbox: inbox as unknown as InboxRepository, docs, settlements, settle: (id: string, change: SettlementChange) => inbox.settle(id, change, t0) };
}

const t0 = new Date('2026-11-26T12:00:00Z');
const request = (now: Date, over: Partial<PullRequest> = {}): PullRequest => ({
  subscriptionId: 'sub_1',
  eventId: 'evt_1',
  attempt: 1,
  origin: 'event/evt_1',
  url: 'pull://test',
  retry: {},
  now,
  render: () => ({ body: '{"id":"evt_1"}', headers: { 'webhook-id': 'evt_1' } }),
  ...over,
});
const later = (ms: number) => new Date(t0.getTime() + ms);
const reported = (status: number): ReportedOutcome => ({ status_code: status, response_excerpt: 'ok', duration_ms: 5, reported_at: later(1000) });

describe('a pull attempt', () => {
  it('puts one message per attempt and waits until its deadline', async () => {
    const { inbox, docs } = memoryInbox();
    expect(await pullAttempt(inbox, request(t0))).toMatchObject({ outcome: 'deferred', waitMs: PULL_ACK_DEADLINE_MS });
    // Woken early with no report: the same message, the rest of the wait.
    expect(await pullAttempt(inbox, request(later(10_000)))).toMatchObject({ outcome: 'deferred', waitMs: PULL_ACK_DEADLINE_MS - 10_000 });
    expect(docs.size).toBe(1);
    await pullAttempt(inbox, request(later(1), { attempt: 2 }));
    await pullAttempt(inbox, request(later(1), { origin: 'event/evt_1/redelivery/r1' }));
    expect(docs.size).toBe(3);
  });

  it('answers the reported outcome as the attempt, settled like an HTTP answer', async () => {
    const { inbox, docs, settle } = memoryInbox();
    await pullAttempt(inbox, request(t0));
    await settle([...docs.keys()][0]!, { state: 'reported', outcome: reported(503) });
    expect(await pullAttempt(inbox, request(later(2000)))).toEqual({ outcome: 'http_error', statusCode: 503, responseExcerpt: 'ok', durationMs: 5, startedAt: t0.getTime(), url: 'pull://test' });
  });

  it('is a timeout past the deadline, unless the report won the race', async () => {
    const { inbox } = memoryInbox();
    await pullAttempt(inbox, request(t0));
    expect(await pullAttempt(inbox, request(later(PULL_ACK_DEADLINE_MS)))).toMatchObject({ outcome: 'timeout', durationMs: PULL_ACK_DEADLINE_MS });
    // Expired for good: a re-run round answers the same.
    expect(await pullAttempt(inbox, request(later(PULL_ACK_DEADLINE_MS + 5000)))).toMatchObject({ outcome: 'timeout' });

    // The report lands between the round's read and its expiry: the report wins.
    const race = memoryInbox({
      onFind: (doc) => {
        if (doc.state === 'waiting') void race.settle(doc._id, { state: 'reported', outcome: reported(200) });
      },
    });
    await race.inbox.put({ _id: inboxMessageId('event/evt_1', 'sub_1', 1), subscription_id: 'sub_1', event_id: 'evt_1', attempt: 1, seq: '1', body: '', headers: {}, created_at: t0, ack_by: later(1), state: 'waiting' });
    expect(await pullAttempt(race.inbox, request(later(5000)))).toMatchObject({ outcome: 'delivered', statusCode: 200 });
  });

  it('answers the settlement, not the message state: a report whose mark was lost is not expired over', async () => {
    const { inbox, docs, settlements, settle } = memoryInbox({ markLost: true });
    await pullAttempt(inbox, request(t0));
    const id = [...docs.keys()][0]!;
    expect(await settle(id, { state: 'reported', outcome: reported(200) })).toBe(true);
    // The message still says waiting; past its deadline the round finds the report, and settles nothing twice.
    expect(docs.get(id)!.state).toBe('waiting');
    expect(await pullAttempt(inbox, request(later(PULL_ACK_DEADLINE_MS + 1)))).toMatchObject({ outcome: 'delivered', statusCode: 200 });
    expect(settlements.get(id)).toMatchObject({ state: 'reported' });
    expect(await settle(id, { state: 'expired' })).toBe(false);
  });

  it('reads once more, not forever, after losing the insert to its own first try', async () => {
    const { inbox } = memoryInbox();
    let finds = 0;
    const lost = { ...inbox, put: () => Promise.resolve(false), find: () => (finds++, Promise.resolve(null)) } as unknown as InboxRepository;
    await expect(pullAttempt(lost, request(t0))).rejects.toThrow(/neither stored nor found/);
    expect(finds).toBe(2);
  });

  it('records the workflow running the round, for the report to wake', async () => {
    const { inbox, docs } = memoryInbox();
    await pullAttempt(inbox, request(t0, { runner: 'event/evt_1/part/2' }));
    expect([...docs.values()][0]).toMatchObject({ workflow_id: 'event/evt_1', round_workflow_id: 'event/evt_1/part/2' });
  });
});
