import { createPublicKey, sign, verify as nodeVerify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verify, WebhookVerificationError } from '../../../src/receiver';
import { generateSigningKeyPair, generateSigningSecret } from '../../../src/subscriptions/secrets';
import { ed25519PrivateKey, ed25519Signature, publicKeyOf, signatureHeaders, signedContent, standardWebhooksSignature } from '../../../src/webhooks/signature';

// RFC 8032 section 7.1, TEST 1: the empty message.
const rfc = {
  seed: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
  pub: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
  signature: 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
};

const id = 'evt_0000000000000000abcd';
const now = 1_700_000_000_000;
const ts = now / 1000;
const body = '{"event":"order.created","id":"evt_0000000000000000abcd","data":{"order_id":1,"total":2}}';
const at = { now: () => now };
const h = (x: object) => x as unknown as Record<string, string>;

describe('ed25519 (Standard Webhooks v1a) signatures', () => {
  it('reads whsk_ keys as RFC 8032 does: the known-answer signature, and whpk_ is the raw public key', () => {
    const secret = 'whsk_' + Buffer.from(rfc.seed + rfc.pub, 'hex').toString('base64');
    expect(sign(null, Buffer.alloc(0), ed25519PrivateKey(secret)).toString('hex')).toBe(rfc.signature);
    expect(publicKeyOf(secret)).toBe('whpk_' + Buffer.from(rfc.pub, 'hex').toString('base64'));
  });

  it('generates whsk_ (64 bytes) and whpk_ (32 bytes) keys that belong together', () => {
    const pair = generateSigningKeyPair();
    expect(pair.privateKey).toMatch(/^whsk_[A-Za-z0-9+/]{86}==$/);
    expect(pair.publicKey).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(pair.publicKey.slice(5), 'base64')).toHaveLength(32);
    expect(publicKeyOf(pair.privateKey)).toBe(pair.publicKey);
    expect(generateSigningKeyPair().publicKey).not.toBe(pair.publicKey);
  });

  it('signs id.timestamp.body: v1a,<base64 of 64 bytes>, verifiable with node:crypto and the raw public key alone', () => {
    const pair = generateSigningKeyPair();
    const entry = ed25519Signature(pair.privateKey, id, ts, body);
    expect(entry).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);
    const raw = Buffer.from(pair.publicKey.slice(5), 'base64');
    // The DER SubjectPublicKeyInfo prefix of an Ed25519 key, then the 32 raw bytes: no helper of ours involved.
    const spki = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]), format: 'der', type: 'spki' });
    expect(nodeVerify(null, Buffer.from(`${id}.${ts}.${body}`), spki, Buffer.from(entry.slice(4), 'base64'))).toBe(true);
    expect(signedContent(id, ts, body).toString()).toBe(`${id}.${ts}.${body}`);
  });

  it('an ed25519 delivery has one v1a entry and no X-Signature; the kit verifies it with the public key', () => {
    const pair = generateSigningKeyPair();
    const headers = signatureHeaders({ id, timestamp: ts, body, secrets: [pair.privateKey] });
    expect(headers['X-Signature']).toBeUndefined();
    expect(headers['X-Signature-Previous']).toBeUndefined();
    expect(headers['webhook-signature']).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-timestamp']).toBe(String(ts));
    expect(verify(body, h(headers), pair.publicKey, at)).toEqual(JSON.parse(body));
  });

  it('refuses tampering, a wrong key, a stale timestamp, and a v1a entry under an HMAC secret', () => {
    const pair = generateSigningKeyPair();
    const headers = h(signatureHeaders({ id, timestamp: ts, body, secrets: [pair.privateKey] }));
    expect(() => verify(body.replace('"total":2', '"total":3'), headers, pair.publicKey, at)).toThrow('no matching signature');
    expect(() => verify(body, { ...headers, 'webhook-id': 'evt_0000000000000000abce' }, pair.publicKey, at)).toThrow('no matching signature');
    expect(() => verify(body, { ...headers, 'webhook-timestamp': String(ts + 1) }, pair.publicKey, at)).toThrow('no matching signature');
    expect(() => verify(body, headers, generateSigningKeyPair().publicKey, at)).toThrow('no matching signature');
    expect(() => verify(body, headers, pair.publicKey, { now: () => now + 301_000 })).toThrow('webhook-timestamp too old or too new');
    expect(() => verify(body, headers, generateSigningSecret(), at)).toThrow('no matching signature');
    // A flipped bit in the signature, and garbage of the wrong length, are no match (not a crash).
    const sig = Buffer.from(headers['webhook-signature']!.slice(4), 'base64');
    sig[0] = sig[0]! ^ 1;
    expect(() => verify(body, { ...headers, 'webhook-signature': `v1a,${sig.toString('base64')}` }, pair.publicKey, at)).toThrow('no matching signature');
    expect(() => verify(body, { ...headers, 'webhook-signature': 'v1a,AAAA' }, pair.publicKey, at)).toThrow('no matching signature');
    // The same bytes presented as a v1 entry do not count for a public key.
    expect(() => verify(body, { ...headers, 'webhook-signature': headers['webhook-signature']!.replace('v1a,', 'v1,') }, pair.publicKey, at)).toThrow('no matching signature');
  });

  it('refuses a malformed public key by name', () => {
    const headers = h(signatureHeaders({ id, timestamp: ts, body, secrets: [generateSigningKeyPair().privateKey] }));
    expect(() => verify(body, headers, 'whpk_AAAA', at)).toThrow(WebhookVerificationError);
    expect(() => verify(body, headers, 'whpk_AAAA', at)).toThrow('whpk_ + base64 of 32 bytes');
  });

  it('checks at most 8 v1a entries, so a header stuffed with them costs a bounded number of verifications', () => {
    const pair = generateSigningKeyPair();
    const good = signatureHeaders({ id, timestamp: ts, body, secrets: [pair.privateKey] })['webhook-signature'];
    const junk = (n: number) => Array.from({ length: n }, () => ed25519Signature(generateSigningKeyPair().privateKey, id, ts, body));
    const headers = (entries: string[]) => h({ 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': entries.join(' ') });
    expect(verify(body, headers([...junk(7), good]), pair.publicKey, at)).toEqual(JSON.parse(body));
    expect(() => verify(body, headers([...junk(8), good]), pair.publicKey, at)).toThrow('no matching signature');
    // v1 entries and unknown versions do not use up the v1a budget.
    expect(verify(body, headers(['v2,xyz', 'v1,AAAA', ...junk(7), good]), pair.publicKey, at)).toEqual(JSON.parse(body));
  });

  it('during a rotation overlap carries both v1a signatures, and each public key alone verifies', () => {
    const [next, prev] = [generateSigningKeyPair(), generateSigningKeyPair()];
    const headers = h(signatureHeaders({ id, timestamp: ts, body, secrets: [next.privateKey, prev.privateKey] }));
    const entries = headers['webhook-signature']!.split(' ');
    expect(entries).toHaveLength(2);
    expect(entries.every((e) => e.startsWith('v1a,'))).toBe(true);
    expect(entries[0]).toBe(ed25519Signature(next.privateKey, id, ts, body));
    for (const key of [next.publicKey, prev.publicKey, [prev.publicKey, next.publicKey]]) expect(verify(body, headers, key, at)).toEqual(JSON.parse(body));
    expect(() => verify(body, headers, generateSigningKeyPair().publicKey, at)).toThrow('no matching signature');
  });

  it('a switch from HMAC keeps the v1 entry and X-Signature of the old secret through the overlap', () => {
    const pair = generateSigningKeyPair();
    const old = generateSigningSecret();
    const headers = signatureHeaders({ id, timestamp: ts, body, secrets: [pair.privateKey, old] });
    const [v1a, v1] = headers['webhook-signature'].split(' ');
    expect(v1a).toBe(ed25519Signature(pair.privateKey, id, ts, body));
    expect(v1).toBe(standardWebhooksSignature(old, id, ts, body));
    expect(headers['X-Signature']).toBeDefined();
    expect(headers['X-Signature-Previous']).toBeUndefined();
    expect(verify(body, h(headers), old, at)).toEqual(JSON.parse(body));
    expect(verify(body, h(headers), pair.publicKey, at)).toEqual(JSON.parse(body));
    expect(verify(body, h(headers), old, { ...at, scheme: 'x-signature' })).toEqual(JSON.parse(body));
    expect(() => verify(body, h(headers), pair.publicKey, { ...at, scheme: 'x-signature' })).toThrow('X-Signature is HMAC only');
  });
});
