import type { components } from '../../client';

// The server's aliases of the contract's schemas (type-only: nothing of the server reaches the bundle).
export type {
  Alert,
  DeliveryAttempt,
  DeliveryAttemptState,
  DeliveryOutcome,
  EventType,
  EventTypeInfo,
  Problem,
  SignatureScheme,
  Subscription,
  SubscriptionCreate,
  SubscriptionEvent,
  SubscriptionUpdate,
  SubscriptionWithSecret,
} from '../../contract/types';

type Schemas = components['schemas'];
/** Contract types only the portal names. */
export type PortalSessionInfo = Schemas['PortalSessionInfo'];
export type SubscriptionStats = Schemas['SubscriptionStats'];
export type StatsBucket = Schemas['StatsBucket'];
export type StatsTotals = Schemas['StatsTotals'];
export type SubscriptionAuth = Schemas['SubscriptionAuth'];
export type DeliveryTimeline = Schemas['DeliveryTimeline'];
export type DeliveryWait = Schemas['DeliveryWait'];
export type DeliveryNext = Schemas['DeliveryNext'];
export type SubscriptionHealth = Schemas['SubscriptionHealth'];
export type SubscriptionDestination = Schemas['SubscriptionDestination'];
