import { Router } from 'express';
import {
  type DeliveryDeps,
  listAlerts,
  listAttempts,
  recoverFailed,
  redeliverEvent,
  sendTestEvent,
} from '../../deliveries/use-cases';
import { principalOf } from '../security';
import { intQuery, strQuery } from './subscriptions';

const base = '/api/webhooks/v1';

/** Test events, delivery attempts, redelivery, recovery and admin alerts. */
export function deliveryRoutes(deps: DeliveryDeps): Router {
  const r = Router();
  r.post(`${base}/subscriptions/:id/test`, async (req, res) => {
    res.status(202).json(await sendTestEvent(deps, principalOf(req), req.params.id));
  });
  r.get(`${base}/subscriptions/:id/attempts`, async (req, res) => {
    const limit = intQuery(req, 'limit');
    const cursor = strQuery(req, 'cursor');
    const eventId = strQuery(req, 'event_id');
    res.json(
      await listAttempts(deps, principalOf(req), req.params.id, {
        ...(limit ? { limit } : {}),
        ...(cursor ? { cursor } : {}),
        ...(eventId ? { eventId } : {}),
      }),
    );
  });
  r.post(`${base}/events/:eventId/redeliver`, async (req, res) => {
    const body = (req.body ?? {}) as { subscription_id?: string };
    res.status(202).json(await redeliverEvent(deps, principalOf(req), req.params.eventId, body.subscription_id));
  });
  r.post(`${base}/subscriptions/:id/recover`, async (req, res) => {
    const body = req.body as { since: string };
    res.status(202).json(await recoverFailed(deps, principalOf(req), req.params.id, new Date(body.since)));
  });
  r.get(`${base}/alerts`, async (req, res) => {
    const limit = intQuery(req, 'limit');
    const cursor = strQuery(req, 'cursor');
    res.json(await listAlerts(deps, { ...(limit ? { limit } : {}), ...(cursor ? { cursor } : {}) }));
  });
  return r;
}
