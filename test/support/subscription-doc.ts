import type { SubscriptionDoc } from '../../src/subscriptions/repository';

/** A stored subscription as the API writes one: active, version 1, to order.created, signed with `secret`. */
export function subscriptionDoc(fields: Pick<SubscriptionDoc, '_id' | 'owner_id' | 'url'> & Partial<SubscriptionDoc>, secret: string, at: Date): SubscriptionDoc {
  return { events: ['order.created'], status: 'active', version: 1, secrets: [{ secret, created_at: at }], created_at: at, updated_at: at, ...fields };
}
