import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type WebhookServiceClient } from '../../../src/client';
import { startTestApi, type TestApi } from '../../support/api';

const v1 = '/api/webhooks/v1';
const hook = 'http://127.0.0.1:9/hooks';

describe('security: a portal session lives and acts only as its API key does', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  const portal = (token: string): WebhookServiceClient => createClient({ baseUrl: api.baseUrl, headers: { Authorization: `Bearer ${token}` } });

  async function openWith(scopes: Parameters<TestApi['clientWith']>[0], ownerId: string): Promise<{ token: string; keyId: string }> {
    const { client, principal } = await api.clientWith(scopes, ownerId);
    const { data, response } = await client.POST(`${v1}/portal-sessions`, {});
    expect(response.status).toBe(201);
    return { token: data!.token, keyId: principal.keyId };
  }

  it('loses the grants its key loses, at once in the process that changed the key', async () => {
    const { token, keyId } = await openWith(['webhooks:read', 'webhooks:write', 'resources:read'], 'owner-scopes');
    const session = portal(token);
    const before = await session.GET(`${v1}/portal-sessions/current`);
    expect(before.data?.grants).toEqual(['webhooks:read', 'webhooks:write', 'resources:read']);
    const subscribed = await session.POST(`${v1}/subscribe`, { body: { url: hook, events: ['order.created'] } });
    expect(subscribed.response.status).toBe(201);

    expect(await api.deps.apiKeys.setScopes(keyId, ['webhooks:read', 'webhooks:write'])).toBe(true);
    const narrowed = await session.GET(`${v1}/portal-sessions/current`);
    expect(narrowed.data?.grants).toEqual(['webhooks:read', 'webhooks:write']);
    const refused = await session.POST(`${v1}/subscribe`, { body: { url: hook, events: ['order.created'] } });
    expect(refused.response.status).toBe(403);
    expect(refused.response.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.error?.detail).toContain('resources:read');

    await api.deps.apiKeys.setScopes(keyId, ['webhooks:read']);
    const readOnly = await session.POST(`${v1}/subscribe`, { body: { url: hook, events: ['webhook.test'] } });
    expect(readOnly.response.status).toBe(403);
    expect(readOnly.error?.detail).toContain('webhooks:write');
    expect((await session.GET(`${v1}/subscriptions`)).response.status).toBe(200);
  });

  it('ends when its key is revoked: 401 for reads and writes', async () => {
    const { token, keyId } = await openWith(['webhooks:read', 'webhooks:write'], 'owner-revoked');
    const session = portal(token);
    expect((await session.GET(`${v1}/subscriptions`)).response.status).toBe(200);

    expect(await api.deps.apiKeys.revoke(keyId)).toBe(true);
    const read = await session.GET(`${v1}/subscriptions`);
    expect(read.response.status).toBe(401);
    expect(read.response.headers.get('content-type')).toContain('application/problem+json');
    expect(read.error?.detail).toContain('revoked');
    const write = await session.POST(`${v1}/subscribe`, { body: { url: hook, events: ['webhook.test'] } });
    expect(write.response.status).toBe(401);
    expect(await api.mongo.db.collection('subscriptions').countDocuments({ owner_id: 'owner-revoked' })).toBe(0);
  });

  it('an administrator session of a key that is no longer admin is no administrator session', async () => {
    const { token, keyId } = await openWith(['admin'], 'admin');
    const session = portal(token);
    expect((await session.GET(`${v1}/portal-sessions/current`)).data).toMatchObject({ admin: true });
    await api.deps.apiKeys.setScopes(keyId, ['webhooks:read']);
    const info = await session.GET(`${v1}/portal-sessions/current`);
    expect(info.data).toMatchObject({ admin: false, grants: ['webhooks:read'] });
    expect(info.data).not.toHaveProperty('temporal_ui_url');
  });
});
