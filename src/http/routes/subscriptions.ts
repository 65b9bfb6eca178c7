import { type Request, type Response, Router } from 'express';
import type { SubscriptionCreate, SubscriptionUpdate } from '../schemas';
import {
  type SubscriptionDeps,
  createSubscription,
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  rotateSecret,
  updateSubscription,
} from '../../subscriptions/use-cases';
import { principalOf } from '../security';

/** Query values after the validator's coercion; numbers may still arrive as strings. */
export function intQuery(req: Request, name: string): number | undefined {
  const v = (req.query as Record<string, unknown>)[name];
  return v === undefined ? undefined : Number(v);
}

export function strQuery(req: Request, name: string): string | undefined {
  const v = (req.query as Record<string, unknown>)[name];
  return typeof v === 'string' ? v : undefined;
}

const base = '/api/webhooks/v1/subscriptions';

/** Thin routes: parse what the validator already checked, call a use case, shape the reply. */
export function subscriptionRoutes(deps: SubscriptionDeps): Router {
  const r = Router();
  const create = (version: 1 | 2) =>
    async function createHandler(req: Request, res: Response) {
      const sub = await createSubscription(deps, principalOf(req), req.body as SubscriptionCreate, version);
      res.status(201).location(`${base}/${sub.id}`).json(sub);
    };
  // The spec's unversioned path is an alias of v1.
  r.post('/api/webhooks/subscribe', create(1));
  r.post('/api/webhooks/v1/subscribe', create(1));
  r.post('/api/webhooks/v2/subscribe', create(2));

  r.get(base, async (req, res) => {
    const limit = intQuery(req, 'limit');
    const cursor = strQuery(req, 'cursor');
    res.json(await listSubscriptions(deps, principalOf(req), { ...(limit ? { limit } : {}), ...(cursor ? { cursor } : {}) }));
  });
  r.get(`${base}/:id`, async (req, res) => {
    res.json(await getSubscription(deps, principalOf(req), req.params.id));
  });
  r.patch(`${base}/:id`, async (req, res) => {
    res.json(await updateSubscription(deps, principalOf(req), req.params.id, req.body as SubscriptionUpdate));
  });
  r.delete(`${base}/:id`, async (req, res) => {
    await deleteSubscription(deps, principalOf(req), req.params.id);
    res.status(204).end();
  });
  r.post(`${base}/:id/rotate-secret`, async (req, res) => {
    const body = (req.body ?? {}) as { expire_previous_in_seconds?: number };
    res.json(await rotateSecret(deps, principalOf(req), req.params.id, body.expire_previous_in_seconds));
  });
  return r;
}
