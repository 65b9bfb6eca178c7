import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import { startTestApi, type TestApi } from '../../support/api';

type Problem = components['schemas']['Problem'];

const hook = 'http://127.0.0.1:9/hooks';

describe('security: subscriptions per owner are capped (MAX_SUBSCRIPTIONS_PER_OWNER)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ MAX_SUBSCRIPTIONS_PER_OWNER: '3' });
  });
  afterAll(async () => {
    await api.close();
  });

  const countOf = (owner: string) => api.mongo.db.collection('subscriptions').countDocuments({ owner_id: owner });

  it('refuses one more than the limit with a 409 naming it, writes nothing, and lets a delete make room', async () => {
    const { client } = await api.clientWith(['webhooks:read', 'webhooks:write'], 'owner-capped');
    const ids: string[] = [];
    for (const path of ['/api/webhooks/v1/subscribe', '/api/webhooks/v2/subscribe', '/api/webhooks/subscribe'] as const) {
      const created = await client.POST(path, { body: { url: hook, events: ['webhook.test'] } });
      expect(created.response.status).toBe(201);
      ids.push(created.data!.id);
    }
    for (const path of ['/api/webhooks/v1/subscribe', '/api/webhooks/v2/subscribe', '/api/webhooks/subscribe'] as const) {
      const refused = await client.POST(path, { body: { url: hook, events: ['webhook.test'] } });
      expect(refused.response.status, path).toBe(409);
      expect(refused.response.headers.get('content-type')).toContain('application/problem+json');
      expect((refused.error as Problem).detail).toContain('at most 3 subscriptions');
    }
    expect(await countOf('owner-capped')).toBe(3);

    // Another owner has a limit of its own.
    const { client: other } = await api.clientWith(['webhooks:write'], 'owner-free');
    expect((await other.POST('/api/webhooks/v1/subscribe', { body: { url: hook, events: ['webhook.test'] } })).response.status).toBe(201);

    const deleted = await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: ids[0]! } } });
    expect(deleted.response.status).toBe(204);
    expect((await client.POST('/api/webhooks/v1/subscribe', { body: { url: hook, events: ['webhook.test'] } })).response.status).toBe(201);
    expect(await countOf('owner-capped')).toBe(3);
  });
});
