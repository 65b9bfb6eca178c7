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

/**
 * Configured secrets of no fixed shape (`ADMIN_API_KEY`, `METRICS_TOKEN`), as they may appear in
 * a request: raw and percent-encoded, longest first so one inside another is still hidden whole.
 */
export function knownSecrets(values: ReadonlyArray<string | undefined>): string[] {
  const forms = values.filter((v): v is string => typeof v === 'string' && v.length > 0).flatMap((v) => [v, encodeURIComponent(v)]);
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

/** `text` with every credential-shaped substring (`whk_…`, `whps_…`, `whsec_…`) and every `known` secret ({@link knownSecrets}) replaced. */
export function redactCredentials(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out.replace(credentialShape, REDACTED);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A path segment that holds a credential only once percent-decoded is hidden whole. */
function redactEncodedSegments(path: string, known: readonly string[]): string {
  return path
    .split('/')
    .map((segment) => {
      const plain = decoded(segment);
      return plain !== segment && redactCredentials(plain, known) !== plain ? REDACTED : segment;
    })
    .join('/');
}

/** A request URL (path and query) fit for a log: credential-named parameters, credential-shaped values and `known` secrets redacted. */
export function redactUrl(url: string, known: readonly string[] = []): string {
  const mark = url.indexOf('?');
  const path = redactEncodedSegments(redactCredentials(mark < 0 ? url : url.slice(0, mark), known), known);
  if (mark < 0) return path;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      if (eq < 0) return redactCredentials(decoded(pair), known) !== decoded(pair) ? REDACTED : redactCredentials(pair, known);
      const value = pair.slice(eq + 1);
      const secret = isCredentialName(decoded(name)) || redactCredentials(decoded(value), known) !== decoded(value) || redactCredentials(value, known) !== value;
      return `${redactCredentials(decoded(name), known) !== decoded(name) ? REDACTED : redactCredentials(name, known)}=${secret ? REDACTED : value}`;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Query parameters or headers fit for a log: a credential's name or shape, or a `known` secret, hides its value. */
export function redactFields(fields: Record<string, unknown>, known: readonly string[] = []): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => {
      if (isCredentialName(name)) return [name, REDACTED];
      if (typeof value === 'string') return [name, redactCredentials(value, known) === value ? value : REDACTED];
      if (Array.isArray(value)) return [name, value.map((v) => (typeof v === 'string' && redactCredentials(v, known) !== v ? REDACTED : (v as unknown)))];
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
 * value shaped like a key, token or secret or equal to a `known` one, the path), it is replaced by `[redacted]`.
 */
export function redactRequest<T extends SerializedRequest>(req: T, known: readonly string[] = []): T {
  return Object.assign(Object.create(Object.getPrototypeOf(req) as object) as T, req, {
    ...(typeof req.url === 'string' ? { url: redactUrl(req.url, known) } : {}),
    ...(req.query && typeof req.query === 'object' ? { query: redactFields(req.query, known) } : {}),
    ...(req.params && typeof req.params === 'object' ? { params: redactFields(req.params, known) } : {}),
    ...(req.headers && typeof req.headers === 'object' ? { headers: redactFields(req.headers, known) } : {}),
  });
}
