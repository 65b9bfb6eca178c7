/**
 * The shared webhook test vectors (clients/vectors/signatures.json): deliveries signed by the
 * service's own signing code (src/webhooks/signature.ts) with fixed keys and times, and whether
 * a receiver must accept each. Every SDK runs them; `npm run generate:clients` writes them.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { PRIVATE_KEY_PREFIX, publicKeyOf, signatureHeaders, type SignatureHeaders, standardWebhooksSignature, xSignature } from '../../src/webhooks/signature';

/** Where the vectors live, relative to the repository root. */
export const vectorsPath = 'clients/vectors/signatures.json';

interface Vector {
  name: string;
  /** The raw body as sent (UTF-8). */
  body: string;
  headers: Record<string, string>;
  /** What the receiver verifies with: `whsec_` secrets and `whpk_` public keys. */
  keys: string[];
  scheme: 'standard-webhooks' | 'x-signature';
  /** The receiver's clock, Unix seconds, and the tolerance it allows. */
  now: number;
  tolerance: number;
  valid: boolean;
}

const hmacSecret = (fill: number) => `whsec_${Buffer.alloc(24, fill).toString('base64')}`;

/** A `whsk_` private key from a fixed 32-byte seed (PKCS#8 DER: a fixed prefix, then the seed). */
function privateKey(fill: number): string {
  const seed = Buffer.alloc(32, fill);
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  const x = createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })).export({ format: 'jwk' }).x!;
  return PRIVATE_KEY_PREFIX + Buffer.concat([seed, Buffer.from(x, 'base64url')]).toString('base64');
}

const timestamp = 1_767_225_600; // 2026-01-01T00:00:00Z
const id = 'evt_VectorS1gnatur3sTest0';
const body = JSON.stringify({
  event: 'order.created',
  id,
  data: { order_id: 5012, total: 59.97, currency: 'EUR', status: 'pending', user_id: 42, item_count: 1, items: [{ product_id: 1001, quantity: 3, unit_price: 19.99 }], url: 'https://hooks.example.com/api/orders/5012', note: 'crème brûlée' },
});

function headersOf(secrets: string[], opts: { body?: string; timestamp?: number } = {}): Record<string, string> {
  const h: SignatureHeaders = signatureHeaders({ id, timestamp: opts.timestamp ?? timestamp, body: opts.body ?? body, secrets });
  return Object.fromEntries(Object.entries(h).filter((e): e is [string, string] => e[1] !== undefined));
}

