import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/auth/api-keys';
import { DomainError } from '../../../src/errors/domain-error';
import type { SubscriptionDoc, SubscriptionRepository } from '../../../src/subscriptions/repository';
import { SecretBox } from '../../../src/subscriptions/secret-box';
import { type SubscriptionDeps, updateSubscription } from '../../../src/subscriptions/use-cases';

const at = new Date('2026-11-01T00:00:00.000Z');
const principal = { ownerId: 'owner-a', scopes: ['webhooks:write'] } as unknown as Principal;

/**
 * A repository holding one subscription, with the conditional update of the real one; `between`
 * runs after the use case's read and before its write, as another request would.
 */
function fakeRepository(doc: SubscriptionDoc | undefined, between: (stored: { doc: SubscriptionDoc | undefined }) => void = () => undefined) {
  const stored = { doc };
  let reads = 0;
  const repo = {
    findOwned: (ownerId: string, id: string) => {
      const found = stored.doc && stored.doc._id === id && stored.doc.owner_id === ownerId ? structuredClone(stored.doc) : undefined;
      if (reads++ === 0) between(stored);
      return Promise.resolve(found);
    },
    updateOwned: (ownerId: string, id: string, set: Partial<SubscriptionDoc>, unset: Array<keyof SubscriptionDoc> = [], unchangedSince?: Date) => {
      const d = stored.doc;
      if (!d || d._id !== id || d.owner_id !== ownerId) return Promise.resolve(undefined);
      if (unchangedSince && d.updated_at.getTime() !== unchangedSince.getTime()) return Promise.resolve(undefined);
      const next: SubscriptionDoc = { ...d, ...set };
      for (const k of unset) delete next[k];
      stored.doc = next;
      return Promise.resolve(structuredClone(next));
    },
  };
  return { stored, repo: repo as unknown as SubscriptionRepository };
}

function depsWith(repo: SubscriptionRepository, box: SecretBox): SubscriptionDeps {
  return {
    subscriptions: repo,
    secrets: box,
    checkUrl: () => Promise.resolve({ ok: true }) as ReturnType<SubscriptionDeps['checkUrl']>,
    eventScopes: new Map([['webhook.test', []]]),
    retryDefaults: { scheduleMs: [1000], maxAttempts: 3 },
    maxPerOwner: 100,
    now: () => at,
  };
}

function subscription(): SubscriptionDoc {
  return { _id: 'sub_1', owner_id: 'owner-a', url: 'https://a.example/hook', events: ['webhook.test'], status: 'active', version: 1, secrets: [], created_at: at, updated_at: at };
}

describe('a subscription change is conditional on the state it was checked against', () => {
  it('refuses with 409 when another request changed it between the read and the write, and writes nothing', async () => {
    const box = new SecretBox({ id: 'k', key: randomBytes(32) });
    // While this PATCH {url} is checked (no headers yet, so none need re-sending), another one adds credentials.
    const { stored, repo } = fakeRepository(subscription(), (s) => {
      s.doc = { ...s.doc!, headers: [{ name: 'X-Tenant-Key', value: 'sealed' }], updated_at: new Date(at.getTime() + 5) };
    });
    const err = await updateSubscription(depsWith(repo, box), principal, 'sub_1', { url: 'https://b.example/hook' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('conflict');
    expect((err as DomainError).title).toBe('Subscription Changed Concurrently');
    // The credentials stay with the URL they were set for.
    expect(stored.doc?.url).toBe('https://a.example/hook');
    expect(stored.doc?.headers).toHaveLength(1);
  });

  it('applies a change when nothing changed meanwhile, moving updated_at on even within the same millisecond', async () => {
    const box = new SecretBox({ id: 'k', key: randomBytes(32) });
    const { stored, repo } = fakeRepository(subscription());
    const first = await updateSubscription(depsWith(repo, box), principal, 'sub_1', { description: 'one' });
    expect(first.description).toBe('one');
    expect(stored.doc?.updated_at.getTime()).toBeGreaterThan(at.getTime());
    const second = await updateSubscription(depsWith(repo, box), principal, 'sub_1', { description: 'two' });
    expect(second.description).toBe('two');
  });

  it('answers 404, not 409, when the subscription was deleted meanwhile', async () => {
    const box = new SecretBox({ id: 'k', key: randomBytes(32) });
    const { repo } = fakeRepository(subscription(), (s) => (s.doc = undefined));
    const err = await updateSubscription(depsWith(repo, box), principal, 'sub_1', { description: 'x' }).catch((e: unknown) => e);
    expect((err as DomainError).kind).toBe('not_found');
  });
});
