import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/openapi';
import { createBody, type FormState, initialFormState, patchBody } from '../../../src/portal/ui/subscription-body';
import type { Subscription } from '../../../src/contract/types';
import { type SentField, subscriptionFields } from '../../../src/subscriptions/fields';

/** Every box filled in, and every choice away from its default. */
const full: FormState = {
  url: 'https://erp.example.com/hooks',
  description: 'ERP',
  headerLines: 'X-Tenant: acme',
  authChoice: 'bearer',
  authFields: { token: 'token-value', username: '', password: '', tokenUrl: '', clientId: '', clientSecret: '', scope: '' },
  destinationChoice: 'rabbitmq',
  destinationFields: { exchange: 'webhooks', routingKey: 'orders', username: 'hooks', password: 'broker-password', subject: '', token: '', stream: '', maxlen: '', ackDeadlineSeconds: '', topic: '', brokers: '', saslMechanism: 'plain', region: '' },
  events: ['order.created'],
  version: '2',
  signature: 'ed25519',
  filterText: '{"data": {"total": {"$gte": 100}}}',
  retryWaits: '30s, 5m',
  retryAttempts: '3',
  rateText: '5',
  maxInFlightText: '4',
  ordered: true,
};

/** A subscription unlike `full` in every field, with everything an emptied box could remove. */
const editing: Subscription = {
  id: 'sub_1',
  url: 'https://old.example.com/hooks',
  events: ['webhook.test'],
  status: 'active',
  version: 1,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
  signature: 'hmac-sha256',
  headers: { 'X-Old': '********' },
  auth: { type: 'basic' },
  filter: { type: 'webhook.test' },
  retry: { schedule: ['1m'], max_attempts: 2, source: 'subscription' },
  rate_limit: 10,
  max_in_flight: 8,
};

/** The properties of one of the contract's schemas: what integrators may send there. */
function sendable(schema: 'SubscriptionCreate' | 'SubscriptionUpdate'): SentField[] {
  const schemas = loadContract().components!.schemas as Record<string, { properties: Record<string, unknown> }>;
  return Object.keys(schemas[schema]!.properties) as SentField[];
}

function keysOf(built: { body: object } | { error: string }): string[] {
  if ('error' in built) throw new Error(built.error);
  return Object.keys(built.body);
}

describe('the portal form against the subscription field table (src/subscriptions/fields.ts)', () => {
  const sent = { SubscriptionCreate: keysOf(createBody(full)), SubscriptionUpdate: keysOf(patchBody(full, editing)) };

  it('sets every field integrators may send, unless the table says why not', () => {
    const missing = (['SubscriptionCreate', 'SubscriptionUpdate'] as const).flatMap((schema) =>
      sendable(schema).filter((field) => subscriptionFields[field].portal === 'form' && !sent[schema].includes(field)).map((field) => `${field} (${schema})`),
    );
    expect(missing, 'make src/portal/ui/subscription-body.ts set these, or give their rows portal: { settable: false, why }').toEqual([]);
  });

  it('sets no field the table says it cannot', () => {
    const claimed = (['SubscriptionCreate', 'SubscriptionUpdate'] as const).flatMap((schema) =>
      sendable(schema).filter((field) => subscriptionFields[field].portal !== 'form' && sent[schema].includes(field)),
    );
    expect(claimed).toEqual([]);
  });

  it('removes on PATCH what an emptied box held, where the contract has a way to', () => {
    const emptied = { ...initialFormState(editing), authChoice: 'none' as const, filterText: '', retryWaits: '', retryAttempts: '', rateText: '', maxInFlightText: '' };
    const built = patchBody(emptied, editing);
    expect(built).toMatchObject({ body: { auth: null, filter: {}, retry: null, rate_limit: null, max_in_flight: null } });
    // Left empty, the headers stay: their values are never shown to edit.
    expect(built).not.toHaveProperty('body.headers');
  });
});
