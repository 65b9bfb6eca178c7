import type { OperationId, SubscriptionVersion } from '../contract/types';

/** The contract's subscribe operations: `createSubscriptionV1`, `createSubscriptionV2`, ... and the unversioned alias. */
export type SubscribeOperationId = Extract<OperationId, `createSubscription${string}`>;

/**
 * Each subscribe operation of the contract, with its path and the envelope version its
 * subscriptions get. Keyed by operation id so that a version added to the contract
 * (`createSubscriptionV3`) is a compile error here until it is routed (docs/versioning.md).
 */
export const subscribeOperations: { readonly [K in SubscribeOperationId]: { readonly path: string; readonly version: SubscriptionVersion } } = {
  createSubscriptionLegacy: { path: '/api/webhooks/subscribe', version: 1 }, // the spec's unversioned alias of v1
  createSubscriptionV1: { path: '/api/webhooks/v1/subscribe', version: 1 },
  createSubscriptionV2: { path: '/api/webhooks/v2/subscribe', version: 2 },
};

/** The subscribe operations as a list, in the order above. */
export const subscribeRoutes = (Object.entries(subscribeOperations) as Array<[SubscribeOperationId, { path: string; version: SubscriptionVersion }]>).map(
  ([operationId, { path, version }]) => ({ operationId, path, version }),
);
