import type { Request, RequestHandler } from 'express';
import type { FieldError } from '../contract/types';
import { HttpProblem } from './problem';

/** Deepest JSON a request body may nest (objects and arrays); the contract's deepest (a filter) needs about 10. */
export const MAX_JSON_DEPTH = 32;

const nulMessage = 'must not contain U+0000 (NUL): it cannot be stored';

/** A JSON Pointer token (RFC 6901), cut short: paths name fields, they do not echo input at length. */
function token(key: string): string {
  return key.slice(0, 100).replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The first thing in a parsed JSON value (a body, a query) that no handler should ever see:
 * nesting deeper than `maxDepth` (named at `base`), or U+0000 in a string or a key (named at
 * the string, or at the object holding the key). Iterative, so any depth is safe to inspect.
 */
export function inspectJson(value: unknown, base: string, maxDepth = MAX_JSON_DEPTH): FieldError | undefined {
  const stack: Array<[unknown, string, number]> = [[value, base, 0]];
  while (stack.length > 0) {
    const [node, path, depth] = stack.pop()!;
    if (typeof node === 'string') {
      if (node.includes('\u0000')) return { path, message: nulMessage };
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > maxDepth) return { path: base, message: `must nest at most ${maxDepth} levels deep` };
    for (const [key, child] of Object.entries(node)) {
      if (key.includes('\u0000')) return { path, message: `has a key that ${nulMessage}` };
      stack.push([child, `${path}/${token(key)}`, depth + 1]);
    }
  }
  return undefined;
}

/** The first offence of a request's path, query, headers or body (see {@link inspectJson}). */
export function inspectRequest(req: Pick<Request, 'path' | 'query' | 'headers' | 'body'>): FieldError | undefined {
  let path: string | undefined;
  try {
    path = decodeURIComponent(req.path);
  } catch {
    // Malformed escapes are the router's and validator's to refuse.
  }
  if (path?.includes('\u0000')) return { path: '/path', message: nulMessage };
  for (const [name, value] of Object.entries(req.headers)) {
    if ((Array.isArray(value) ? value : [value]).some((v) => v?.includes('\u0000'))) return { path: `/headers/${token(name)}`, message: nulMessage };
  }
  return inspectJson(req.query, '/query') ?? inspectJson(req.body, '/body');
}

/**
 * Refuses, right after the body is parsed and before anything reads it, what would break a
 * handler or the database rather than be refused by the contract: JSON nested past
 * {@link MAX_JSON_DEPTH} (recursive code would overflow its stack) and U+0000 anywhere
 * (PostgreSQL cannot store it). 400 problem+json naming the field; nothing is written.
 */
export const requestHygiene: RequestHandler = (req, _res, next) => {
  const offence = inspectRequest(req);
  if (!offence) return next();
  const deep = offence.message.includes('levels deep');
  next(
    new HttpProblem(400, deep ? 'Body Too Deeply Nested' : 'Invalid Character', deep ? `The request body nests deeper than ${MAX_JSON_DEPTH} levels` : `${offence.path} contains U+0000 (NUL)`, [offence]),
  );
};
