import type { components } from '../../generated/api';

/** Aliases of the contract's schemas: the generated types are the only definitions. */
type Schemas = components['schemas'];
export type Subscription = Schemas['Subscription'];
export type SubscriptionWithSecret = Schemas['SubscriptionWithSecret'];
export type SubscriptionCreate = Schemas['SubscriptionCreate'];
export type SubscriptionUpdate = Schemas['SubscriptionUpdate'];
export type SubscriptionStatus = Schemas['SubscriptionStatus'];
export type SubscriptionList = Schemas['SubscriptionList'];
export type RotatedSecret = Schemas['RotatedSecret'];
export type EventType = Schemas['EventType'];
export type EventTypeInfo = Schemas['EventTypeInfo'];
export type DeliveryAttempt = Schemas['DeliveryAttempt'];
export type Alert = Schemas['Alert'];
export type Problem = Schemas['Problem'];
