import type { components } from '../../generated/api';

type Schemas = components['schemas'];

/** What every renderer gets: the stored event. */
export interface EventRecord {
  id: string;
  type: Schemas['EventType'];
  data: Record<string, unknown>;
  created_at: Date;
}

/** v1: exactly the seed's `{event, id, data}`. */
export type EnvelopeV1 = Schemas['OrderCreatedEventV1'] | Schemas['OrderUpdatedEventV1'] | Schemas['WebhookTestEventV1'];
/** v2: v1 plus `api_version` and `created_at`. */
export type EnvelopeV2 = Schemas['OrderCreatedEventV2'] | Schemas['OrderUpdatedEventV2'] | Schemas['WebhookTestEventV2'];

/**
 * One renderer per envelope version. A new version adds its schemas to the contract and one
 * entry here; subscriptions keep the version they were created under.
 */
export const envelopeRenderers = {
  1: (e: EventRecord) => ({ event: e.type, id: e.id, data: e.data }) as EnvelopeV1,
  2: (e: EventRecord) =>
    ({ event: e.type, id: e.id, api_version: 2, created_at: e.created_at.toISOString(), data: e.data }) as EnvelopeV2,
} as const;

export type EnvelopeVersion = keyof typeof envelopeRenderers;

/** The JSON body delivered to a subscription of `version`. */
export function renderEnvelope(version: EnvelopeVersion, event: EventRecord): string {
  return JSON.stringify(envelopeRenderers[version](event));
}
