import { createHmac } from 'node:crypto';

/** Signature headers of one delivery attempt. */
export interface SignatureHeaders {
  'X-Signature': string;
  'X-Signature-Previous'?: string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

const SECRET_PREFIX = 'whsec_';

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

/**
 * All signature headers for a body. `secrets` are the valid ones, newest first: the newest
 * makes `X-Signature`, a previous one (during a rotation overlap) `X-Signature-Previous`,
 * and every one adds a `webhook-signature` entry.
 */
export function signatureHeaders(input: {
  id: string;
  timestamp: number;
  body: string;
  secrets: readonly string[];
}): SignatureHeaders {
  const [current, previous] = input.secrets;
  if (!current) throw new Error('no signing secret');
  return {
    'X-Signature': xSignature(current, input.body),
    ...(previous ? { 'X-Signature-Previous': xSignature(previous, input.body) } : {}),
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': input.secrets
      .map((s) => standardWebhooksSignature(s, input.id, input.timestamp, input.body))
      .join(' '),
  };
}
