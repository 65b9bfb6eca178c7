import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/openapi';
import type { EventType, SubscriptionVersion } from '../../../src/contract/types';
import { type TypedEvent, renderEnvelope } from '../../../src/webhooks/envelopes';
import {
  alertWebhook, disabledWebhook, deprecatedInUseWebhook,
  bodyErrors,
  headerErrors,
  webhookBodySchema,
  webhookExample,
  webhookName,
  webhookNames,
} from '../../support/webhook-schemas';
import { sampleEventData } from '../../support/sample-events';

type Json = Record<string, unknown>;

const contract = loadContract();
const schemas = contract.components!.schemas as Record<string, { enum?: string[] }>;
const eventTypes = schemas.EventType!.enum as EventType[];
const versions = (schemas.Subscription as { properties: { version: { enum: SubscriptionVersion[] } } }).properties.version.enum;

const createdAt = new Date('2025-01-15T08:30:00.000Z');
const data = sampleEventData;
const events = eventTypes.map((type, i) => ({ id: `evt_9fK2mQ7xLp4RtV8wZb3${i}`, type, data: data[type], created_at: createdAt }) as TypedEvent);

function rendered(version: SubscriptionVersion, event: TypedEvent): Json {
  return JSON.parse(renderEnvelope(version, event)) as Json;
}

const cases = versions.flatMap((version) => events.map((event) => ({ version, event, name: webhookName(version, event.type) })));

describe('the contract describes every outgoing webhook', () => {
  it('has one webhooks entry per envelope version and event type, plus the admin alert and the operational webhooks', () => {
    expect(webhookNames().sort()).toEqual([...cases.map((c) => c.name), alertWebhook, disabledWebhook, deprecatedInUseWebhook].sort());
  });

  it('gives each event type the same data schema in the event catalogue and in every envelope version', () => {
    const catalog = contract['x-event-catalog'] as Array<{ name: string; data_schema: string }>;
    expect(catalog.map((e) => e.name).sort()).toEqual([...eventTypes].sort());
    for (const { version, event, name } of cases) {
      const envelopeRef = (webhooksRaw()[name]!.post.requestBody.content['application/json'].schema as { $ref: string }).$ref;
      const envelope = schemas[envelopeRef.split('/').pop()!] as { properties: { data: { $ref: string } } };
      expect(envelope.properties.data.$ref, `${name} (v${version})`).toBe(catalog.find((e) => e.name === event.type)!.data_schema);
    }
  });

  it.each([...cases.map((c) => c.name), alertWebhook, disabledWebhook, deprecatedInUseWebhook])('shows an example body of %s that matches its schema exactly', (name) => {
    const example = webhookExample(name);
    expect(example).toBeDefined();
    expect(bodyErrors(name, example)).toEqual([]);
  });
});

describe.each(versions)('v%i envelopes rendered by src/webhooks/envelopes.ts', (version) => {
  it.each(eventTypes)('%s matches its webhooks entry, naming no field the contract does not describe', (type) => {
    const event = events.find((e) => e.type === type)!;
    const body = rendered(version, event);
    const name = webhookName(version, type);
    expect(bodyErrors(name, body, 'open')).toEqual([]);
    expect(bodyErrors(name, body, 'closed')).toEqual([]);
    expect(Object.keys(body)).toEqual(version === 1 ? ['event', 'id', 'data'] : ['event', 'id', 'api_version', 'created_at', 'data']);
    expect(body).toMatchObject({ event: type, id: event.id, data: event.data });
    if (version === 2) expect(body).toMatchObject({ api_version: 2, created_at: createdAt.toISOString() });
  });

  it.each(eventTypes)('%s: the envelope refuses an unknown field, as its additionalProperties: false says', (type) => {
    const name = webhookName(version, type);
    expect(webhookBodySchema(name).additionalProperties).toBe(false);
    const body = { ...rendered(version, events.find((e) => e.type === type)!), surprise: true };
    expect(bodyErrors(name, body, 'open').join('\n')).toMatch(/must NOT have additional properties.*surprise/);
  });

  it.each(eventTypes)('%s: data stays open for receivers, but an undescribed data field fails the closed check', (type) => {
    const name = webhookName(version, type);
    const body = rendered(version, events.find((e) => e.type === type)!);
    const extended = { ...body, data: { ...(body.data as Json), undocumented: 1 } };
    expect(bodyErrors(name, extended, 'open')).toEqual([]);
    expect(bodyErrors(name, extended, 'closed').join('\n')).toMatch(/unevaluated properties.*undocumented/);
  });

  it('order.updated requires previous_status; order.created does not carry it', () => {
    const updated = rendered(version, events.find((e) => e.type === 'order.updated')!);
    const withoutPrevious = { ...(updated.data as Json) };
    delete withoutPrevious.previous_status;
    expect(bodyErrors(webhookName(version, 'order.updated'), { ...updated, data: withoutPrevious }).join('\n')).toMatch(/previous_status/);
    const created = rendered(version, events.find((e) => e.type === 'order.created')!);
    expect(created.data).not.toHaveProperty('previous_status');
  });

  it('an envelope of another event type does not match an entry', () => {
    const test = rendered(version, events.find((e) => e.type === 'webhook.test')!);
    expect(bodyErrors(webhookName(version, 'order.created'), test)).not.toEqual([]);
  });
});

describe('envelope versions differ as the contract says', () => {
  it('a v1 entry refuses the v2 fields, a v2 entry requires them', () => {
    const event = events[0]!;
    expect(bodyErrors(webhookName(1, event.type), rendered(2, event))).not.toEqual([]);
    expect(bodyErrors(webhookName(2, event.type), rendered(1, event)).join('\n')).toMatch(/api_version|created_at/);
  });

  it('renders a stored event (data read back untyped) exactly like the typed one', () => {
    for (const version of versions) {
      for (const event of events) {
        const stored = { id: event.id, type: event.type, data: { ...event.data } as Record<string, unknown>, created_at: event.created_at };
        expect(renderEnvelope(version, stored)).toBe(renderEnvelope(version, event));
      }
    }
  });
});

describe('the admin alert POST', () => {
  const example = webhookExample(alertWebhook) as { type: string; alert: Json };

  it('refuses unknown fields in the notification and in the alert', () => {
    expect(bodyErrors(alertWebhook, { ...example, extra: 1 }, 'open')).not.toEqual([]);
    expect(bodyErrors(alertWebhook, { ...example, alert: { ...example.alert, extra: 1 } }, 'open')).not.toEqual([]);
  });

  it('declares the signature headers it is sent with, webhook-id being the alert id', () => {
    const headers = {
      'x-signature': `sha256=${'a'.repeat(64)}`,
      'webhook-id': example.alert.id as string,
      'webhook-timestamp': '1736929800',
      'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
      'user-agent': 'WebhookService/1.0',
    };
    expect(headerErrors(alertWebhook, headers)).toEqual([]);
    expect(headerErrors(alertWebhook, { ...headers, 'x-signature': 'nope' })).toHaveLength(1);
    expect(headerErrors(alertWebhook, { ...headers, 'webhook-id': undefined })).toEqual(['header webhook-id is missing']);
  });
});

function webhooksRaw(): Record<string, { post: { requestBody: { content: { 'application/json': { schema: unknown } } } } }> {
  return contract.webhooks as ReturnType<typeof webhooksRaw>;
}
