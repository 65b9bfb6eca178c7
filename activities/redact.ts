/** What a credential reads as in a stored response excerpt. */
export const REDACTED = '[redacted]';

/** The contract's bound on `response_excerpt`, in characters. */
export const EXCERPT_MAX_CHARS = 1024;

/** Shorter values are not looked for: they would blank out ordinary words and give little away. */
const MIN_SECRET_LENGTH = 4;

/**
 * `text` with every occurrence of each of `secrets` replaced by [redacted], and a trailing part of
 * one cut off by the excerpt's size cap too. Longest first, so a value that contains another is
 * redacted whole. Never longer than `maxChars` unless `text` was: the excerpt keeps its bound.
 */
export function redactSecrets(text: string, secrets: ReadonlyArray<string | undefined>, maxChars = EXCERPT_MAX_CHARS): string {
  const given = secrets.filter((s): s is string => s !== undefined && s.length >= MIN_SECRET_LENGTH);
  const wanted = [...new Set(given.flatMap(echoedForms))].sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of wanted) out = out.split(secret).join(REDACTED);
  // The excerpt ends where its byte cap cut it: a credential's start there is redacted as well.
  for (const secret of wanted) {
    for (let n = Math.min(secret.length - 1, out.length); n >= MIN_SECRET_LENGTH; n--) {
      if (out.endsWith(secret.slice(0, n))) {
        out = `${out.slice(0, out.length - n)}${REDACTED}`;
        break;
      }
    }
  }
  // A short value replaced by the longer marker would push a full excerpt past its limit.
  const chars = Array.from(out);
  const limit = Math.max(maxChars, Array.from(text).length);
  return chars.length > limit ? chars.slice(0, limit).join('') : out;
}

/** The forms a receiver may echo a value in: as sent, JSON-escaped (also with `\\/`), and URL-encoded. */
function echoedForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  return [secret, json, json.replaceAll('/', '\\/'), encodeURIComponent(secret)];
}

/**
 * The values of an `Authorization` header worth redacting: the whole value, its credentials
 * after the scheme, and for Basic the decoded pair and its password.
 */
export function authorizationSecrets(authorization: string): string[] {
  const space = authorization.indexOf(' ');
  const credentials = space === -1 ? authorization : authorization.slice(space + 1);
  const out = [authorization, credentials];
  if (/^basic$/i.test(authorization.slice(0, space))) {
    const pair = Buffer.from(credentials, 'base64').toString('utf8');
    const colon = pair.indexOf(':');
    out.push(pair, ...(colon === -1 ? [] : [pair.slice(colon + 1)]));
  }
  return out;
}
