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
import type { OperationHandler, OperationHandlers } from '../operations';
import { deprecationHeaders, subscribeRoutes } from '../../webhooks/versions';
import { type Deprecations, listDeprecatedSubscriptions } from '../../subscriptions/deprecated-versions';

const base = '/api/webhooks/v1/subscriptions';

/** Thin handlers: read what the validator already checked, call a use case, shape the reply. */
export function subscriptionHandlers(deps: SubscriptionDeps, deprecations: Deprecations): OperationHandlers {
  // One handler per version's subscribe operation; the version is the operation's, not the body's.
  const subscribe = Object.fromEntries(
    subscribeRoutes.map(({ operationId, version }) => {
      const handler: OperationHandler<typeof operationId> = async ({ body }, req, res) => {
        const sub = await createSubscription(deps, principalOf(req), body, version);
        res.status(201).location(`${base}/${sub.id}`).json(sub);
      };
      return [operationId, handler];
    }),
  ) as OperationHandlers;
  return {
    ...subscribe,
    listSubscriptions: async ({ query }, req, res) => {
      res.json(await listSubscriptions(deps, principalOf(req), query));
    },
    getSubscription: async ({ path }, req, res) => {
      res.json(await getSubscription(deps, principalOf(req), path.subscription_id));
    },
    updateSubscription: async ({ path, body }, req, res) => {
      const updated = await updateSubscription(deps, principalOf(req), path.subscription_id, body);
      // Moving to a deprecated version is answered as its subscribe path would be.
      const deprecation = body.version !== undefined ? deprecations.get(body.version) : undefined;
      const route = subscribeRoutes.find((s) => s.version === body.version && s.operationId !== 'createSubscriptionLegacy');
      if (deprecation && route) res.set(deprecationHeaders(deprecation, route.operationId));
      res.json(updated);
    },
    deleteSubscription: async ({ path }, req, res) => {
      await deleteSubscription(deps, principalOf(req), path.subscription_id);
      res.status(204).end();
    },
    rotateSubscriptionSecret: async ({ path, body }, req, res) => {
      res.json(await rotateSecret(deps, principalOf(req), path.subscription_id, body?.expire_previous_in_seconds, body?.signature));
    },
    listDeprecatedSubscriptions: async ({ query }, _req, res) => {
      res.json(await listDeprecatedSubscriptions(deps.subscriptions, deprecations, query));
    },
  };
}
