import { createHmac, createPrivateKey, createPublicKey, type KeyObject, sign } from 'node:crypto';

/** Signature headers of one delivery attempt. */
export interface SignatureHeaders {
  /** Absent when no HMAC secret signs (an ed25519 subscription outside a switch-over). */
  'X-Signature'?: string;
  'X-Signature-Previous'?: string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** How a subscription's deliveries are signed: HMAC-SHA256 (`v1`, the default) or Ed25519 (`v1a`). */
export type SignatureScheme = 'hmac-sha256' | 'ed25519';

/** Standard Webhooks' prefix of an HMAC secret: base64 of the key bytes. */
export const SECRET_PREFIX = 'whsec_';
/** Standard Webhooks' prefix of an Ed25519 private key: base64 of the 32-byte seed and the 32-byte public key. */
export const PRIVATE_KEY_PREFIX = 'whsk_';
/** Standard Webhooks' prefix of an Ed25519 public key: base64 of the raw 32-byte key. */
export const PUBLIC_KEY_PREFIX = 'whpk_';

/** Whether a signing key is an Ed25519 private key (`whsk_`) rather than an HMAC secret. */
export function isPrivateKey(secret: string): boolean {
  return secret.startsWith(PRIVATE_KEY_PREFIX);
}

/**
 * The seed's `X-Signature` value: `sha256=` + lowercase hex HMAC-SHA256 of the raw body,
 * keyed with the secret exactly as shown to the subscriber (the whole `whsec_...` string).
 */
export function xSignature(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Standard Webhooks key bytes: the base64 after `whsec_`. */
export function standardWebhooksKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** One Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`. */
export function standardWebhooksSignature(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  const mac = createHmac('sha256', standardWebhooksKey(secret)).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

/** The 64 bytes of a `whsk_` key (seed, then public key), or an error naming what is wrong. */
function privateKeyBytes(secret: string): Buffer {
  const bytes = Buffer.from(secret.slice(PRIVATE_KEY_PREFIX.length), 'base64');
  if (!isPrivateKey(secret) || bytes.length !== 64) throw new Error('an Ed25519 private key is whsk_ + base64 of 64 bytes');
  return bytes;
}

/** A node:crypto private key from `whsk_…`. */
export function ed25519PrivateKey(secret: string): KeyObject {
  const bytes = privateKeyBytes(secret);
  const jwk = { kty: 'OKP', crv: 'Ed25519', d: bytes.subarray(0, 32).toString('base64url'), x: bytes.subarray(32).toString('base64url') };
  return createPrivateKey({ key: jwk, format: 'jwk' });
}

/** The `whpk_` public key of a `whsk_` private key (its last 32 bytes). */
export function publicKeyOf(secret: string): string {
  return PUBLIC_KEY_PREFIX + privateKeyBytes(secret).subarray(32).toString('base64');
}

/** A node:crypto public key from `whpk_` + base64 of 32 bytes; throws on anything else. */
export function ed25519PublicKey(publicKey: string): KeyObject {
  const bytes = Buffer.from(publicKey.slice(PUBLIC_KEY_PREFIX.length), 'base64');
  if (!publicKey.startsWith(PUBLIC_KEY_PREFIX) || bytes.length !== 32) throw new Error('an Ed25519 public key is whpk_ + base64 of 32 bytes');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: bytes.toString('base64url') }, format: 'jwk' });
}

/** The bytes every Standard Webhooks signature covers: `id.timestamp.body`. */
export function signedContent(id: string, timestamp: number, body: string | Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${id}.${timestamp}.`), typeof body === 'string' ? Buffer.from(body) : body]);
}

// Parsing a key costs about as much as signing with it: a worker keeps the keys it signs with
// (a plain Map, oldest dropped first: this module is bundled into the client package too).
const parsedKeys = new Map<string, KeyObject>();
const maxParsedKeys = 1024;

/** The parsed key of `whsk_…`, kept while among the most recently parsed. */
function cachedPrivateKey(secret: string): KeyObject {
  const hit = parsedKeys.get(secret);
  if (hit) return hit;
  const key = ed25519PrivateKey(secret);
  parsedKeys.set(secret, key);
  if (parsedKeys.size > maxParsedKeys) parsedKeys.delete(parsedKeys.keys().next().value!);
  return key;
}

/** One Standard Webhooks asymmetric signature: `v1a,` + base64 Ed25519 signature of `id.timestamp.body`. */
export function ed25519Signature(privateKey: string | KeyObject, id: string, timestamp: number, body: string | Buffer): string {
  const key = typeof privateKey === 'string' ? cachedPrivateKey(privateKey) : privateKey;
  return `v1a,${sign(null, signedContent(id, timestamp, body), key).toString('base64')}`;
}

/** The `webhook-signature` entry one key makes: `v1a` for a `whsk_` key, else `v1`. */
function entryOf(secret: string, id: string, timestamp: number, body: string): string {
  return isPrivateKey(secret) ? ed25519Signature(secret, id, timestamp, body) : standardWebhooksSignature(secret, id, timestamp, body);
}

/** The headers of HMAC secrets only (every subscription but an ed25519 one): exactly as before ed25519 existed. */
function hmacHeaders(input: { id: string; timestamp: number; body: string; secrets: readonly string[] }, current: string): SignatureHeaders {
  const previous = input.secrets[1];
  return {
    'X-Signature': xSignature(current, input.body),
    ...(previous ? { 'X-Signature-Previous': xSignature(previous, input.body) } : {}),
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': input.secrets.map((s) => standardWebhooksSignature(s, input.id, input.timestamp, input.body)).join(' '),
  };
}

/**
 * All signature headers for a body. `secrets` are the valid ones, newest first: HMAC secrets
 * (`whsec_`) or Ed25519 private keys (`whsk_`). Every one adds a `webhook-signature` entry
 * (`v1,` or `v1a,`); the newest HMAC secret makes `X-Signature` and a previous one (during a
 * rotation overlap) `X-Signature-Previous`, so a switch from HMAC keeps both for the overlap.
 */
export function signatureHeaders(input: {
  id: string;
  timestamp: number;
  body: string;
  secrets: readonly string[];
}): SignatureHeaders {
  const first = input.secrets[0];
  if (!first) throw new Error('no signing secret');
  if (!input.secrets.some(isPrivateKey)) return hmacHeaders(input, first);
  const [current, previous] = input.secrets.filter((s) => !isPrivateKey(s));
  return {
    ...(current ? { 'X-Signature': xSignature(current, input.body) } : {}),
    ...(previous ? { 'X-Signature-Previous': xSignature(previous, input.body) } : {}),
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': input.secrets.map((s) => entryOf(s, input.id, input.timestamp, input.body)).join(' '),
  };
}
