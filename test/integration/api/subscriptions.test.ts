import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { components } from '../../../generated/api';
import { startTestApi, type TestApi } from '../../support/api';

type Subscription = components['schemas']['Subscription'];
type SubscriptionWithSecret = components['schemas']['SubscriptionWithSecret'];

const hook = 'http://127.0.0.1:9/hooks';

describe('subscriptions API', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('creates on the spec path, v1 and v2, returning the secret only on creation', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read']);
    const legacy = await client.POST('/api/webhooks/subscribe', { body: { url: hook, events: ['order.created'] } });
    expect(legacy.response.status).toBe(201);
    expectTypeOf(legacy.data!).toEqualTypeOf<SubscriptionWithSecret>();
    expect(legacy.data).toMatchObject({ url: hook, events: ['order.created'], status: 'active', version: 1 });
    expect(legacy.data!.id).toMatch(/^sub_[A-Za-z0-9]{22}$/);
    expect(legacy.data!.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(legacy.response.headers.get('location')).toBe(`/api/webhooks/v1/subscriptions/${legacy.data!.id}`);

    const v1 = await client.POST('/api/webhooks/v1/subscribe', {
      body: { url: hook, events: ['order.created', 'order.updated'], description: 'ERP sync' },
    });
    expect(v1.data).toMatchObject({ version: 1, description: 'ERP sync' });
    const v2 = await client.POST('/api/webhooks/v2/subscribe', { body: { url: hook, events: ['order.updated'] } });
    expect(v2.data).toMatchObject({ version: 2 });

    const fetched = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}', {
      params: { path: { subscription_id: v2.data!.id } },
    });
    expect(fetched.response.status).toBe(200);
    expectTypeOf(fetched.data!).toEqualTypeOf<Subscription>();
    expect(fetched.data).not.toHaveProperty('secret');
    expect(fetched.data).toEqual({ ...v2.data, secret: undefined, ...fetched.data });
  });

  it('keeps a caller-provided secret', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'resources:read']);
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const res = await client.POST('/api/webhooks/v1/subscribe', { body: { url: hook, events: ['webhook.test'], secret } });
    expect(res.data!.secret).toBe(secret);
  });

  it('lists only the caller’s own subscriptions, newest first, with cursor pagination', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read'], 'owner-list');
    const { client: other } = await api.clientWith(['webhooks:write', 'resources:read'], 'owner-other');
    await other.POST('/api/webhooks/v1/subscribe', { body: { url: hook, events: ['order.created'] } });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await client.POST('/api/webhooks/v1/subscribe', { body: { url: `${hook}/${i}`, events: ['order.created'] } });
      ids.push(res.data!.id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const res = await client.GET('/api/webhooks/v1/subscriptions', { params: { query: { limit: 2, ...(cursor ? { cursor } : {}) } } });
      expect(res.response.status).toBe(200);
      seen.push(...res.data!.data.map((s) => s.id));
      cursor = res.data!.next_cursor;
      if (!cursor) break;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('pauses, resumes, changes url and events, and deletes', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read']);
    const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: hook, events: ['order.created'] } });
    const path = { subscription_id: created.data!.id };
    const paused = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', {
      params: { path },
      body: { status: 'paused' },
    });
    expect(paused.data!.status).toBe('paused');
    const changed = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', {
      params: { path },
      body: { status: 'active', url: `${hook}/v2`, events: ['order.updated'] },
    });
    expect(changed.data).toMatchObject({ status: 'active', url: `${hook}/v2`, events: ['order.updated'] });
    expect(Date.parse(changed.data!.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.data!.updated_at));

    const del = await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path } });
    expect(del.response.status).toBe(204);
    const gone = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path } });
    expect(gone.response.status).toBe(404);
    expect(gone.response.headers.get('content-type')).toContain('application/problem+json');
  });

  it('rotates the secret, keeping the previous one for the requested overlap', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'resources:read']);
    const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: hook, events: ['order.created'] } });
    const before = Date.now();
    const rotated = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/rotate-secret', {
      params: { path: { subscription_id: created.data!.id } },
      body: { expire_previous_in_seconds: 3600 },
    });
    expect(rotated.response.status).toBe(200);
    expect(rotated.data!.secret).not.toBe(created.data!.secret);
    const expires = Date.parse(rotated.data!.previous_secret_expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 3600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3600_000 + 1000);
    const stored = await api.mongo.db
      .collection<{ _id: string; secrets: unknown[] }>('subscriptions')
      .findOne({ _id: created.data!.id });
    expect(stored!.secrets).toMatchObject([
      { secret: rotated.data!.secret },
      { secret: created.data!.secret, expires_at: new Date(expires) },
    ]);
  });

  it('serves the event catalogue from the contract', async () => {
    const { client } = await api.clientWith(['webhooks:read']);
    const res = await client.GET('/api/webhooks/v1/event-types');
    expect(res.data!.data.map((e) => e.name)).toEqual(['order.created', 'order.updated', 'webhook.test', 'stock.updated', 'stock.low']);
    const orderCreated = res.data!.data[0]!;
    expect(orderCreated.schema.type).toBe('object');
    expect(orderCreated.schema.required).toEqual(expect.arrayContaining(['order_id', 'total']) as unknown);
    expect(JSON.stringify(orderCreated.schema)).not.toContain('$ref');
  });
});
