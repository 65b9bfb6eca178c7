import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/openapi';
import type { EventType, SubscriptionVersion } from '../../../src/contract/types';
import { sampleEvent } from '../../../src/deliveries/sample-events';
import { renderEnvelope } from '../../../src/webhooks/envelopes';
import { bodyErrors, webhookName } from '../../support/webhook-schemas';

const schemas = loadContract().components!.schemas as Record<string, { enum?: string[] }>;
const eventTypes = schemas.EventType!.enum as EventType[];
const payloads = { apiUrl: 'https://hooks.example.com', inlineLimit: 64 * 1024 };

describe('test events of every type', () => {
  it.each(eventTypes.flatMap((type) => ([1, 2] as SubscriptionVersion[]).map((version) => [type, version] as const)))('%s (v%i) renders a body its webhooks entry accepts', (type, version) => {
    const event = sampleEvent(type, 'sub_3kTzY8qLm2NvB7xRw9Pd');
    expect(event.type).toBe(type);
    const body: unknown = JSON.parse(renderEnvelope(version, { id: event.id, type, data: event.data, created_at: event.created_at }, payloads));
    expect(bodyErrors(webhookName(version, type), body)).toEqual([]);
  });

  it('says which subscription asked in webhook.test', () => {
    expect(sampleEvent('webhook.test', 'sub_1').data).toMatchObject({ subscription_id: 'sub_1' });
  });
});
