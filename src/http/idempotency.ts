import type { RequestHandler } from 'express';
import type { Logger } from '../logger';
import { type IdempotencyStore, requestFingerprint } from '../idempotency/store';
import { HttpProblem } from './problem';
import { principalOf } from './security';
import { missingScopes } from '../auth/scopes';
import { subscribeRoutes } from '../webhooks/versions';

/** The POST operations that take an `Idempotency-Key` (the contract's IdempotencyKey parameter). */
export const idempotentPaths = [
  '/api/orders/',
  ...subscribeRoutes.map((r) => r.path),
  '/api/webhooks/v1/subscriptions/:subscription_id/test',
  '/api/webhooks/v1/events/:event_id/redeliver',
  '/api/webhooks/v1/subscriptions/:subscription_id/recover',
  '/api/webhooks/v1/portal-sessions/expire-all',
];

/** The PATCH operations that take one: an adjustment by `delta` is not safe to repeat otherwise. */
export const idempotentPatchPaths = ['/api/inventory/stock/:product_id'];

/**
 * Stripe's idempotency keys, after the contract has validated the request and authenticated its
 * caller: the first request with a key runs and its response is kept; a repeat with the same
 * request gets that response with `Idempotent-Replayed: true` and runs nothing; the same key
 * with another request is a 422, and a repeat while the first runs a 409. A 5xx is not kept.
 * A response is replayed only to a caller holding every scope of the one that made it (it may
 * hold a signing secret); another of the owner's keys gets 422.
 */
export function idempotency(store: IdempotencyStore, logger: Logger): RequestHandler {
  return async (req, res, next) => {
    const key = req.header('idempotency-key');
    if (key === undefined) return next();
    const principal = principalOf(req);
    const owner = principal.ownerId;
    const claim = await store.claim(owner, key, requestFingerprint(req.method, req.path, req.body), principal.scopes);
    if (claim.kind === 'mismatch') {
      throw new HttpProblem(422, 'Idempotency Key Reused', 'This Idempotency-Key was used with a different request; use a new key for a new request', [
        { path: '/header/Idempotency-Key', message: 'already used with a different method, path or body' },
      ]);
    }
    if (claim.kind === 'running') {
      res.setHeader('Retry-After', '1');
      throw new HttpProblem(409, 'Request In Progress', 'A request with this Idempotency-Key is still running; retry shortly to get its response');
    }
    // Records kept before scopes were stored name none: replayed to nobody rather than to anybody.
    if (claim.kind === 'done' && (claim.scopes === undefined || missingScopes(principal.scopes, claim.scopes).length > 0)) {
      throw new HttpProblem(422, 'Idempotency Key Reused', 'This Idempotency-Key was used by a caller with scopes this credential lacks; use a new key for a new request', [
        { path: '/header/Idempotency-Key', message: 'already used by a caller with other scopes' },
      ]);
    }
    if (claim.kind === 'done') {
      res.setHeader('Idempotent-Replayed', 'true');
      if (claim.location) res.location(claim.location);
      res.status(claim.status).type(claim.status >= 400 ? 'application/problem+json' : 'application/json').json(claim.body);
      return;
    }
    // Claimed: run the request. Its response is stored before it is sent, so a client that
    // retries as soon as it has the answer gets it replayed, never a 409.
    const json = res.json.bind(res);
    res.json = (value: unknown) => {
      const location = res.getHeader('location');
      const kept =
        res.statusCode >= 500
          ? store.release(owner, key)
          : store.complete(owner, key, { status: res.statusCode, body: value, ...(typeof location === 'string' ? { location } : {}) });
      // Not stored (the database is away): repeats get 409 until the claim is abandoned (5 min), never a second run.
      void kept.catch((err: unknown) => logger.warn({ err }, 'idempotent response not stored')).finally(() => json(value));
      return res;
    };
    next();
  };
}
