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

/** Fields of `data` the renderer adds at delivery time: never stored with the event. */
type RenderedField = 'url' | 'truncated';

/**
 * The `data` of an event type as producers build it and the event log stores it: the contract's
 * shape without what rendering adds (`url`, `truncated`), so stored events stay as small as the
 * change that caused them and the link follows `PUBLIC_URL` at delivery time.
 */
export type StoredEventData<T extends EventType = EventType> = T extends EventType ? Omit<EventData<T>, RenderedField> : never;

/** An event whose `data` has its type's stored contract shape: what the renderers take. */
export type TypedEvent = {
  [T in EventType]: { id: string; type: T; data: StoredEventData<T>; created_at: Date };
}[EventType];

/** An event with its delivered `data` (link added, bulky parts possibly left out): what each version's renderer wraps. */
type LinkedEvent = {
  [T in EventType]: { id: string; type: T; data: EventData<T>; created_at: Date };
}[EventType];

/**
 * An event as the event log stores it. Producers build its `data` with the generated type of
 * its event type (`StoredEventData<T>`); storage does not keep that type, so {@link renderEnvelope}
 * reasserts it. The envelope tests check rendered bodies against the contract's schemas.
 */
export interface EventRecord {
  id: string;
  type: EventType;
  data: Record<string, unknown>;
  created_at: Date;
}

function v1(e: LinkedEvent): EnvelopeV1 {
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

function v2(e: LinkedEvent): EnvelopeV2 {
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
export const envelopeRenderers: { [V in SubscriptionVersion]: (e: LinkedEvent) => EnvelopeByVersion[V] } = { 1: v1, 2: v2 };

/** The API path of each event type's resource: what `data.url` points at. */
const resourcePaths: { [T in EventType]: (data: StoredEventData<T>) => string } = {
  'order.created': (d) => `/api/orders/${d.order_id}`,
  'order.updated': (d) => `/api/orders/${d.order_id}`,
  'webhook.test': (d) => `/api/webhooks/v1/subscriptions/${encodeURIComponent(d.subscription_id)}`,
  'stock.updated': (d) => `/api/inventory/stock/${d.product_id}`,
  'stock.low': (d) => `/api/inventory/stock/${d.product_id}`,
};

/** The `data` fields of each event type that are left out when the envelope would exceed the inline limit. */
const bulkyFields: { [T in EventType]: ReadonlyArray<keyof StoredEventData<T>> } = {
  'order.created': ['items'],
  'order.updated': ['items'],
  'webhook.test': [],
  'stock.updated': [],
  'stock.low': [],
};

/** How deliveries link to resources and how large they may grow (from the config: PUBLIC_URL, WEBHOOK_INLINE_LIMIT). */
export interface PayloadOptions {
  /** Origin of `data.url`, without a trailing slash (e.g. `https://hooks.example.com`). */
  apiUrl: string;
  /** Most bytes of a rendered envelope with its bulky parts inline; above it they are left out. */
  inlineLimit: number;
}

/** The absolute URL of an event's resource. */
export function resourceUrl(event: TypedEvent | EventRecord, apiUrl: string): string {
  const e = event as TypedEvent;
  return apiUrl + (resourcePaths[e.type] as (data: StoredEventData) => string)(e.data);
}

/** A rendered body and whether bulky parts were left out of it. */
export interface RenderedEnvelope {
  body: string;
  truncated: boolean;
}

/**
 * The JSON body delivered to a subscription of `version`: the event's stored `data` with the
 * `url` of its resource; when that body is larger than `inlineLimit` bytes, the type's bulky
 * fields are left out and `truncated: true` says so. The caller signs exactly this body.
 */
export function renderDelivery(version: SubscriptionVersion, event: TypedEvent | EventRecord, opts: PayloadOptions): RenderedEnvelope {
  const e = event as TypedEvent;
  const data = { ...e.data, url: resourceUrl(e, opts.apiUrl) };
  const full = JSON.stringify(envelopeRenderers[version]({ ...e, data } as LinkedEvent));
  const bulky = bulkyFields[e.type] as readonly string[];
  if (Buffer.byteLength(full) <= opts.inlineLimit || !bulky.some((f) => f in data)) return { body: full, truncated: false };
  const summary: Record<string, unknown> = Object.fromEntries(Object.entries(data).filter(([k]) => !bulky.includes(k)));
  summary.truncated = true;
  return { body: JSON.stringify(envelopeRenderers[version]({ ...e, data: summary } as LinkedEvent)), truncated: true };
}

/** The JSON body delivered to a subscription of `version` (see {@link renderDelivery}). */
export function renderEnvelope(version: SubscriptionVersion, event: TypedEvent | EventRecord, opts: PayloadOptions): string {
  return renderDelivery(version, event, opts).body;
}
