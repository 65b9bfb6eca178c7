import { type KeyObject, verify as verifySignature } from 'node:crypto';
import { safeEqual } from '../lib/safe-equal';
import { ed25519PublicKey, PUBLIC_KEY_PREFIX, SECRET_PREFIX, signedContent, standardWebhooksSignature, xSignature } from '../webhooks/signature';

/** The one error the receiver kit throws: the delivery is not authentic or not fresh. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** Header access over Node's IncomingHttpHeaders, a Headers object, or a plain record. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? record[name.toLowerCase()] ?? Object.entries(record).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/** Most `v1a` entries checked per delivery: each costs an Ed25519 verification, and the spec allows ignoring extras. */
const MAX_ASYMMETRIC_ENTRIES = 8;

/** The public key of `whpk_…`, or the kit's error when it is not one. */
function publicKey(key: string): KeyObject {
  try {
    return ed25519PublicKey(key);
  } catch (err) {
    throw new WebhookVerificationError((err as Error).message);
  }
}

/**
 * Why a key that is not a `whpk_` public key cannot be an HMAC secret, or undefined: an empty key
 * (an unset variable) or one decoding to no bytes would sign with an empty HMAC key that anyone can use.
 */
function secretProblem(secret: string): string | undefined {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!encoded) return 'empty secret: pass the subscription\'s whsec_ secret';
  // Padded base64 with at least one character before the padding decodes to at least one byte.
  return encoded.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) ? undefined : 'a secret is whsec_ + standard, padded base64';
}

/** Whether an Ed25519 signature `v1a,<base64>` of `content` verifies with `key`. */
function verifiesWith(key: KeyObject, content: Buffer, entry: string): boolean {
  const signature = Buffer.from(entry.slice(4), 'base64');
  // A malformed entry is simply not a match (node:crypto throws on some lengths).
  if (signature.length !== 64) return false;
  try {
    return verifySignature(null, content, key, signature);
  } catch {
    return false;
  }
}

export interface VerifyOptions {
  /**
   * Which signature to require. `standard-webhooks` (default): `webhook-id`,
   * `webhook-timestamp` and `webhook-signature`, the timestamp within the tolerance, so a
   * captured delivery cannot be replayed later. `x-signature`: the seed's `X-Signature:
   * sha256=<hex>` over the body alone, for receivers that know only that scheme; it carries no
   * time, so a captured delivery verifies forever: deduplicate by event id.
   */
  scheme?: 'standard-webhooks' | 'x-signature';
  /** Reject `webhook-timestamp` further than this from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * Verifies a delivery against one secret or several (during a rotation) and returns the parsed
 * envelope. A `whsec_` secret checks the `v1,` (HMAC-SHA256) entries; a `whpk_` public key (an
 * `ed25519` subscription) checks the `v1a,` (Ed25519) entries; either matching is enough, so
 * during a rotation or a switch of scheme pass the old and the new. By default it requires the
 * Standard Webhooks headers and checks their signature and timestamp (replay protection); a
 * delivery without them is refused, never verified by `X-Signature` instead, unless `scheme:
 * 'x-signature'` asks for exactly that (HMAC secrets only). HMAC comparisons are constant-time;
 * Ed25519 needs no comparison (node:crypto verifies).
 */
export function verify<T = unknown>(rawBody: string | Buffer, headers: HeaderSource, secret: string | readonly string[], opts: VerifyOptions = {}): T {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (!secrets.length) throw new WebhookVerificationError('no secret to verify with');
  for (const s of secrets) {
    const problem = s.startsWith(PUBLIC_KEY_PREFIX) ? undefined : secretProblem(s);
    if (problem) throw new WebhookVerificationError(problem);
  }
  const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');

  if ((opts.scheme ?? 'standard-webhooks') === 'standard-webhooks') {
    if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
    const ts = Number(timestamp);
    if (!/^[0-9]+$/.test(timestamp)) throw new WebhookVerificationError('invalid webhook-timestamp');
    const now = Math.floor((opts.now?.() ?? Date.now()) / 1000);
    if (Math.abs(now - ts) > (opts.toleranceSeconds ?? 300)) throw new WebhookVerificationError('webhook-timestamp too old or too new');
    const entries = signatures.split(' ');
    const presented = entries.filter((s) => s.startsWith('v1,'));
    const asymmetric = entries.filter((s) => s.startsWith('v1a,')).slice(0, MAX_ASYMMETRIC_ENTRIES);
    const keys = secrets.filter((s) => s.startsWith(PUBLIC_KEY_PREFIX)).map(publicKey);
    const content = keys.length && asymmetric.length ? signedContent(id, ts, body) : undefined;
    const ok =
      secrets.some((s) => {
        if (s.startsWith(PUBLIC_KEY_PREFIX)) return false;
        const expected = standardWebhooksSignature(s, id, ts, body);
        return presented.some((p) => safeEqual(p, expected));
      }) || (content !== undefined && keys.some((k) => asymmetric.some((p) => verifiesWith(k, content, p))));
    if (!ok) throw new WebhookVerificationError('no matching signature');
  } else {
    if (secrets.every((s) => s.startsWith(PUBLIC_KEY_PREFIX))) throw new WebhookVerificationError('X-Signature is HMAC only: verify an ed25519 subscription with the default scheme');
    // During a rotation the old secret's signature comes as X-Signature-Previous.
    const presented = [header(headers, 'x-signature'), header(headers, 'x-signature-previous')].filter((v): v is string => Boolean(v));
    if (!presented.length) throw new WebhookVerificationError('missing x-signature header');
    if (!secrets.some((s) => presented.some((p) => safeEqual(p, xSignature(s, body))))) throw new WebhookVerificationError('no matching signature');
  }
  try {
    return JSON.parse(body) as T;
  } catch {
    throw new WebhookVerificationError('body is not JSON');
  }
}
