import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/auth/api-keys';
import { type DeliveryDeps, listAttempts, listSubscriptionEvents } from '../../../src/deliveries/use-cases';
import type { EventDoc } from '../../../src/events/repository';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';

const principal: Principal = { keyId: 'key_1', ownerId: 'owner_1', scopes: ['orders:read', 'webhooks:read'] };

const event = { _id: 'evt_1', type: 'order.created', created_at: new Date('2026-11-28T09:00:00Z'), data: { id: 7 } } as unknown as EventDoc;

/** A deps whose subscription read answers when `own` is called, recording what the lists read and when. */
function deps(opts: { listFails?: boolean } = {}) {
  const calls: string[] = [];
  let answer: (sub: SubscriptionDoc | undefined) => void = () => undefined;
  const subscription = new Promise<SubscriptionDoc | undefined>((resolve) => (answer = resolve));
  const read = <T>(name: string, value: T) => () => {
    calls.push(name);
    return opts.listFails ? Promise.reject(new Error(`${name} failed`)) : Promise.resolve(value);
  };
  const d = {
    subscriptions: {
      findOwned: () => {
        calls.push('subscription');
        return subscription;
      },
    },
    events: { listForSubscription: read('events', [event]), find: () => Promise.resolve(undefined) },
    attempts: { listForSubscription: read('attempts', []), pageSummaries: read('summaries', new Map()) },
    eventScopes: new Map([['order.created', ['orders:read']]]),
    publicUrl: 'https://hooks.example',
  } as unknown as DeliveryDeps;
  const own = (sub: Partial<SubscriptionDoc> | undefined) => answer(sub && ({ _id: 'sub_1', owner_id: 'owner_1', events: ['order.created'], status: 'active', ...sub } as SubscriptionDoc));
  return { d, calls, own };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('a subscription list reads its page while the subscription is checked', () => {
  it('starts the events page and its attempts before the subscription answers, and returns them once it is the caller’s', async () => {
    const { d, calls, own } = deps();
    const page = listSubscriptionEvents(d, principal, 'sub_1', {}, 'http://127.0.0.1');
    await tick();
    expect(calls).toEqual(['events', 'subscription', 'summaries']);
    own({});
    expect((await page).data.map((e) => e.id)).toEqual(['evt_1']);
  });

  it('starts the attempts page before the subscription answers', async () => {
    const { d, calls, own } = deps();
    const page = listAttempts(d, principal, 'sub_1', {});
    await tick();
    expect(calls).toEqual(['attempts', 'subscription']);
    own({});
    expect((await page).data).toEqual([]);
  });

  it('answers 404 for a subscription that is not the caller’s, whatever the reads did', async () => {
    for (const listFails of [false, true]) {
      const events = deps({ listFails });
      const eventsPage = listSubscriptionEvents(events.d, principal, 'sub_2', {}, 'http://127.0.0.1');
      events.own(undefined);
      await expect(eventsPage).rejects.toMatchObject({ kind: 'not_found', message: 'No subscription sub_2' });
      const attempts = deps({ listFails });
      const attemptsPage = listAttempts(attempts.d, principal, 'sub_2', {});
      attempts.own(undefined);
      await expect(attemptsPage).rejects.toMatchObject({ kind: 'not_found' });
    }
  });

  it('fails with the read’s error when the subscription is the caller’s and the read failed', async () => {
    const { d, own } = deps({ listFails: true });
    const page = listSubscriptionEvents(d, principal, 'sub_1', {}, 'http://127.0.0.1');
    own({});
    await expect(page).rejects.toThrow('events failed');
  });
});
