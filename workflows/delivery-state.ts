import type { DeliveryOutcome } from './retry-policy';

/** Where one subscription's delivery of the event stands. */
export type SubscriberState = 'attempting' | 'retrying' | 'delivered' | 'failed' | 'stopped' | 'cancelled';

/** One subscription's delivery, as the `deliveryStatus` query shows it. */
export interface SubscriberStatus {
  state: SubscriberState;
  /** Attempts made so far. */
  attempts: number;
  /** Epoch ms of the next attempt while retrying. */
  nextAttemptAt?: number;
  /** The last attempt's own outcome. */
  lastOutcome?: DeliveryOutcome;
  /** The last attempt's HTTP status; absent when it got no answer. */
  lastStatusCode?: number;
  /** The last attempt's error, when it got no answer. */
  lastError?: string;
  /** Why the delivery was cancelled: the subscription was paused, disabled or deleted before an attempt. */
  cancelReason?: string;
  /** Times an attempt was put off because the endpoint had max_in_flight POSTs running. */
  deferrals?: number;
}

/**
 * The event's state over all its subscriptions, also the WebhookDeliveryState search attribute:
 * `retrying` while any waits to retry, `attempting` while any attempt runs, then `failed` when
 * any delivery failed or stopped, `delivered` when the others all were, `cancelled` when every
 * subscription was paused, disabled or deleted before it got the event.
 */
export type EventState = 'attempting' | 'retrying' | 'delivered' | 'failed' | 'cancelled';

/** What the `deliveryStatus` query returns, and an event workflow's result. */
export interface EventDeliveryStatus {
  eventId: string;
  state: EventState;
  /** Every subscription this workflow delivers to (for a partitioned event, those its finished parts reported). */
  subscriptions: Record<string, SubscriberStatus>;
  /** Workflow ids of the parts of a partitioned event. */
  parts?: string[];
}

/** The aggregate {@link EventState} of subscriber states. */
export function aggregateState(states: readonly SubscriberState[]): EventState {
  if (states.includes('retrying')) return 'retrying';
  if (states.includes('attempting')) return 'attempting';
  if (states.includes('failed') || states.includes('stopped')) return 'failed';
  if (states.includes('delivered')) return 'delivered';
  return 'cancelled';
}

/** The subscriptions in `state` (or any of `states`), in a stable order. */
export function subscriptionsIn(statuses: Record<string, SubscriberStatus>, ...states: SubscriberState[]): string[] {
  return Object.keys(statuses)
    .filter((id) => states.includes(statuses[id]!.state))
    .sort();
}
