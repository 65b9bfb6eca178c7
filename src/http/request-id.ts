import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';

const header = 'x-request-id';
// A caller's id is kept when it is a plain token; anything else could forge log lines.
const acceptable = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's id: the caller's `X-Request-Id` when it is a plain token, else a new UUID;
 * echoed in the response, logged with every line of the request, stored on the events it
 * emits and in their workflows' memo.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers[header];
  const id = typeof given === 'string' && acceptable.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** The id {@link assignRequestId} gave the request. */
export function requestIdOf(req: Request): string {
  return req.id as string;
}
