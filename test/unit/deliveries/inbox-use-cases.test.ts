import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/auth/api-keys';
import type { InboxDoc, InboxHead, InboxRepository, Settlement, SettlementChange } from '../../../src/deliveries/inbox';
import { type InboxDeps, listInbox, pageCursor, reportInboxOutcome } from '../../../src/deliveries/inbox-use-cases';
import type { SubscriptionDoc, SubscriptionRepository } from '../../../src/subscriptions/repository';

const t0 = new Date('2026-11-26T12:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const principal: Principal = { keyId: 'key_1', ownerId: 'o', scopes: ['webhooks:read', 'webhooks:write'] };
const sub = { _id: 'sub_1', owner_id: 'o', events: ['webhook.test'], destination: { type: 'pull' } } as unknown as SubscriptionDoc;

function message(id: string, over: Partial<InboxDoc> = {}): InboxDoc {
  return { _id: id, subscription_id: 'sub_1', event_id: 'evt_1', attempt: 1, seq: `000.${id}`, body: `body of ${id}`, headers: {}, created_at: t0, ack_by: at(30_000), state: 'waiting', ...over };
}

/** The inbox repository's contract in memory, counting body reads. */
function fakeDeps(docs: InboxDoc[], clock: { now: Date }) {
  const byId = new Map(docs.map((d) => [d._id, d]));
  const settlements = new Map<string, Settlement>();
  const woken: string[] = [];
  const counts = { bodies: 0 };
  const inbox = {
    find: (id: string) => Promise.resolve(byId.get(id) ?? null),
    settlement: (id: string) => Promise.resolve(settlements.get(id) ?? null),
    settle: (id: string, change: SettlementChange, when: Date) => {
      if (settlements.has(id)) return Promise.resolve(false);
      settlements.set(id, { _id: id, ...change, settled_at: when });
      Object.assign(byId.get(id)!, change);
      return Promise.resolve(true);
    },
    waiting: (subscriptionId: string, now: Date, limit: number): Promise<InboxHead[]> =>
      Promise.resolve(
        [...byId.values()]
          .filter((d) => d.subscription_id === subscriptionId && d.state === 'waiting' && d.ack_by > now)
          .sort((a, b) => a.seq.localeCompare(b.seq))
          .slice(0, limit)
          .map(({ body: _body, ...head }) => head),
      ),
    bodies: (ids: readonly string[]) => {
      counts.bodies += ids.length;
      return Promise.resolve(new Map(ids.flatMap((id) => (byId.has(id) ? [[id, byId.get(id)!.body] as const] : []))));
    },
  };
  const deps: InboxDeps = {
    subscriptions: { findOwned: (_owner: string, id: string) => Promise.resolve(id === sub._id ? sub : null) } as unknown as SubscriptionRepository,
    inbox: inbox as unknown as InboxRepository,
    eventScopes: new Map(),
    wake: (workflowId) => (woken.push(workflowId), Promise.resolve()),
    now: () => clock.now,
  };
  return { deps, byId, woken, counts };
}

describe('reading a pull inbox', () => {
  it('leaves out messages past their deadline and reads the bodies of the page only', async () => {
    const clock = { now: at(10_000) };
    const { deps, counts } = fakeDeps([message('pmsg_old', { ack_by: at(5000) }), message('pmsg_new')], clock);
    const page = await listInbox(deps, principal, 'sub_1', {});
    expect(page.data.map((m) => m.id)).toEqual(['pmsg_new']);
    expect(page.data[0]!.body).toBe('body of pmsg_new');
    expect(counts.bodies).toBe(1);
  });

  it('serves a message stored late with an earlier producer time: no cursor skips it', async () => {
    const clock = { now: at(1000) };
    const { deps, byId } = fakeDeps([message('pmsg_b', { seq: '002.b' })], clock);
    const first = await listInbox(deps, principal, 'sub_1', {});
    // Made before b by a slower worker, stored after the read.
    byId.set('pmsg_a', message('pmsg_a', { seq: '001.a' }));
    const next = await listInbox(deps, principal, 'sub_1', { cursor: first.next_cursor });
    expect(next.data.map((m) => m.id)).toEqual(['pmsg_a', 'pmsg_b']);
  });

  it('long-polls while the page is the one of the cursor, and answers once it changes', async () => {
    const clock = { now: at(1000) };
    const { deps, byId } = fakeDeps([message('pmsg_a')], clock);
    const first = await listInbox(deps, principal, 'sub_1', {});
    expect(first.next_cursor).toBe(pageCursor(['pmsg_a']));
    let pauses = 0;
    const page = await listInbox(deps, principal, 'sub_1', { cursor: first.next_cursor, wait: 20 }, {
      pause: () => {
        pauses++;
        if (pauses === 2) byId.set('pmsg_b', message('pmsg_b'));
        return Promise.resolve(true);
      },
    });
    expect(pauses).toBe(2);
    expect(page.data.map((m) => m.id)).toEqual(['pmsg_a', 'pmsg_b']);
    // No place to read again: the poll answers what it has.
    const stopped = await listInbox(deps, principal, 'sub_1', { cursor: page.next_cursor, wait: 20 }, { pause: () => Promise.resolve(false) });
    expect(stopped.next_cursor).toBe(page.next_cursor);
  });
});

describe('reporting a pull outcome', () => {
  it('settles once, wakes the workflow running the round, accepts the same report again and refuses another', async () => {
    const clock = { now: at(1000) };
    const { deps, woken } = fakeDeps([message('pmsg_a', { workflow_id: 'event/evt_1', round_workflow_id: 'event/evt_1/part/3' })], clock);
    await reportInboxOutcome(deps, principal, 'sub_1', 'pmsg_a', { status_code: 200, response_excerpt: 'ok', duration_ms: 3 });
    expect(woken).toEqual(['event/evt_1/part/3']);
    await reportInboxOutcome(deps, principal, 'sub_1', 'pmsg_a', { status_code: 200, response_excerpt: 'ok', duration_ms: 3 });
    expect(woken).toHaveLength(1);
    await expect(reportInboxOutcome(deps, principal, 'sub_1', 'pmsg_a', { status_code: 500 })).rejects.toMatchObject({ kind: 'conflict', errors: [{ field: ['status_code'] }] });
  });

  it('refuses a report past the deadline, naming the message', async () => {
    const clock = { now: at(31_000) };
    const { deps } = fakeDeps([message('pmsg_a')], clock);
    await expect(reportInboxOutcome(deps, principal, 'sub_1', 'pmsg_a', { status_code: 200 })).rejects.toMatchObject({ kind: 'conflict', errors: [{ field: ['message_id'] }] });
  });
});
