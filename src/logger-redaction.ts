/** What replaces a credential in a log line. */
export const REDACTED = '[redacted]';

// API keys, portal session tokens and signing secrets, by their prefixes (public keys, `whpk_`, are not secret).
const credentialShape = /(?:whk|whps|whsec)_[A-Za-z0-9+/=._~%-]*/g;
// Names under which a credential travels, in a query or a header; the Idempotency-Key is a request's name, not a secret.
const credentialName = /key|token|secret|passw|auth|credential|session|cookie|signature/i;
const notCredentialNames = new Set(['idempotency-key', 'idempotency_key']);

/** True when a query parameter or header of this name carries a credential (`api_key`, `access_token`, `X-API-Key`, `Proxy-Authorization`, …). */
export function isCredentialName(name: string): boolean {
  return credentialName.test(name) && !notCredentialNames.has(name.toLowerCase());
}

/** `text` with every credential-shaped substring (`whk_…`, `whps_…`, `whsec_…`) replaced. */
export function redactCredentials(text: string): string {
  return text.replace(credentialShape, REDACTED);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A request URL (path and query) fit for a log: credential-named parameters and credential-shaped values redacted. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  const path = redactCredentials(mark < 0 ? url : url.slice(0, mark));
  if (mark < 0) return path;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      if (eq < 0) return redactCredentials(pair);
      const value = pair.slice(eq + 1);
      const secret = isCredentialName(decoded(name)) || redactCredentials(decoded(value)) !== decoded(value) || redactCredentials(value) !== value;
      return `${redactCredentials(name)}=${secret ? REDACTED : value}`;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Query parameters or headers fit for a log: a credential's name or shape hides its value. */
export function redactFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => {
      if (isCredentialName(name)) return [name, REDACTED];
      if (typeof value === 'string') return [name, redactCredentials(value) === value ? value : REDACTED];
      if (Array.isArray(value)) return [name, value.map((v) => (typeof v === 'string' && redactCredentials(v) !== v ? REDACTED : (v as unknown)))];
      return [name, value];
    }),
  );
}

/** The shape pino's standard request serializer logs. */
interface SerializedRequest {
  url?: string;
  query?: Record<string, unknown>;
  params?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  [field: string]: unknown;
}

/**
 * The request serializer of every request log line: wherever a credential may arrive (the
 * `Authorization`, `Cookie` and any credential-named header, a query parameter by name, any
 * value shaped like a key, token or secret, the path), it is replaced by `[redacted]`.
 */
export function redactRequest<T extends SerializedRequest>(req: T): T {
  return Object.assign(Object.create(Object.getPrototypeOf(req) as object) as T, req, {
    ...(typeof req.url === 'string' ? { url: redactUrl(req.url) } : {}),
    ...(req.query && typeof req.query === 'object' ? { query: redactFields(req.query) } : {}),
    ...(req.params && typeof req.params === 'object' ? { params: redactFields(req.params) } : {}),
    ...(req.headers && typeof req.headers === 'object' ? { headers: redactFields(req.headers) } : {}),
  });
}
