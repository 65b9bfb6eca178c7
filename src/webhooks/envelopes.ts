import type { components } from '../../generated/api';
import type { EventType, SubscriptionVersion } from '../contract/types';

type Schemas = components['schemas'];

/** v1: exactly the seed's `{event, id, data}`. */
export type EnvelopeV1 =
  | Schemas['OrderCreatedEventV1']
  | Schemas['OrderUpdatedEventV1']
  | Schemas['WebhookTestEventV1']
  | Schemas['StockUpdatedEventV1']
  | Schemas['StockLowEventV1'];
/** v2: v1 plus `api_version` and `created_at`. */
export type EnvelopeV2 =
  | Schemas['OrderCreatedEventV2']
  | Schemas['OrderUpdatedEventV2']
  | Schemas['WebhookTestEventV2']
  | Schemas['StockUpdatedEventV2']
  | Schemas['StockLowEventV2'];
/** The envelope of each subscription version. */
export interface EnvelopeByVersion {
  1: EnvelopeV1;
  2: EnvelopeV2;
}
/** Any body POSTed to a subscriber: the envelope of its version, for one event type. */
export type Envelope = EnvelopeByVersion[SubscriptionVersion];

/** The `data` of an event type, as the contract's envelopes carry it (e.g. `OrderUpdatedEventData` for `order.updated`). */
export type EventData<T extends EventType = EventType> = Extract<EnvelopeV1, { event: T }>['data'];

/** An event whose `data` has its type's contract shape: what the renderers take. */
export type TypedEvent = {
  [T in EventType]: { id: string; type: T; data: EventData<T>; created_at: Date };
}[EventType];

/**
 * An event as the event log stores it. Producers build its `data` with the generated type of
 * its event type (`EventData<T>`); storage does not keep that type, so {@link renderEnvelope}
 * reasserts it. The envelope tests check rendered bodies against the contract's schemas.
 */
export interface EventRecord {
  id: string;
  type: EventType;
  data: Record<string, unknown>;
  created_at: Date;
}

function v1(e: TypedEvent): EnvelopeV1 {
  switch (e.type) {
    case 'order.created':
      return { event: e.type, id: e.id, data: e.data };
    case 'order.updated':
      return { event: e.type, id: e.id, data: e.data };
    case 'webhook.test':
      return { event: e.type, id: e.id, data: e.data };
    case 'stock.updated':
      return { event: e.type, id: e.id, data: e.data };
    case 'stock.low':
      return { event: e.type, id: e.id, data: e.data };
  }
}

function v2(e: TypedEvent): EnvelopeV2 {
  const meta = { api_version: 2, created_at: e.created_at.toISOString() } as const;
  switch (e.type) {
    case 'order.created':
      return { event: e.type, id: e.id, ...meta, data: e.data };
    case 'order.updated':
      return { event: e.type, id: e.id, ...meta, data: e.data };
    case 'webhook.test':
      return { event: e.type, id: e.id, ...meta, data: e.data };
    case 'stock.updated':
      return { event: e.type, id: e.id, ...meta, data: e.data };
    case 'stock.low':
      return { event: e.type, id: e.id, ...meta, data: e.data };
  }
}

/**
 * One renderer per envelope version of the contract (`Subscription.version`): a version added
 * there needs its renderer here. Each case is checked against the generated envelope type of
 * its event, so an event type added to the contract needs a case in every version.
 */
export const envelopeRenderers: { [V in SubscriptionVersion]: (e: TypedEvent) => EnvelopeByVersion[V] } = { 1: v1, 2: v2 };

/** The JSON body delivered to a subscription of `version`. */
export function renderEnvelope(version: SubscriptionVersion, event: TypedEvent | EventRecord): string {
  return JSON.stringify(envelopeRenderers[version](event as TypedEvent));
}
