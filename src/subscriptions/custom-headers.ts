import { DomainError } from '../errors/domain-error';
import type { SecretBox } from './secret-box';

/** One custom header as stored: the value sealed like a signing secret (it may be a credential). */
export interface StoredHeader {
  name: string;
  value: string;
}

/** What every masked value reads as: no prefix or length, so nothing of a credential leaks. */
export const MASKED_VALUE = '********' as const;

const exact = new Set(['host', 'connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect', 'http2-settings']);
// `content-*` describes the body the service writes (length, type, encoding, range): a custom one would misframe it.
const prefixes = ['content-', 'x-signature', 'webhook-', 'proxy-'];

/** Whether a header name would break a delivery (framing, hop-by-hop) or forge its signature. */
export function isForbiddenHeader(name: string): boolean {
  const n = name.toLowerCase();
  return exact.has(n) || prefixes.some((p) => n.startsWith(p));
}

/** 422 naming each refused name (or a name given twice in different case); nothing is written. */
export function assertHeaders(headers: Readonly<Record<string, string>>): void {
  const seen = new Set<string>();
  const errors = Object.keys(headers).flatMap((name) => {
    const lower = name.toLowerCase();
    const duplicate = seen.has(lower);
    seen.add(lower);
    if (isForbiddenHeader(name)) return [{ field: ['headers', name], message: `${name} is set by the service and may not be overridden` }];
    if (duplicate) return [{ field: ['headers', name], message: `${name} is given twice (header names are case-insensitive)` }];
    return [];
  });
  if (errors.length) throw DomainError.unprocessable(errors.map((e) => e.message).join('; '), errors);
}

/** The stored form: every value sealed, bound to the subscription. */
export function sealHeaders(box: SecretBox, subscriptionId: string, headers: Readonly<Record<string, string>>): StoredHeader[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value: box.seal(value, subscriptionId) }));
}

/** The API form: names only, values masked. */
export function maskHeaders(stored: readonly StoredHeader[]): Record<string, typeof MASKED_VALUE> {
  return Object.fromEntries(stored.map((h) => [h.name, MASKED_VALUE]));
}

/** The headers to send, opened; a forbidden name stored before the rule is dropped, never sent. */
export function openHeaders(box: SecretBox, subscriptionId: string, stored: readonly StoredHeader[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of stored) if (!isForbiddenHeader(h.name)) out[h.name] = box.open(h.value, subscriptionId);
  return out;
}
