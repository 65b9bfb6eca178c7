import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config';
import { parseSecretKey, SecretBox, SecretBoxError, type SecretKey } from '../../../src/subscriptions/secret-box';

const key = (id: string): SecretKey => ({ id, key: randomBytes(32) });
const secret = 'whsec_' + randomBytes(24).toString('base64');

describe('SecretBox', () => {
  it('seals under the current key so the stored form holds no trace of the secret, and opens it again', () => {
    const box = new SecretBox(key('k1'));
    const stored = box.seal(secret, 'sub_a');
    expect(stored).toMatch(/^enc:v1:k1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(stored).not.toContain(secret.slice(6, 20));
    expect(box.seal(secret, 'sub_a')).not.toBe(stored);
    expect(box.open(stored, 'sub_a')).toBe(secret);
  });

  it('refuses a sealed secret moved to another subscription, altered, or under a key it does not have', () => {
    const k1 = key('k1');
    const box = new SecretBox(k1);
    const stored = box.seal(secret, 'sub_a');
    expect(() => box.open(stored, 'sub_b')).toThrow(SecretBoxError);
    const tampered = stored.slice(0, -2) + (stored.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(tampered, 'sub_a')).toThrow('does not open with key k1');
    expect(() => new SecretBox(key('k2')).open(stored, 'sub_a')).toThrow('key k1, which is not configured');
  });

  it('rotates keys: the new key seals, the old one still opens, and what it sealed is stale', () => {
    const k1 = key('k1');
    const old = new SecretBox(k1).seal(secret, 'sub_a');
    const rotated = new SecretBox(key('k2'), [k1]);
    expect(rotated.open(old, 'sub_a')).toBe(secret);
    expect(rotated.isStale(old)).toBe(true);
    expect(rotated.isStale(rotated.seal(secret, 'sub_a'))).toBe(false);
    expect(rotated.isStale(secret)).toBe(true);
  });

  it('without a key stores and opens plaintext, as before encryption', () => {
    const box = new SecretBox(undefined);
    expect(box.sealing).toBe(false);
    expect(box.seal(secret, 'sub_a')).toBe(secret);
    expect(box.open(secret, 'sub_a')).toBe(secret);
    expect(box.isStale(secret)).toBe(false);
  });

  it('parses <key id>:<base64 of 32 bytes> and names what is wrong', () => {
    const raw = randomBytes(32).toString('base64');
    expect(parseSecretKey(`k1:${raw}`)).toEqual({ id: 'k1', key: Buffer.from(raw, 'base64') });
    expect(parseSecretKey(`k1:${randomBytes(16).toString('base64')}`)).toBe('the key must be 32 bytes (base64 of 32 random bytes), got 16');
    expect(parseSecretKey(raw)).toBe('must look like <key id>:<base64 of 32 random bytes>');
  });
});

describe('secret keys in the configuration', () => {
  it('are required in production and validated by name', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/\n {2}SECRET_ENCRYPTION_KEY: is required when NODE_ENV=production/);
    expect(() => loadConfig({ SECRET_ENCRYPTION_KEY: 'k1:short' })).toThrow(/\n {2}SECRET_ENCRYPTION_KEY: the key must be 32 bytes/);
    expect(() => loadConfig({ SECRET_ENCRYPTION_KEYS: 'nope' })).toThrow(/\n {2}SECRET_ENCRYPTION_KEYS: each must look like/);
    const current = `k2:${randomBytes(32).toString('base64')}`;
    const older = `k1:${randomBytes(32).toString('base64')}`;
    const c = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://hooks.example.com', SECRET_ENCRYPTION_KEY: current, SECRET_ENCRYPTION_KEYS: older });
    expect([c.secretKeys.current?.id, c.secretKeys.previous.map((k) => k.id)]).toEqual(['k2', ['k1']]);
  });
});
