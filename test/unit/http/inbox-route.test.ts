import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { describe, expect, it, vi } from 'vitest';
import type { InboxDeps } from '../../../src/deliveries/inbox-use-cases';
import { LongPolls } from '../../../src/http/long-polls';
import { HttpProblem } from '../../../src/http/problem';
import { inboxHandlers } from '../../../src/http/routes/inbox';

vi.mock('../../../src/http/security', () => ({ principalOf: () => ({ keyId: 'k', ownerId: 'o', scopes: ['webhooks:read'] }) }));

const sub = { _id: 'sub_1', owner_id: 'o', events: [], destination: { type: 'pull' } };
const deps = {
  subscriptions: { findOwned: () => Promise.resolve(sub) },
  inbox: { waiting: () => Promise.resolve([]), bodies: () => Promise.resolve(new Map()) },
  eventScopes: new Map(),
  wake: () => Promise.resolve(),
  pollIntervalMs: 1,
} as unknown as InboxDeps;

function call(polls: LongPolls, wait: number) {
  const socket = { timeout: 30_000, setTimeout: vi.fn() };
  const res = Object.assign(new EventEmitter(), { json: vi.fn() });
  const handler = inboxHandlers(deps, polls).listInboxMessages!;
  const done = Promise.resolve(handler({ path: { subscription_id: 'sub_1' }, query: { wait } } as never, { socket } as unknown as Request, res as unknown as Response, () => undefined));
  return { socket, res, done };
}

describe('the inbox read route', () => {
  it('keeps the socket open past the longest wait', async () => {
    const { socket, res, done } = call(new LongPolls(), 30);
    expect(socket.setTimeout).toHaveBeenCalledWith(35_000);
    // Answered: the connection's idle timeout is the server's again.
    res.emit('close');
    await done;
    res.emit('finish');
    expect(socket.setTimeout).toHaveBeenLastCalledWith(30_000);
  });

  it('refuses a wait beyond the parked polls of a subscription with 429 naming wait', async () => {
    const polls = new LongPolls({ perProcess: 10, perSubscription: 1 });
    const held = polls.park('sub_1');
    const { done } = call(polls, 5);
    const err = (await done.catch((e: unknown) => e)) as HttpProblem;
    expect(err).toBeInstanceOf(HttpProblem);
    expect(err).toMatchObject({ status: 429, errors: [{ path: '/query/wait' }] });
    held!();
    expect(polls.size).toBe(0);
    expect(polls.park('other')).toBeDefined();
  });
});
