import { Context } from '@temporalio/activity';
import type { Db } from 'mongodb';
import type { SubscriptionDisabledNotification } from '../src/contract/types';
import { SubscriptionRepository } from '../src/subscriptions/repository';
import type { AlertInput } from './alerts';

export interface SubscriptionActivityDeps {
  db: Db;
  now?: () => Date;
  /** Raises the administrator alert that tells of the disable. */
  raiseAlert: (input: AlertInput) => Promise<unknown>;
  /** POSTs an operational webhook to ADMIN_ALERT_URL (a no-op without one); throws unless acknowledged. */
  notifyOperator: (id: string, body: string) => Promise<void>;
  /** Tries after which the notifications are given up (the disable and the stored alert stay). */
  notifyAttempts?: number;
  logger?: { warn(obj: object, msg: string): void };
}

export interface DisableInput {
  subscriptionId: string;
  eventId: string;
  reason: string;
  /** Since when every delivery failed, when that is why. */
  failingSince?: number;
}

/** This activity's try, 1 outside Temporal (unit tests). */
function attemptNumber(): number {
  try {
    return Context.current().info.attempt;
  } catch {
    return 1;
  }
}

/** Builds `disableSubscription`, run when a receiver answers 410 Gone or every delivery failed too long. */
export function createSubscriptionActivities(deps: SubscriptionActivityDeps) {
  const subscriptions = new SubscriptionRepository(deps.db);
  const now = () => deps.now?.() ?? new Date();
  const notifyAttempts = deps.notifyAttempts ?? 12;

  /** The alert and the `subscription.disabled` operational webhook; after `notifyAttempts` tries a failure is only logged. */
  async function notify(input: DisableInput): Promise<void> {
    try {
      // Raised even when this retry finds it already disabled: a failed alert POST (or a crash)
      // after the update must not lose the alert. Idempotent per subscription and event.
      await deps.raiseAlert({
        kind: 'subscription_disabled',
        subscriptionId: input.subscriptionId,
        eventId: input.eventId,
        key: input.eventId,
        message: `Subscription ${input.subscriptionId} disabled: ${input.reason}`,
      });
      const sub = await subscriptions.findForDelivery(input.subscriptionId);
      if (!sub) return;
      const notification: SubscriptionDisabledNotification = {
        type: 'subscription.disabled',
        timestamp: now().toISOString(),
        data: {
          subscription_id: sub._id,
          owner_id: sub.owner_id,
          url: sub.url,
          reason: input.reason,
          ...(input.failingSince !== undefined ? { failing_since: new Date(input.failingSince).toISOString() } : {}),
        },
      };
      await deps.notifyOperator(`op_subscription.disabled_${sub._id}_${input.eventId}`, JSON.stringify(notification));
    } catch (err) {
      if (attemptNumber() < notifyAttempts) throw err;
      deps.logger?.warn({ err, subscriptionId: input.subscriptionId }, 'operator not notified of a disabled subscription; the alert stays stored');
    }
  }

  return {
    /** Stops sending to a subscription that is gone or failing for too long, and tells the operator. */
    async disableSubscription(input: DisableInput): Promise<void> {
      await subscriptions.disable(input.subscriptionId, input.reason, now());
      await notify(input);
    },
  };
}
