import type { Db } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { ApiKeyRepository, hashApiKey, KEY_STATUS_CACHE_TTL_MS, UNKNOWN_KEY_CACHE_TTL_MS } from '../../../src/auth/api-keys';
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

interface StoredKey {
  _id: string;
  owner_id: string;
  scopes: string[];
  hash: string;
  revoked_at?: Date;
}

/** A key store another process may change: finds by hash or id, applies this process's writes; counts the reads by hash. */
function fakeKeyStore() {
  const docs: StoredKey[] = [];
  const counts = { byHash: 0 };
  const live = (d: StoredKey) => !d.revoked_at;
  const collection = {
    findOne: (filter: { hash?: string; _id?: string }) => {
      if (filter.hash !== undefined) counts.byHash++;
      const doc = docs.find((d) => live(d) && (filter.hash === undefined || d.hash === filter.hash) && (filter._id === undefined || d._id === filter._id));
      return Promise.resolve(doc ? { ...doc, scopes: [...doc.scopes] } : null);
    },
    insertOne: (doc: StoredKey) => {
      docs.push(doc);
      return Promise.resolve({ insertedId: doc._id });
    },
    updateOne: (filter: { _id: string }, update: { $set: Partial<StoredKey> }) => {
      const doc = docs.find((d) => d._id === filter._id);
      if (doc) Object.assign(doc, update.$set);
      return Promise.resolve({ matchedCount: doc ? 1 : 0, modifiedCount: doc ? 1 : 0 });
    },
  };
  return { db: { collection: () => collection } as unknown as Db, docs, counts };
}

describe('ApiKeyRepository.authenticate', () => {
  it(`reads a key once per ${KEY_STATUS_CACHE_TTL_MS} ms: a revoke in another process holds within that`, async () => {
    let now = 1_000_000;
    const { db, docs, counts } = fakeKeyStore();
    const keys = new ApiKeyRepository(db, { now: () => now });
    const { key, principal } = await keys.create({ ownerId: 'o', name: 't', scopes: ['webhooks:read'] });
    expect(await keys.authenticate(key)).toEqual(principal);
    expect(await keys.authenticate(key)).toEqual(principal);
    expect(counts.byHash).toBe(1);
    docs[0]!.revoked_at = new Date();
    now += KEY_STATUS_CACHE_TTL_MS - 1;
    expect(await keys.authenticate(key)).toEqual(principal);
    now += 1;
    expect(await keys.authenticate(key)).toBeUndefined();
    expect(counts.byHash).toBe(2);
  });

  it('applies a revoke or scope change made by this process at once', async () => {
    const { db } = fakeKeyStore();
    const keys = new ApiKeyRepository(db, { now: () => 0 });
    const a = await keys.create({ ownerId: 'o', name: 'a', scopes: ['webhooks:read'] });
    const b = await keys.create({ ownerId: 'o', name: 'b', scopes: ['webhooks:read'] });
    await keys.authenticate(a.key);
    await keys.authenticate(b.key);
    expect(await keys.setScopes(a.principal.keyId, ['webhooks:write'])).toBe(true);
    expect((await keys.authenticate(a.key))?.scopes).toEqual(['webhooks:write']);
    expect(await keys.revoke(b.principal.keyId)).toBe(true);
    expect(await keys.authenticate(b.key)).toBeUndefined();
    expect((await keys.authenticate(a.key))?.scopes).toEqual(['webhooks:write']);
  });

  it(`remembers an unknown key for ${UNKNOWN_KEY_CACHE_TTL_MS} ms, but a key this process creates works at once`, async () => {
    let now = 0;
    const { db, docs, counts } = fakeKeyStore();
    const keys = new ApiKeyRepository(db, { now: () => now });
    const elsewhere = 'whk_made_by_another_process';
    expect(await keys.authenticate(elsewhere)).toBeUndefined();
    docs.push({ _id: 'key_other', owner_id: 'o', scopes: ['admin'], hash: hashApiKey(elsewhere) });
    expect(await keys.authenticate(elsewhere)).toBeUndefined();
    expect(counts.byHash).toBe(1);
    now += UNKNOWN_KEY_CACHE_TTL_MS;
    expect((await keys.authenticate(elsewhere))?.keyId).toBe('key_other');

    const mine = 'whk_created_here';
    expect(await keys.authenticate(mine)).toBeUndefined();
    await keys.create({ ownerId: 'o', name: 'mine', scopes: ['webhooks:read'], key: mine });
    expect((await keys.authenticate(mine))?.ownerId).toBe('o');
  });

  it('does not cache what a read begun before a revoke found', async () => {
    const { db } = fakeKeyStore();
    const keys = new ApiKeyRepository(db, { now: () => 0 });
    const { key, principal } = await keys.create({ ownerId: 'o', name: 't', scopes: ['webhooks:read'] });
    const racing = keys.authenticate(key);
    await keys.revoke(principal.keyId);
    await racing;
    expect(await keys.authenticate(key)).toBeUndefined();
  });

  it('hands out copies: a caller changing its principal changes no other', async () => {
    const { db } = fakeKeyStore();
    const keys = new ApiKeyRepository(db, { now: () => 0 });
    const { key } = await keys.create({ ownerId: 'o', name: 't', scopes: ['webhooks:read'] });
    (await keys.authenticate(key))!.scopes.push('admin');
    expect((await keys.authenticate(key))?.scopes).toEqual(['webhooks:read']);
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
