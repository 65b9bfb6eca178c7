import type { Db } from 'mongodb';
import { SubscriptionRepository } from '../src/subscriptions/repository';
import type { AlertInput } from './alerts';

export interface SubscriptionActivityDeps {
  db: Db;
  now?: () => Date;
  /** Raises the administrator alert that tells of the disable. */
  raiseAlert: (input: AlertInput) => Promise<unknown>;
}

/** Builds `disableSubscription`, run when a receiver answers 410 Gone. */
export function createSubscriptionActivities(deps: SubscriptionActivityDeps) {
  const subscriptions = new SubscriptionRepository(deps.db);
  const now = () => deps.now?.() ?? new Date();
  return {
    /** The receiver answered 410 Gone: stop sending to it and tell an administrator. */
    async disableSubscription(input: { subscriptionId: string; eventId: string; reason: string }): Promise<void> {
      await subscriptions.collection.updateOne(
        { _id: input.subscriptionId, status: { $ne: 'disabled' } },
        { $set: { status: 'disabled', disabled_reason: input.reason, updated_at: now() } },
      );
      // Raised even when this retry finds it already disabled: a failed alert POST (or a crash)
      // after the update must not lose the alert. Idempotent per subscription and event.
      await deps.raiseAlert({
        kind: 'subscription_disabled',
        subscriptionId: input.subscriptionId,
        eventId: input.eventId,
        key: input.eventId,
        message: `Subscription ${input.subscriptionId} disabled: ${input.reason}`,
      });
    },
  };
}
