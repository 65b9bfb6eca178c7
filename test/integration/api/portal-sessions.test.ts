import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import { createClient, type WebhookServiceClient } from '../../../src/client';
import { startTestApi, type TestApi } from '../../support/api';
import { waitFor } from '../../support/wait';

type PortalSession = components['schemas']['PortalSessionCreated'];
type Problem = components['schemas']['Problem'];

const hook = 'http://127.0.0.1:9/hooks';
const v1 = '/api/webhooks/v1';

describe('portal sessions', () => {
  let api: TestApi;
  let admin: WebhookServiceClient;
  beforeAll(async () => {
    api = await startTestApi({ TEMPORAL_UI_URL: 'http://temporal-ui.test:8233/' });
    ({ client: admin } = await api.clientWith(['admin'], 'admin'));
  });
  afterAll(async () => {
    await api.close();
  });

  async function open(client: WebhookServiceClient, body?: components['schemas']['PortalSessionCreate']): Promise<PortalSession> {
    const { data, error, response } = await client.POST(`${v1}/portal-sessions`, body ? { body } : {});
    expect(response.status, JSON.stringify(error)).toBe(201);
    return data!;
  }

  const portal = (token: string) => createClient({ baseUrl: api.baseUrl, headers: { Authorization: `Bearer ${token}` } });

  async function raw(path: string, token: string, init: RequestInit = {}): Promise<{ status: number; type: string | null; body: Problem }> {
    const res = await fetch(`${api.baseUrl}${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, ...init.headers } });
    return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Problem };
  }

  it('gives a link to /portal with the token in the fragment, an hour long by default', async () => {
    const before = Date.now();
    const session = await open(admin, { owner_id: 'customer-1' });
    expect(session.owner_id).toBe('customer-1');
    expect(session.admin).toBe(false);
    expect(session.url).toBe(`${api.baseUrl}/portal#token=${session.token}`);
    expect(session.token).toMatch(/^whps_[\w-]+\.[\w-]+$/);
    const lifetime = Date.parse(session.expires_at) - before;
    expect(lifetime).toBeGreaterThan(3_590_000);
    expect(lifetime).toBeLessThanOrEqual(3_601_000);
  });

  it('honours expires_in, and refuses lifetimes outside 60 s to 24 h', async () => {
    const session = await open(admin, { owner_id: 'customer-1', expires_in: 86_400 });
    expect(Date.parse(session.expires_at) - Date.now()).toBeGreaterThan(86_300_000);
    for (const expires_in of [59, 86_401]) {
      const { response, error } = await admin.POST(`${v1}/portal-sessions`, { body: { expires_in } });
      expect(response.status).toBe(400);
      expect(error?.errors?.[0]?.path).toBe('/body/expires_in');
    }
  });

  it('manages only its owner\'s subscriptions: create, list, read, change, test, attempts, stats', async () => {
    const { client: ownerKey } = await api.clientWith(['webhooks:read', 'webhooks:write'], 'customer-2');
    const { data: other } = await (await api.clientWith(['webhooks:write'], 'customer-3')).client.POST(`${v1}/subscribe`, {
      body: { url: hook, events: ['webhook.test'] },
    });
    const session = await open(ownerKey);
    expect(session.owner_id).toBe('customer-2');
    const client = portal(session.token);

    const { data: created, response } = await client.POST(`${v1}/subscribe`, { body: { url: hook, events: ['webhook.test'], description: 'from the portal' } });
    expect(response.status).toBe(201);
    expect(created?.secret).toMatch(/^whsec_/);
    const id = created!.id;
    expect((await api.mongo.db.collection('subscriptions').findOne({ _id: id as never }))?.owner_id).toBe('customer-2');

    const { data: list } = await client.GET(`${v1}/subscriptions`);
    expect(list?.data.map((s) => s.id)).toEqual([id]);
    expect((await client.GET(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: other!.id } } })).response.status).toBe(404);

    const patched = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: id } }, body: { status: 'paused' } });
    expect(patched.data?.status).toBe('paused');
    await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: id } }, body: { status: 'active' } });
    const rotated = await client.POST(`${v1}/subscriptions/{subscription_id}/rotate-secret`, { params: { path: { subscription_id: id } }, body: { expire_previous_in_seconds: 3600 } });
    expect(rotated.response.status).toBe(200);

    const test = await client.POST(`${v1}/subscriptions/{subscription_id}/test`, { params: { path: { subscription_id: id } } });
    expect(test.response.status).toBe(202);
    const attempts = await client.GET(`${v1}/subscriptions/{subscription_id}/attempts`, { params: { path: { subscription_id: id }, query: { outcome: 'delivered' } } });
    expect(attempts.response.status).toBe(200);
    const stats = await client.GET(`${v1}/subscriptions/{subscription_id}/stats`, { params: { path: { subscription_id: id } } });
    expect(stats.data?.buckets).toHaveLength(24);
    expect((await client.GET(`${v1}/event-types`)).response.status).toBe(200);
    expect((await client.DELETE(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: id } } })).response.status).toBe(204);
  });

  it('grants no more than the key that opened it', async () => {
    const { client: writer } = await api.clientWith(['webhooks:write'], 'customer-4');
    const session = await open(writer);
    const client = portal(session.token);
    const list = await raw(`${v1}/subscriptions`, session.token);
    expect(list.status).toBe(403);
    expect(list.body.detail).toContain('portal session lacks the scope webhooks:read');
    // order.* carries order data: only a session from a key that may read orders subscribes to it.
    const refused = await client.POST(`${v1}/subscribe`, { body: { url: hook, events: ['order.created'] } });
    expect(refused.response.status).toBe(403);
    expect(refused.error?.errors?.[0]?.path).toBe('/body/events/0');
    expect(await api.mongo.db.collection('subscriptions').countDocuments({ owner_id: 'customer-4' })).toBe(0);

    const entitled = portal((await open(admin, { owner_id: 'customer-4' })).token);
    expect((await entitled.POST(`${v1}/subscribe`, { body: { url: hook, events: ['order.created'] } })).response.status).toBe(201);
  });

  it('cannot reach resources or open further sessions', async () => {
    const { token } = await open(admin, { owner_id: 'customer-5' });
    for (const [path, method] of [
      ['/api/catalog/products', 'GET'],
      [`${v1}/portal-sessions`, 'POST'],
    ] as const) {
      const res = await raw(path, token, { method, ...(method === 'POST' ? { headers: { 'Content-Type': 'application/json' }, body: '{}' } : {}) });
      expect(res.status, path).toBe(403);
      expect(res.type).toContain('application/problem+json');
    }
  });

  it('lets only an admin key open a session for another owner', async () => {
    const { client: ownerKey } = await api.clientWith(['webhooks:read', 'webhooks:write'], 'customer-6');
    const { response, error } = await ownerKey.POST(`${v1}/portal-sessions`, { body: { owner_id: 'customer-7' } });
    expect(response.status).toBe(403);
    expect(error?.detail).toContain('Only an admin key');
    expect((await open(ownerKey, { owner_id: 'customer-6' })).owner_id).toBe('customer-6');
  });

  it('describes itself at /current; an admin session reads alerts and gets the Temporal UI', async () => {
    const customer = await open(admin, { owner_id: 'customer-8' });
    const { data: info } = await portal(customer.token).GET(`${v1}/portal-sessions/current`);
    expect(info).toEqual({ id: customer.id, owner_id: 'customer-8', expires_at: customer.expires_at, admin: false, grants: ['webhooks:read', 'webhooks:write', 'resources:read'] });

    const operator = await open(admin);
    expect(operator).toMatchObject({ owner_id: 'admin', admin: true });
    const client = portal(operator.token);
    const { data: adminInfo } = await client.GET(`${v1}/portal-sessions/current`);
    expect(adminInfo).toMatchObject({ admin: true, temporal_ui_url: 'http://temporal-ui.test:8233', temporal_namespace: 'default' });
    expect(adminInfo?.grants).toContain('alerts:read');
    expect((await client.GET(`${v1}/alerts`)).response.status).toBe(200);

    const withKey = await admin.GET(`${v1}/portal-sessions/current`);
    expect(withKey.response.status).toBe(403);
  });

  it('answers an altered, forged or expired token with 401 problem+json, and writes nothing', async () => {
    const { token } = await open(admin, { owner_id: 'customer-9' });
    const [body, signature] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(body.slice('whps_'.length), 'base64url').toString()) as Record<string, unknown>;
    const otherOwner = `whps_${Buffer.from(JSON.stringify({ ...claims, own: 'customer-1' })).toString('base64url')}.${signature}`;
    const flipped = `${body}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const expired = await api.expiredPortalToken('customer-9');
    const cases: [string, string][] = [
      [otherOwner, 'not valid'],
      [flipped, 'not valid'],
      ['whps_nonsense', 'malformed'],
      [expired, 'expired'],
    ];
    for (const [bad, says] of cases) {
      const res = await raw(`${v1}/subscribe`, bad, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url: hook, events: ['webhook.test'] }) });
      expect(res.status, says).toBe(401);
      expect(res.type).toContain('application/problem+json');
      expect(res.body.detail).toContain(says);
    }
    expect((await raw(`${v1}/portal-sessions/current`, expired)).body.detail).toMatch(/expired at .*ask for a new link/);
    expect(await api.mongo.db.collection('subscriptions').countDocuments({ owner_id: { $in: ['customer-9', 'customer-1'] } })).toBe(0);
  });

  it('ends an owner\'s sessions on expire-all, everywhere within seconds; later ones work', async () => {
    const second = await startTestApi({ MONGODB_DB: api.config.mongo.dbName });
    try {
      const { token } = await open(admin, { owner_id: 'customer-11' });
      const untouched = await open(admin, { owner_id: 'customer-12' });
      const current = (base: string, t: string) => fetch(`${base}${v1}/portal-sessions/current`, { headers: { Authorization: `Bearer ${t}` } });
      // The second process has read (and cached) that customer-11's sessions were never ended.
      expect((await current(second.baseUrl, token)).status).toBe(200);

      const { client: otherKey } = await api.clientWith(['webhooks:write'], 'customer-13');
      const refused = await otherKey.POST(`${v1}/portal-sessions/expire-all`, { body: { owner_id: 'customer-11' } });
      expect(refused.response.status).toBe(403);
      expect((await current(api.baseUrl, token)).status).toBe(200);

      const { data, response } = await admin.POST(`${v1}/portal-sessions/expire-all`, { body: { owner_id: 'customer-11' } });
      expect(response.status).toBe(200);
      expect(data?.owner_id).toBe('customer-11');
      const ended = await raw(`${v1}/portal-sessions/current`, token);
      expect(ended.status).toBe(401);
      expect(ended.body.detail).toContain('was ended at');
      await waitFor(async () => (await current(second.baseUrl, token)).status === 401, 10_000, 250);
      expect((await current(api.baseUrl, untouched.token)).status).toBe(200);
      const fresh = await open(admin, { owner_id: 'customer-11' });
      expect((await current(second.baseUrl, fresh.token)).status).toBe(200);

      // A key ends its own owner's sessions without naming it.
      const { client: ownKey } = await api.clientWith(['webhooks:write'], 'customer-12');
      expect((await ownKey.POST(`${v1}/portal-sessions/expire-all`, {})).data?.owner_id).toBe('customer-12');
      expect((await current(api.baseUrl, untouched.token)).status).toBe(401);
    } finally {
      await second.close({ keepDatabase: true });
    }
  });

  it('keeps its stored signing key sealed when SECRET_ENCRYPTION_KEY is set', async () => {
    const sealed = await startTestApi({ SECRET_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}` });
    try {
      const { client } = await sealed.clientWith(['webhooks:read', 'webhooks:write'], 'customer-14');
      const { token } = await open(client);
      const stored = await sealed.mongo.db.collection<{ _id: string; key: string }>('service_keys').findOne({ _id: 'portal-session-signing' });
      expect(stored?.key).toMatch(/^enc:v1:k1:/);
      const current = await fetch(`${sealed.baseUrl}${v1}/portal-sessions/current`, { headers: { Authorization: `Bearer ${token}` } });
      expect(current.status).toBe(200);
    } finally {
      await sealed.close();
    }
  });

  it('keeps working across API processes sharing the database (one stored signing key)', async () => {
    const second = await startTestApi({ MONGODB_DB: api.config.mongo.dbName });
    try {
      const { token } = await open(admin, { owner_id: 'customer-10' });
      const res = await fetch(`${second.baseUrl}${v1}/portal-sessions/current`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
    } finally {
      await second.close({ keepDatabase: true });
    }
  });
});
