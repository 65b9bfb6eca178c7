import { Router } from 'express';
import {
  type DeliveryDeps,
  listAlerts,
  listAttempts,
  listSubscriptionEvents,
  recoverFailed,
  redeliverEvent,
  sendTestEvent,
  subscriptionStats,
} from '../../deliveries/use-cases';
import { principalOf } from '../security';
import { requestOrigin } from '../origin';
import { requestIdOf } from '../request-id';
import { validated } from '../validated';

const base = '/api/webhooks/v1';

/** Test events, delivery attempts, redelivery, recovery and admin alerts. */
export function deliveryRoutes(deps: DeliveryDeps): Router {
  const r = Router();
  r.post(`${base}/subscriptions/:subscription_id/test`, async (req, res) => {
    res.status(202).json(await sendTestEvent(deps, principalOf(req), validated(req, 'sendTestEvent').path.subscription_id, requestIdOf(req)));
  });
  r.get(`${base}/subscriptions/:subscription_id/attempts`, async (req, res) => {
    const { path, query } = validated(req, 'listDeliveryAttempts');
    const { event_id: eventId, ...rest } = query;
    res.json(await listAttempts(deps, principalOf(req), path.subscription_id, { ...rest, ...(eventId ? { eventId } : {}) }));
  });
  r.get(`${base}/subscriptions/:subscription_id/events`, async (req, res) => {
    const { path, query } = validated(req, 'listSubscriptionEvents');
    res.json(await listSubscriptionEvents(deps, principalOf(req), path.subscription_id, query, requestOrigin(req)));
  });
  r.get(`${base}/subscriptions/:subscription_id/stats`, async (req, res) => {
    const { path, query } = validated(req, 'getSubscriptionStats');
    res.json(await subscriptionStats(deps, principalOf(req), path.subscription_id, query.hours ?? 24));
  });
  r.post(`${base}/events/:event_id/redeliver`, async (req, res) => {
    const { path, body } = validated(req, 'redeliverEvent');
    res.status(202).json(await redeliverEvent(deps, principalOf(req), path.event_id, body?.subscription_id, requestIdOf(req)));
  });
  r.post(`${base}/subscriptions/:subscription_id/recover`, async (req, res) => {
    const { path, body } = validated(req, 'recoverFailedDeliveries');
    res.status(202).json(await recoverFailed(deps, principalOf(req), path.subscription_id, new Date(body.since), requestIdOf(req)));
  });
  r.get(`${base}/alerts`, async (req, res) => {
    res.json(await listAlerts(deps, validated(req, 'listAlerts').query));
  });
  return r;
}
