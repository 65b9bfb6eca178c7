import type { Request } from 'express';

/** The origin the request was sent to (`http://127.0.0.1:3000`): links in answers use it when PUBLIC_URL is unset. */
export function requestOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}
