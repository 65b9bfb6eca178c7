import { safeEqual } from '../lib/safe-equal';
import { standardWebhooksSignature, xSignature } from '../webhooks/signature';

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
 * envelope. By default it requires the Standard Webhooks headers and checks their signature and
 * timestamp (replay protection); a delivery without them is refused, never verified by
 * `X-Signature` instead, unless `scheme: 'x-signature'` asks for exactly that. Comparisons are
 * constant-time.
 */
export function verify<T = unknown>(rawBody: string | Buffer, headers: HeaderSource, secret: string | readonly string[], opts: VerifyOptions = {}): T {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (!secrets.length) throw new WebhookVerificationError('no secret to verify with');
  const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');

  if ((opts.scheme ?? 'standard-webhooks') === 'standard-webhooks') {
    if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
    const ts = Number(timestamp);
    if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('invalid webhook-timestamp');
    const now = Math.floor((opts.now?.() ?? Date.now()) / 1000);
    if (Math.abs(now - ts) > (opts.toleranceSeconds ?? 300)) throw new WebhookVerificationError('webhook-timestamp too old or too new');
    const presented = signatures.split(' ').filter((s) => s.startsWith('v1,'));
    const ok = secrets.some((s) => {
      const expected = standardWebhooksSignature(s, id, ts, body);
      return presented.some((p) => safeEqual(p, expected));
    });
    if (!ok) throw new WebhookVerificationError('no matching signature');
  } else {
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
