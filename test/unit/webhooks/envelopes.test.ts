import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/openapi';
import type { EventType, SubscriptionVersion } from '../../../src/contract/types';
import { DEFAULT_INLINE_LIMIT } from '../../../src/config/config';
import { type PayloadOptions, type TypedEvent, renderDelivery, renderEnvelope, resourceUrl } from '../../../src/webhooks/envelopes';
import { verify } from '../../../src/receiver';
import { signatureHeaders } from '../../../src/webhooks/signature';
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
const payloads: PayloadOptions = { apiUrl: 'https://hooks.example.com', inlineLimit: DEFAULT_INLINE_LIMIT };
const data = sampleEventData;
const events = eventTypes.map((type, i) => ({ id: `evt_9fK2mQ7xLp4RtV8wZb3${i}`, type, data: data[type], created_at: createdAt }) as TypedEvent);

function rendered(version: SubscriptionVersion, event: TypedEvent): Json {
  return JSON.parse(renderEnvelope(version, event, payloads)) as Json;
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
        expect(renderEnvelope(version, stored, payloads)).toBe(renderEnvelope(version, event, payloads));
      }
    }
  });
});

describe('every event links to its resource (data.url)', () => {
  const expected: { [T in EventType]: string } = {
    'order.created': 'https://hooks.example.com/api/orders/5012',
    'order.updated': 'https://hooks.example.com/api/orders/5012',
    'webhook.test': 'https://hooks.example.com/api/webhooks/v1/subscriptions/sub_3kTzY8qLm2NvB7xRw9Pd',
    'stock.updated': 'https://hooks.example.com/api/inventory/stock/1',
    'stock.low': 'https://hooks.example.com/api/inventory/stock/1',
  };

  it.each(versions)('v%i: each type carries the absolute URL of its resource, under the configured origin', (version) => {
    for (const event of events) {
      expect((rendered(version, event).data as Json).url, event.type).toBe(expected[event.type]);
      expect(resourceUrl(event, 'http://127.0.0.1:3000'), event.type).toBe(expected[event.type].replace('https://hooks.example.com', 'http://127.0.0.1:3000'));
    }
  });

  it('names a path of the contract that reads the resource with GET', () => {
    const paths = contract.paths as Record<string, { get?: unknown }>;
    const templates = Object.keys(paths).filter((p) => paths[p]!.get).map((p) => new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`));
    for (const event of events) {
      const path = new URL(resourceUrl(event, payloads.apiUrl)).pathname;
      expect(templates.some((t) => t.test(path)), `${event.type}: ${path}`).toBe(true);
    }
  });

  it('is added when rendering, never stored: the stored data has none', () => {
    for (const event of events) expect(event.data).not.toHaveProperty('url');
  });
});

describe('bulky parts are inlined only up to the inline limit', () => {
  const order = events.find((e) => e.type === 'order.created')!;
  const updated = events.find((e) => e.type === 'order.updated')!;
  /** An order.created event with `lines` order lines. */
  const orderWith = (lines: number): TypedEvent => ({
    ...order,
    type: 'order.created',
    data: { ...data['order.created'], item_count: lines, items: Array.from({ length: lines }, (_, i) => ({ product_id: 1000 + i, quantity: 1 + (i % 7), unit_price: 12.5 })) },
  });
  const bytes = (s: string) => Buffer.byteLength(s);

  it.each(versions)('v%i: an envelope of exactly the limit keeps its items; one byte over leaves them out', (version) => {
    const full = renderDelivery(version, order, payloads);
    expect(full.truncated).toBe(false);
    const size = bytes(full.body);
    expect(renderDelivery(version, order, { ...payloads, inlineLimit: size })).toEqual(full);
    const over = renderDelivery(version, order, { ...payloads, inlineLimit: size - 1 });
    expect(over.truncated).toBe(true);
    const body = JSON.parse(over.body) as { data: Json };
    expect(body.data).not.toHaveProperty('items');
    expect(body.data).toMatchObject({ order_id: 5012, total: 59.97, currency: 'EUR', status: 'pending', user_id: 42, item_count: 2, url: 'https://hooks.example.com/api/orders/5012', truncated: true });
    expect(bytes(over.body)).toBeLessThan(size);
  });

  it.each(versions)('v%i: a truncated envelope still matches its webhooks entry exactly, and so does a full one', (version) => {
    for (const event of [order, updated, orderWith(100)]) {
      const name = webhookName(version, event.type);
      for (const inlineLimit of [100_000, 1024]) {
        const out = renderDelivery(version, event, { ...payloads, inlineLimit });
        const body = JSON.parse(out.body) as Json;
        expect(out.truncated).toBe('item_count' in event.data && event.data.item_count === 100 && inlineLimit === 1024);
        expect(bodyErrors(name, body, 'closed')).toEqual([]);
        if (event.type === 'order.updated') expect(body.data).toMatchObject({ previous_status: 'pending' });
      }
    }
  });

  it('the default limit inlines an ordinary order and leaves out the lines of the largest one the contract allows', () => {
    expect(renderDelivery(2, orderWith(40), payloads).truncated).toBe(false);
    const largest = renderDelivery(2, orderWith(100), payloads);
    expect(largest.truncated).toBe(true);
    expect(bytes(largest.body)).toBeLessThanOrEqual(DEFAULT_INLINE_LIMIT);
  });

  it('never truncates events without bulky parts, whatever the limit', () => {
    for (const event of events.filter((e) => !e.type.startsWith('order.'))) {
      const out = renderDelivery(1, event, { ...payloads, inlineLimit: 10 });
      expect(out.truncated).toBe(false);
      expect(JSON.parse(out.body)).not.toHaveProperty('data.truncated');
    }
  });

  it('an event stored without items (recorded before events carried them) renders as before, with its link', () => {
    const old = { ...data['order.created'] };
    delete old.items;
    delete old.item_count;
    const out = renderDelivery(1, { ...order, type: 'order.created', data: old }, { ...payloads, inlineLimit: 1024 });
    expect(out.truncated).toBe(false);
    expect(JSON.parse(out.body)).toEqual({ event: 'order.created', id: order.id, data: { ...old, url: 'https://hooks.example.com/api/orders/5012' } });
  });

  it('the signature covers the truncated body as sent: the receiver kit verifies it', () => {
    const secret = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;
    const { body, truncated } = renderDelivery(1, orderWith(100), { ...payloads, inlineLimit: 1024 });
    expect(truncated).toBe(true);
    const headers = signatureHeaders({ id: order.id, timestamp: Math.floor(Date.now() / 1000), body, secrets: [secret] });
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    const got = verify<{ data: Json }>(body, lower, secret);
    expect(got.data).toMatchObject({ truncated: true, item_count: 100 });
    // The full body it stands for does not verify with these headers: they sign only what was sent.
    expect(() => verify(renderEnvelope(1, orderWith(100), { ...payloads, inlineLimit: 100_000 }), lower, secret)).toThrow();
  });
});

describe('the admin alert POST', () => {
  const example = webhookExample(alertWebhook) as { type: string; alert: Json };

  it('stays open for receivers, while the closed check refuses unknown fields in the notification and in the alert', () => {
    expect(bodyErrors(alertWebhook, { ...example, extra: 1 }, 'open')).toEqual([]);
    expect(bodyErrors(alertWebhook, { ...example, extra: 1 }, 'closed')).not.toEqual([]);
    expect(bodyErrors(alertWebhook, { ...example, alert: { ...example.alert, extra: 1 } }, 'closed')).not.toEqual([]);
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
