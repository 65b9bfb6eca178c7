import type { DeliveryPolicy } from '../../workflows/delivery-model';
import { MAX_RETRY_SPAN_MS } from '../subscriptions/retry-schedule';

/** One day in milliseconds: RETENTION_DAYS is counted in these. */
export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The longest a delivery's scheduled retries can run after its event was logged: every wait of
 * the policy stretched by the full jitter. A receiver's longer Retry-After can stretch it further.
 */
export function deliverySpanMs(policy: DeliveryPolicy): number {
  let span = 0;
  for (let attempt = 1; attempt < policy.maxAttempts; attempt++) {
    const base = policy.scheduleMs[Math.min(attempt - 1, policy.scheduleMs.length - 1)] ?? 0;
    span += base + Math.floor(base * policy.jitterRatio);
  }
  return span;
}

/**
 * The longest any delivery's scheduled retries can run: the service's policy, or a subscription's
 * own `retry` at its longest (MAX_RETRY_SPAN_MS) stretched by the service's jitter.
 */
export function longestDeliverySpanMs(policy: DeliveryPolicy): number {
  return Math.max(deliverySpanMs(policy), MAX_RETRY_SPAN_MS + Math.floor(MAX_RETRY_SPAN_MS * policy.jitterRatio));
}
