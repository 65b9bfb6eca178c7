import { Router } from 'express';
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
import { validated } from '../validated';
import { deprecationHeaders, subscribeRoutes } from '../../webhooks/versions';
import { type Deprecations, listDeprecatedSubscriptions } from '../../subscriptions/deprecated-versions';

const base = '/api/webhooks/v1/subscriptions';

/** Thin routes: read what the validator already checked, call a use case, shape the reply. */
export function subscriptionRoutes(deps: SubscriptionDeps, deprecations: Deprecations): Router {
  const r = Router();
  for (const { path, operationId, version } of subscribeRoutes) {
    r.post(path, async (req, res) => {
      const sub = await createSubscription(deps, principalOf(req), validated(req, operationId).body, version);
      res.status(201).location(`${base}/${sub.id}`).json(sub);
    });
  }

  r.get(base, async (req, res) => {
    res.json(await listSubscriptions(deps, principalOf(req), validated(req, 'listSubscriptions').query));
  });
  r.get(`${base}/:subscription_id`, async (req, res) => {
    res.json(await getSubscription(deps, principalOf(req), validated(req, 'getSubscription').path.subscription_id));
  });
  r.patch(`${base}/:subscription_id`, async (req, res) => {
    const { path, body } = validated(req, 'updateSubscription');
    const updated = await updateSubscription(deps, principalOf(req), path.subscription_id, body);
    // Moving to a deprecated version is answered as its subscribe path would be.
    const deprecation = body.version !== undefined ? deprecations.get(body.version) : undefined;
    const route = subscribeRoutes.find((s) => s.version === body.version && s.operationId !== 'createSubscriptionLegacy');
    if (deprecation && route) res.set(deprecationHeaders(deprecation, route.operationId));
    res.json(updated);
  });
  r.delete(`${base}/:subscription_id`, async (req, res) => {
    await deleteSubscription(deps, principalOf(req), validated(req, 'deleteSubscription').path.subscription_id);
    res.status(204).end();
  });
  r.post(`${base}/:subscription_id/rotate-secret`, async (req, res) => {
    const { path, body } = validated(req, 'rotateSubscriptionSecret');
    res.json(await rotateSecret(deps, principalOf(req), path.subscription_id, body?.expire_previous_in_seconds, body?.signature));
  });
  r.get('/api/webhooks/v1/deprecated-subscriptions', async (req, res) => {
    res.json(await listDeprecatedSubscriptions(deps.subscriptions, deprecations, validated(req, 'listDeprecatedSubscriptions').query));
  });
  return r;
}