/** The vectors, as the JSON file holds them. */
export function renderVectors(): string {
  const [oldSecret, newSecret, otherSecret] = [hmacSecret(1), hmacSecret(2), hmacSecret(3)];
  const [oldKey, newKey, otherKey] = [privateKey(4), privateKey(5), privateKey(6)];
  const [oldPub, newPub, otherPub] = [publicKeyOf(oldKey), publicKeyOf(newKey), publicKeyOf(otherKey)];
  const tampered = body.replace('59.97', '5.97');
  const base = { body, scheme: 'standard-webhooks' as const, now: timestamp + 5, tolerance: 300 };
  const hmac = headersOf([newSecret]);
  const ed = headersOf([newKey]);
  // What a careless verifier computes from a key it should refuse: an unset variable, a prefix
  // alone, text that is not base64, or a public key taken for a secret (signing refuses them all).
  const forged = (key: string) => ({ 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': standardWebhooksSignature(key, id, timestamp, body), 'X-Signature': xSignature(key, body) });
  const withTimestamp = (value: string) => ({ ...hmac, 'webhook-timestamp': value });
  const notBase64 = 'whsec_not base64!';
  const vectors: Vector[] = [
    { ...base, name: 'hmac: signed with the secret', headers: hmac, keys: [newSecret], valid: true },
    { ...base, name: 'hmac: tampered body', body: tampered, headers: hmac, keys: [newSecret], valid: false },
    { ...base, name: 'hmac: another secret', headers: hmac, keys: [otherSecret], valid: false },
    { ...base, name: 'hmac: timestamp at the tolerance', headers: hmac, keys: [newSecret], now: timestamp + 300, valid: true },
    { ...base, name: 'hmac: stale timestamp', headers: hmac, keys: [newSecret], now: timestamp + 301, valid: false },
    { ...base, name: 'hmac: timestamp in the future', headers: hmac, keys: [newSecret], now: timestamp - 301, valid: false },
    { ...base, name: 'hmac: future timestamp at the tolerance', headers: hmac, keys: [newSecret], now: timestamp - 300, valid: true },
    { ...base, name: 'hmac: a narrower tolerance', headers: hmac, keys: [newSecret], now: timestamp + 60, tolerance: 30, valid: false },
    { ...base, name: 'hmac: headers re-signed for a new timestamp by someone without the secret', headers: { ...hmac, 'webhook-timestamp': String(timestamp + 100) }, keys: [newSecret], now: timestamp + 100, valid: false },
    { ...base, name: 'hmac: no webhook-signature header', headers: { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'X-Signature': hmac['X-Signature']! }, keys: [newSecret], valid: false },
    { ...base, name: 'hmac: a signed timestamp is ASCII digits only, not a sign', headers: withTimestamp(`+${timestamp}`), keys: [newSecret], valid: false },
    { ...base, name: 'hmac: a signed timestamp is ASCII digits only, not other digits', headers: withTimestamp(String(timestamp).replace(/[0-9]/g, (d) => String.fromCharCode(0x0660 + Number(d)))), keys: [newSecret], valid: false },
    { ...base, name: 'hmac: a superscript digit is no timestamp', headers: withTimestamp('\u00b2'), keys: [newSecret], valid: false },
    { ...base, name: 'hmac: a timestamp of 5000 digits', headers: withTimestamp('9'.repeat(5000)), keys: [newSecret], valid: false },
    { ...base, name: 'hmac: an empty key is refused, not an empty HMAC key', headers: forged(''), keys: [''], valid: false },
    { ...base, name: 'hmac: whsec_ alone is refused, not an empty HMAC key', headers: forged('whsec_'), keys: ['whsec_'], valid: false },
    { ...base, name: 'hmac: a secret that is not base64 is refused', headers: forged(notBase64), keys: [notBase64], valid: false },
    { ...base, name: 'hmac: an empty key beside the right one is refused up front', headers: hmac, keys: [newSecret, ''], valid: false },
    { ...base, name: 'hmac rotation: both sign, verified with the new secret', headers: headersOf([newSecret, oldSecret]), keys: [newSecret], valid: true },
    { ...base, name: 'hmac rotation: both sign, verified with the old secret', headers: headersOf([newSecret, oldSecret]), keys: [oldSecret], valid: true },
    { ...base, name: 'hmac rotation: a receiver holding both, after the overlap (new only signs)', headers: hmac, keys: [oldSecret, newSecret], valid: true },
    { ...base, name: 'hmac rotation: the old secret alone after the overlap', headers: hmac, keys: [oldSecret], valid: false },
    { ...base, name: 'x-signature: signed with the secret', scheme: 'x-signature', headers: hmac, keys: [newSecret], now: timestamp + 86_400, valid: true },
    { ...base, name: 'x-signature: tampered body', scheme: 'x-signature', body: tampered, headers: hmac, keys: [newSecret], valid: false },
    { ...base, name: 'x-signature: the previous secret during a rotation', scheme: 'x-signature', headers: headersOf([newSecret, oldSecret]), keys: [oldSecret], valid: true },
    { ...base, name: 'x-signature: a public key cannot verify it', scheme: 'x-signature', headers: hmac, keys: [newPub], valid: false },
    { ...base, name: 'x-signature: an empty key is refused, not an empty HMAC key', scheme: 'x-signature', headers: forged(''), keys: [''], valid: false },
    { ...base, name: 'x-signature: whsec_ alone is refused', scheme: 'x-signature', headers: forged('whsec_'), keys: ['whsec_'], valid: false },
    { ...base, name: 'x-signature: a secret that is not base64 is refused', scheme: 'x-signature', headers: forged(notBase64), keys: [notBase64], valid: false },
    { ...base, name: 'x-signature: keyed with the public key string', scheme: 'x-signature', headers: forged(newPub), keys: [newPub], valid: false },
    { ...base, name: 'ed25519: signed with the key pair', headers: ed, keys: [newPub], valid: true },
    { ...base, name: 'ed25519: tampered body', body: tampered, headers: ed, keys: [newPub], valid: false },
    { ...base, name: 'ed25519: another public key', headers: ed, keys: [otherPub], valid: false },
    { ...base, name: 'ed25519: stale timestamp', headers: ed, keys: [newPub], now: timestamp + 301, valid: false },
    { ...base, name: 'ed25519: a whsec_ secret does not verify a v1a signature', headers: ed, keys: [newSecret], valid: false },
    { ...base, name: 'ed25519: a v1 entry keyed with the public key string is no match (a public key is no secret)', headers: forged(newPub), keys: [newPub], valid: false },
    { ...base, name: 'ed25519: a malformed v1a entry is no match', headers: { ...ed, 'webhook-signature': 'v1a,bm90LWEtc2lnbmF0dXJl' }, keys: [newPub], valid: false },
    { ...base, name: 'ed25519: a whpk_ key of the wrong length is refused', headers: ed, keys: [`whpk_${Buffer.alloc(31, 1).toString('base64')}`], valid: false },
    { ...base, name: 'ed25519 rotation: two v1a entries, verified with the old key', headers: headersOf([newKey, oldKey]), keys: [oldPub], valid: true },
    { ...base, name: 'ed25519 rotation: a receiver holding both keys', headers: headersOf([newKey, oldKey]), keys: [newPub, oldPub], valid: true },
    { ...base, name: 'switch from hmac to ed25519: the old secret verifies during the overlap', headers: headersOf([newKey, oldSecret]), keys: [oldSecret], valid: true },
    { ...base, name: 'switch from hmac to ed25519: the new public key verifies during the overlap', headers: headersOf([newKey, oldSecret]), keys: [newPub], valid: true },
    { ...base, name: 'switch from hmac to ed25519: X-Signature still carries the old secret', scheme: 'x-signature', headers: headersOf([newKey, oldSecret]), keys: [oldSecret], valid: true },
  ];
  const ordered = vectors.map(({ name, valid, scheme, keys, now, tolerance, headers, body: sent }) => ({ name, valid, scheme, keys, now, tolerance, headers, body: sent }));
  const file = {
    about:
      'Shared webhook verification vectors, written by `npm run generate:clients` (tools/lib/vectors.ts) from the service\'s own signing code. Each SDK verifies `body` (UTF-8) with `headers` (names case-insensitive), `keys` (any one matching is enough), `scheme`, and its clock at `now` (Unix seconds) with `tolerance` seconds; `valid` says whether it must accept, and `false` means it must refuse with its own verification error (never another exception: a receiver catching only that one answers 401, not 500).',
    public_keys: { [oldPub]: 'the public key of the old Ed25519 key pair', [newPub]: 'the public key of the new one' },
    vectors: ordered,
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}
