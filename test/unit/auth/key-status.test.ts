import type { Db } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { ApiKeyRepository, KEY_STATUS_CACHE_TTL_MS } from '../../../src/auth/api-keys';
import { grantsAllowed } from '../../../src/portal/sessions';

/** One stored key another process may change; counts the reads. */
function fakeKeys(doc: { _id: string; scopes: string[]; revoked_at?: Date }) {
  const counts = { reads: 0 };
  const collection = {
    findOne: (filter: { _id: string }) => {
      counts.reads++;
      return Promise.resolve(filter._id === doc._id && !doc.revoked_at ? { _id: doc._id, scopes: [...doc.scopes] } : null);
    },
  };
  return { db: { collection: () => collection } as unknown as Db, counts, doc };
}

describe('ApiKeyRepository.currentScopes', () => {
  it(`trusts what it read for ${KEY_STATUS_CACHE_TTL_MS} ms at most: a key revoked elsewhere stops working within that`, async () => {
    let now = 1_000_000;
    const { db, counts, doc } = fakeKeys({ _id: 'key_1', scopes: ['webhooks:read'] });
    const keys = new ApiKeyRepository(db, { now: () => now });
    expect(await keys.currentScopes('key_1')).toEqual(['webhooks:read']);
    doc.revoked_at = new Date();
    now += KEY_STATUS_CACHE_TTL_MS - 1;
    expect(await keys.currentScopes('key_1')).toEqual(['webhooks:read']);
    expect(counts.reads).toBe(1);
    now += 1;
    expect(await keys.currentScopes('key_1')).toBeUndefined();
    expect(counts.reads).toBe(2);
    expect(KEY_STATUS_CACHE_TTL_MS).toBeLessThanOrEqual(5_000);
  });

  it('caches an unknown key too, for the same bound', async () => {
    let now = 0;
    const { db, counts } = fakeKeys({ _id: 'key_1', scopes: [] });
    const keys = new ApiKeyRepository(db, { now: () => now });
    expect(await keys.currentScopes('key_x')).toBeUndefined();
    expect(await keys.currentScopes('key_x')).toBeUndefined();
    expect(counts.reads).toBe(1);
    now += KEY_STATUS_CACHE_TTL_MS;
    await keys.currentScopes('key_x');
    expect(counts.reads).toBe(2);
  });
});

describe('grantsAllowed', () => {
  it("keeps only the grants the key's current scopes allow; alerts only while it is an admin key", () => {
    const all = ['webhooks:read', 'webhooks:write', 'resources:read', 'alerts:read'] as const;
    expect(grantsAllowed([...all], ['admin'])).toEqual([...all]);
    expect(grantsAllowed([...all], ['webhooks:read', 'resources:read'])).toEqual(['webhooks:read', 'resources:read']);
    expect(grantsAllowed(['webhooks:read'], ['webhooks:write'])).toEqual([]);
  });
});
