import type { components, operations } from '../../generated/api';

/** Aliases of the contract's schemas: the generated types are the only definitions. */
type Schemas = components['schemas'];
export type Subscription = Schemas['Subscription'];
export type SubscriptionWithSecret = Schemas['SubscriptionWithSecret'];
export type SubscriptionCreate = Schemas['SubscriptionCreate'];
export type SubscriptionUpdate = Schemas['SubscriptionUpdate'];
export type SubscriptionStatus = Schemas['SubscriptionStatus'];
/** The envelope version a subscription's deliveries use, set by the path it was created under (`PATCH` may change it). */
export type SubscriptionVersion = Subscription['version'];
export type SubscriptionList = Schemas['SubscriptionList'];
export type RotatedSecret = Schemas['RotatedSecret'];
export type SignatureScheme = Schemas['SignatureScheme'];
export type SignatureSchemeInfo = Schemas['SignatureSchemeInfo'];
export type EventType = Schemas['EventType'];
export type EventTypeInfo = Schemas['EventTypeInfo'];
export type DeliveryAttempt = Schemas['DeliveryAttempt'];
export type DeliveryAttemptState = Schemas['DeliveryAttemptState'];
export type DeliveryOutcome = Schemas['DeliveryOutcome'];
export type Alert = Schemas['Alert'];
export type SubscriptionStats = Schemas['SubscriptionStats'];
export type SubscriptionEvent = Schemas['SubscriptionEvent'];
export type PortalSessionCreated = Schemas['PortalSessionCreated'];
export type PortalSessionCreate = Schemas['PortalSessionCreate'];
export type PortalSessionInfo = Schemas['PortalSessionInfo'];
export type PortalSessionsExpire = Schemas['PortalSessionsExpire'];
export type PortalSessionsExpired = Schemas['PortalSessionsExpired'];
export type Problem = Schemas['Problem'];
/** One offending field of a rejected request (an item of `Problem.errors`). */
export type FieldError = NonNullable<Problem['errors']>[number];
export type Health = Schemas['Health'];
export type WebhookMeta = Schemas['WebhookMeta'];
export type Readiness = Schemas['Readiness'];
export type DependencyState = Schemas['DependencyState'];
export type CurrencyCode = Schemas['CurrencyCode'];
export type User = Schemas['User'];
export type OrderSummary = Schemas['OrderSummary'];
export type OrderSummaryList = Schemas['OrderSummaryList'];
export type Product = Schemas['Product'];
export type ProductList = Schemas['ProductList'];
export type OrderStatus = Schemas['OrderStatus'];
export type OrderCreate = Schemas['OrderCreate'];
export type OrderUpdate = Schemas['OrderUpdate'];
export type OrderItem = Schemas['OrderItem'];
export type Order = Schemas['Order'];
export type StockLevel = Schemas['StockLevel'];
export type StockList = Schemas['StockList'];
export type OrderEventData = Schemas['OrderEventData'];
export type OrderUpdatedEventData = Schemas['OrderUpdatedEventData'];
export type TestEventData = Schemas['TestEventData'];
export type AlertNotification = Schemas['AlertNotification'];
export type SubscriptionDisabledNotification = Schemas['SubscriptionDisabledNotification'];
export type DeprecatedSubscription = Schemas['DeprecatedSubscription'];
export type DeprecatedSubscriptionList = Schemas['DeprecatedSubscriptionList'];
export type DeprecatedVersionNotification = Schemas['DeprecatedVersionNotification'];
export type StockAdjustment = Schemas['StockAdjustment'];
export type StockUpdatedEventData = Schemas['StockUpdatedEventData'];
export type StockLowEventData = Schemas['StockLowEventData'];
export type StockChangeReason = Schemas['StockChangeReason'];
export type ShortItem = Schemas['ShortItem'];

/** The contract's operation ids, e.g. `getOrder`. */
export type OperationId = keyof operations;

type Operation<K extends OperationId> = operations[K];
type RequestBodyOf<K extends OperationId> = Operation<K>['requestBody'];

/** The path parameters of operation `K`, typed by the contract. */
export type PathOf<K extends OperationId> = NonNullable<Operation<K>['parameters']['path']>;
/** The query parameters of operation `K` that the request carries, typed by the contract. */
export type QueryOf<K extends OperationId> = NonNullable<Operation<K>['parameters']['query']>;
/** The JSON request body of operation `K`; `undefined` is possible when the contract makes the body optional. */
export type BodyOf<K extends OperationId> = [NonNullable<RequestBodyOf<K>>] extends [never]
  ? undefined
  : NonNullable<RequestBodyOf<K>> extends { content: { 'application/json': infer B } }
    ? undefined extends RequestBodyOf<K>
      ? B | undefined
      : B
    : undefined;
export type InboxMessage = Schemas['InboxMessage'];
export type InboxPage = Schemas['InboxPage'];
export type InboxOutcome = Schemas['InboxOutcome'];
