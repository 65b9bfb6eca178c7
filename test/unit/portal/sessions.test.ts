import { describe, expect, it } from 'vitest';
import { PortalSessions, PortalTokenError } from '../../../src/portal/sessions';

const key = Buffer.alloc(32, 7);
const grants = ['webhooks:read', 'webhooks:write'] as const;

describe('PortalSessions', () => {
  it('verifies the token it issued, with its owner, grants and expiry', async () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const sessions = new PortalSessions(key, { now: () => now });
    const { session, token } = await sessions.issue({ keyId: 'key_1', ownerId: 'customer-1', grants: [...grants], admin: false, expiresInSeconds: 3600 });
    expect(token).toMatch(/^whps_[\w-]+\.[\w-]{43}$/);
    expect(session.expiresAt.toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(await sessions.verify(token)).toEqual(session);
  });

  it('refuses a token once it expires, naming when', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const sessions = new PortalSessions(key, { now: () => now });
    const { token } = await sessions.issue({ keyId: 'key_1', ownerId: 'o', grants: [...grants], admin: false, expiresInSeconds: 60 });
    now = new Date('2026-01-01T00:01:00Z');
    const refusal = await sessions.verify(token).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(PortalTokenError);
    expect(refusal).toMatchObject({ reason: 'expired' });
    expect((refusal as PortalTokenError).message).toContain('expired at 2026-01-01T00:01:00.000Z');
  });

  it('refuses a token issued at or before its owner\'s expire-all cut-off, and only those', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const cutOffs = new Map<string, Date>();
    const sessions = new PortalSessions(key, { now: () => now, revokedBefore: (owner) => Promise.resolve(cutOffs.get(owner)) });
    const input = { grants: [...grants], admin: false, expiresInSeconds: 3600 };
    const old = (await sessions.issue({ keyId: 'key_1', ownerId: 'a', ...input })).token;
    const otherOwner = (await sessions.issue({ keyId: 'key_1', ownerId: 'b', ...input })).token;
    now = new Date('2026-01-01T00:00:01Z');
    cutOffs.set('a', now);
    const refusal = await sessions.verify(old).catch((err: unknown) => err);
    expect(refusal).toMatchObject({ reason: 'ended' });
    expect((refusal as PortalTokenError).message).toContain('was ended at 2026-01-01T00:00:01.000Z');
    expect((await sessions.verify(otherOwner)).ownerId).toBe('b');
    now = new Date('2026-01-01T00:00:01.001Z');
    const fresh = (await sessions.issue({ keyId: 'key_1', ownerId: 'a', ...input })).token;
    expect((await sessions.verify(fresh)).issuedAt).toEqual(now);
  });

  it('refuses a token signed with another key or with altered claims', async () => {
    const { token } = await new PortalSessions(Buffer.alloc(32, 8)).issue({ keyId: 'key_1', ownerId: 'o', grants: [...grants], admin: true, expiresInSeconds: 60 });
    const sessions = new PortalSessions(key);
    await expect(sessions.verify(token)).rejects.toMatchObject({ reason: 'signature' });
    const [body, sig] = (await sessions.issue({ keyId: 'key_1', ownerId: 'o', grants: [...grants], admin: false, expiresInSeconds: 60 })).token.split('.');
    const claims = JSON.parse(Buffer.from(body!.slice(5), 'base64url').toString()) as object;
    const promoted = `whps_${Buffer.from(JSON.stringify({ ...claims, adm: true })).toString('base64url')}.${sig}`;
    await expect(sessions.verify(promoted)).rejects.toMatchObject({ reason: 'signature' });
  });

  it('accepts one spelling of a token only: trailing characters on the signature are refused', async () => {
    const sessions = new PortalSessions(key);
    const { token } = await sessions.issue({ keyId: 'key_1', ownerId: 'o', grants: [...grants], admin: false, expiresInSeconds: 60 });
    for (const variant of [`${token}=`, `${token}!!`, `${token}A`]) {
      await expect(sessions.verify(variant), variant).rejects.toMatchObject({ reason: 'signature' });
    }
  });

  it('refuses malformed tokens without throwing anything but PortalTokenError', async () => {
    const sessions = new PortalSessions(key);
    for (const bad of ['whk_abc', 'whps_', 'whps_abc', 'whps_.x', `whps_${Buffer.from('[]').toString('base64url')}.AAAA`]) {
      await expect(sessions.verify(bad), bad).rejects.toBeInstanceOf(PortalTokenError);
    }
  });

  it('loads its key once, retries a failed load, and refuses keys shorter than 32 bytes', async () => {
    let loads = 0;
    const sessions = new PortalSessions(() => {
      loads += 1;
      return loads === 1 ? Promise.reject(new Error('database away')) : Promise.resolve(key);
    });
    const input = { ownerId: 'o', keyId: 'key_1', grants: [...grants], admin: false, expiresInSeconds: 60 };
    await expect(sessions.issue(input)).rejects.toThrow('database away');
    const { token } = await sessions.issue(input);
    await sessions.verify(token);
    expect(loads).toBe(2);
    await expect(new PortalSessions(Buffer.alloc(16)).issue(input)).rejects.toThrow('at least 32 bytes');
  });

  it("ends with its key and holds no more than the key's current scopes", async () => {
    const held = new Map<string, string[]>([['key_1', ['webhooks:read', 'webhooks:write']]]);
    const sessions = new PortalSessions(key, { keyScopes: (id) => Promise.resolve(held.get(id)) });
    const { token } = await sessions.issue({ keyId: 'key_1', ownerId: 'o', grants: [...grants], admin: false, expiresInSeconds: 60 });
    expect((await sessions.verify(token)).grants).toEqual([...grants]);
    held.set('key_1', ['webhooks:read']);
    expect((await sessions.verify(token)).grants).toEqual(['webhooks:read']);
    held.delete('key_1');
    const refusal = await sessions.verify(token).catch((err: unknown) => err);
    expect(refusal).toMatchObject({ reason: 'ended' });
    expect((refusal as PortalTokenError).message).toContain('revoked');
  });
});
