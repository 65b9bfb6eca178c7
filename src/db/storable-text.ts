/** U+0000, and UTF-16 surrogates without their pair: what PostgreSQL (under FerretDB) or BSON's UTF-8 cannot hold. */
// eslint-disable-next-line no-control-regex -- NUL is the very character looked for.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` as both databases store it: each NUL and each lone surrogate replaced with U+FFFD (the
 * replacement character UTF-8 decoding already puts for invalid bytes). For every string that
 * comes from outside (a receiver's answer, an error that quotes one) before it is written.
 */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, '\uFFFD');
}
