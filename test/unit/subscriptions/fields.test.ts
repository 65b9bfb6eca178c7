import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/auth/api-keys';
import { loadContract } from '../../../src/contract/openapi';
import { packageRoot } from '../../../src/lib/package-root';
import { type FieldContext, internalDocFields, patchOf, storedOnCreate, subscriptionFields, toSubscription } from '../../../src/subscriptions/fields';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { SecretBox } from '../../../src/subscriptions/secret-box';

const at = new Date('2026-11-01T00:00:00.000Z');
const defaults = { scheduleMs: [60_000], maxAttempts: 3 };

function context(): FieldContext {
  return {
    principal: { ownerId: 'owner-a', scopes: ['webhooks:write'] } as unknown as Principal,
    eventScopes: new Map(),
    checkUrl: () => Promise.resolve({ ok: true }) as ReturnType<FieldContext['checkUrl']>,
    secrets: new SecretBox({ id: 'k', key: randomBytes(32) }),
    id: 'sub_1',
  };
}

/** The property names of one of the contract's schemas. */
function propertiesOf(schema: string): string[] {
  const schemas = loadContract().components!.schemas as Record<string, { properties: Record<string, unknown> }>;
  return Object.keys(schemas[schema]!.properties);
}

describe('the subscription field table', () => {
  it('has a row for every field of the contract’s subscription schemas, and no other (as tsc holds it)', () => {
    const contract = new Set(['SubscriptionCreate', 'SubscriptionUpdate', 'Subscription', 'SubscriptionWithSecret'].flatMap(propertiesOf));
    expect(Object.keys(subscriptionFields).sort()).toEqual([...contract].sort());
  });

  it('names each document field once: a row’s, or an internal one', () => {
    const docs = [...Object.values(subscriptionFields).map((r) => r.doc), ...Object.keys(internalDocFields)];
    expect(new Set(docs).size).toBe(docs.length);
  });

  it('says which fields the attempt activity reads: exactly those it reads from the subscription', () => {
    const source = readFileSync(join(packageRoot, 'activities', 'attempt.ts'), 'utf8');
    const read = new Set([...source.matchAll(/\bsub\??\.(\w+)/g)].map((m) => m[1]!));
    const said = new Set(Object.values(subscriptionFields).filter((r) => (r.delivery as readonly string[]).includes('attempt')).map((r) => r.doc as string));
    expect([...read].sort(), 'a field activities/attempt.ts reads is marked delivery: attempt in src/subscriptions/fields.ts, and one marked is read').toEqual([...said].sort());
  });

  it('stores nothing on create for what PATCH would remove, and unsets it on PATCH', () => {
    const ctx = context();
    const created = storedOnCreate({ url: 'https://a.example/hook', events: ['webhook.test'], headers: {}, filter: {} }, ctx);
    expect(created).toEqual({ url: 'https://a.example/hook', events: ['webhook.test'] });
    const patch = patchOf({ headers: {}, filter: {}, auth: null, retry: null, rate_limit: null, description: 'kept' }, ctx);
    expect(patch.set).toEqual({ description: 'kept' });
    expect(patch.unset.sort()).toEqual(['auth', 'filter', 'headers', 'rate_limit', 'retry']);
  });

  it('seals what may be a credential and shows it masked; the rest as sent', () => {
    const ctx = context();
    const stored = storedOnCreate(
      {
        url: 'https://a.example/hook',
        events: ['webhook.test'],
        headers: { 'X-Api-Key': 'header-credential' },
        auth: { type: 'basic', username: 'user-credential', password: 'password-credential' },
        filter: { data: { total: { $gte: 100 } } },
        retry: { schedule: ['30s', '5m'], max_attempts: 3 },
        rate_limit: 5,
        max_in_flight: 2,
      },
      ctx,
    );
    expect(JSON.stringify(stored)).not.toMatch(/credential/);
    const doc: SubscriptionDoc = { _id: 'sub_1', owner_id: 'owner-a', status: 'active', version: 1, secrets: [], created_at: at, updated_at: at, ...stored };
    const shown = toSubscription(doc, defaults);
    expect(JSON.stringify(shown)).not.toMatch(/credential/);
    expect(shown).toMatchObject({
      headers: { 'X-Api-Key': '********' },
      auth: { type: 'basic' },
      filter: { data: { total: { $gte: 100 } } },
      retry: { schedule: ['30s', '5m'], max_attempts: 3, source: 'subscription' },
      rate_limit: 5,
      max_in_flight: 2,
      signature: 'hmac-sha256',
    });
    const masked = Object.entries(subscriptionFields).filter(([, r]) => 'as' in r.shown && r.shown.as === 'masked').map(([k]) => k);
    expect(masked.sort()).toEqual(['auth', 'destination', 'headers']);
  });
});
