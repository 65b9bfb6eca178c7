import type { Db } from 'mongodb';
import { AlertBudget, ownerBucket } from '../src/alerts/admin-budget';
import { type AlertDoc, AlertRepository, alertId, toAlert } from '../src/alerts/repository';
import { SubscriptionRepository } from '../src/subscriptions/repository';
import type { Alert, AlertNotification } from '../src/contract/types';
import type { WorkerMetrics } from '../src/telemetry/metrics';
import { signatureHeaders } from '../src/webhooks/signature';
import type { Tracer } from '@opentelemetry/api';
import type { DeliveryProxy, PostRequest, PostResult } from './http-post';
import { poster } from './traced-post';

/** What alerting touches; tests inject their own. */
export interface AlertActivityDeps {
  db: Db;
  allowPrivate: boolean;
  timeoutMs: number;
  /** Local address alert POSTs leave from, like deliveries (DELIVERY_SOURCE_ADDRESS). */
  sourceAddress?: string | undefined;
  /** HTTP CONNECT proxy alert POSTs go through, like deliveries (DELIVERY_PROXY_URL). */
  proxy?: DeliveryProxy | undefined;
  userAgent: string;
  /** Where alerts are POSTed, signed with `alertSecret`; they are always stored too. */
  alertUrl?: string | undefined;
  alertSecret?: string | undefined;
  /** Most alerts of one owner POSTed to `alertUrl` per clock hour (ADMIN_ALERTS_PER_OWNER_PER_HOUR); the rest are stored only. */
  alertsPerOwnerPerHour?: number | undefined;
  now?: () => Date;
  post?: (req: PostRequest) => Promise<PostResult>;
  /** Counts raised alerts (absent: not counted). */
  metrics?: WorkerMetrics | undefined;
  tracer?: Tracer | undefined;
}

export interface AlertInput {
  kind: Alert['kind'];
  subscriptionId: string;
  eventId?: string;
  /** Distinguishes alerts of the same kind and subscription, e.g. the attempt series. */
  key: string;
  message: string;
}

/** ADMIN_ALERTS_PER_OWNER_PER_HOUR's default. */
export const DEFAULT_ALERTS_PER_OWNER_PER_HOUR = 20;

/**
 * Builds `raiseAlert`: stores an alert once (for administrators and the subscription's owner),
 * then POSTs it to ADMIN_ALERT_URL within the owner's hourly budget.
 */
export function createAlertActivities(deps: AlertActivityDeps) {
  const alerts = new AlertRepository(deps.db);
  const subscriptions = new SubscriptionRepository(deps.db);
  const now = () => deps.now?.() ?? new Date();
  const post = poster(deps);
  const budget = new AlertBudget(deps.db, deps.alertsPerOwnerPerHour ?? DEFAULT_ALERTS_PER_OWNER_PER_HOUR, () => now().getTime());

  /** POSTs `body` to ADMIN_ALERT_URL signed with ADMIN_ALERT_SECRET under message id `id`; throws unless acknowledged. */
  async function notifyOperator(id: string, body: string): Promise<void> {
    if (!deps.alertUrl) return;
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': deps.userAgent,
      ...signatureHeaders({ id, timestamp: Math.floor(now().getTime() / 1000), body, secrets: [deps.alertSecret ?? ''] }),
    };
    const result = await post({ url: deps.alertUrl, body, headers, timeoutMs: deps.timeoutMs, allowPrivate: deps.allowPrivate, sourceAddress: deps.sourceAddress, proxy: deps.proxy });
    // Throwing lets Temporal retry the notification.
    if (result.outcome !== 'delivered') throw new Error(`operator notification POST failed: ${'error' in result ? result.error : `HTTP ${result.statusCode}`}`);
  }

  /** Takes the alert's slot in its owner's budget and records it on the alert, so a retry POSTs the same body. */
  async function takeSlot(stored: AlertDoc): Promise<NonNullable<AlertDoc['admin_slot']>> {
    const taken = await budget.take(ownerBucket(stored.owner_id), stored._id);
    const slot = { window: taken.window, index: taken.index, send: taken.send, limit_reached: taken.limitReached, suppressed: taken.suppressed };
    await alerts.setSlot(stored._id, slot);
    return slot;
  }

  /** Stored first, so administrators find it through the API even when the POST keeps failing. */
  async function raiseAlert(input: AlertInput): Promise<{ id: string; notified: boolean }> {
    // The owner sees their subscriptions' alerts too; a deleted subscription's go to administrators only.
    const ownerId = (await subscriptions.findForDelivery(input.subscriptionId))?.owner_id;
    const { stored, created } = await alerts.raise({
      _id: alertId(input.kind, input.subscriptionId, input.key),
      kind: input.kind,
      subscription_id: input.subscriptionId,
      ...(ownerId !== undefined ? { owner_id: ownerId } : {}),
      ...(input.eventId ? { event_id: input.eventId } : {}),
      message: input.message,
      created_at: now(),
    });
    if (created) deps.metrics?.alertsRaised.inc({ kind: input.kind });
    if (!deps.alertUrl || stored.notified_at) return { id: stored._id, notified: Boolean(stored.notified_at) };
    // One owner's failures must not flood the administrator: its place in the owner's hourly budget, taken once.
    const slot = stored.admin_slot ?? (await takeSlot(stored));
    if (!slot.send) return { id: stored._id, notified: false };
    const notification: AlertNotification = {
      type: 'alert',
      alert: toAlert(stored),
      ...(stored.owner_id !== undefined ? { owner_id: stored.owner_id } : {}),
      ...(slot.suppressed > 0 ? { suppressed: slot.suppressed } : {}),
      ...(slot.limit_reached ? { limit_reached: true as const } : {}),
    };
    // A retry after a failed POST finds the alert stored, not notified, and POSTs again: never a second alert.
    await notifyOperator(stored._id, JSON.stringify(notification));
    await alerts.markNotified(stored._id, now());
    return { id: stored._id, notified: true };
  }

  return { raiseAlert, notifyOperator };
}
