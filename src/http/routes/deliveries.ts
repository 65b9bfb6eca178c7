import {
  type DeliveryDeps,
  deliveryTimeline,
  listAlerts,
  listAttempts,
  listSubscriptionEvents,
  recoverFailed,
  redeliverEvent,
  sendTestEvent,
  subscriptionHealth,
  subscriptionStats,
} from '../../deliveries/use-cases';
import type { OperationHandlers } from '../operations';
import { requestOrigin } from '../origin';
import { requestIdOf } from '../request-id';
import { principalOf } from '../security';

/** Test events, delivery attempts, redelivery, recovery and alerts. */
export function deliveryHandlers(deps: DeliveryDeps): OperationHandlers {
  return {
    sendTestEvent: async ({ path, body }, req, res) => {
      res.status(202).json(await sendTestEvent(deps, principalOf(req), path.subscription_id, requestIdOf(req), body?.type));
    },
    listDeliveryAttempts: async ({ path, query }, req, res) => {
      const { event_id: eventId, ...rest } = query;
      res.json(await listAttempts(deps, principalOf(req), path.subscription_id, { ...rest, ...(eventId ? { eventId } : {}) }));
    },
    getDeliveryTimeline: async ({ path }, req, res) => {
      res.json(await deliveryTimeline(deps, principalOf(req), path.subscription_id, path.event_id));
    },
    listSubscriptionEvents: async ({ path, query }, req, res) => {
      res.json(await listSubscriptionEvents(deps, principalOf(req), path.subscription_id, query, requestOrigin(req)));
    },
    listSubscriptionHealth: async ({ query }, req, res) => {
      res.json(await subscriptionHealth(deps, principalOf(req), query.subscription_ids.split(',')));
    },
    getSubscriptionStats: async ({ path, query }, req, res) => {
      res.json(await subscriptionStats(deps, principalOf(req), path.subscription_id, query.hours ?? 24));
    },
    redeliverEvent: async ({ path, body }, req, res) => {
      res.status(202).json(await redeliverEvent(deps, principalOf(req), path.event_id, body?.subscription_id, requestIdOf(req)));
    },
    recoverFailedDeliveries: async ({ path, body }, req, res) => {
      res.status(202).json(await recoverFailed(deps, principalOf(req), path.subscription_id, new Date(body.since), requestIdOf(req)));
    },
    listAlerts: async ({ query }, req, res) => {
      res.json(await listAlerts(deps, principalOf(req), query));
    },
  };
}
