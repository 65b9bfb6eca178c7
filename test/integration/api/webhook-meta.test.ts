import { afterEach, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../support/api';

const apis: TestApi[] = [];
afterEach(async () => {
  await Promise.all(apis.splice(0).map((api) => api.close()));
});
async function api(env: Record<string, string> = {}): Promise<TestApi> {
  const started = await startTestApi(env);
  apis.push(started);
  return started;
}

describe('GET /api/webhooks/v1/meta: where deliveries come from', () => {
  it('says honestly that no address is fixed when DELIVERY_SOURCE_ADDRESS is unset, without a key', async () => {
    const { data, response } = await (await api()).anonymous().GET('/api/webhooks/v1/meta');
    expect(response.status).toBe(200);
    expect(data).toEqual({ delivery_source_addresses: [], delivery_source_addresses_fixed: false });
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
  });

  it.each([
    ['127.0.0.2', '127.0.0.2/32'],
    ['::ffff:127.0.0.2', '127.0.0.2/32'],
    ['2001:DB8::7', '2001:db8::7/128'],
  ])('publishes DELIVERY_SOURCE_ADDRESS=%s as %s', async (value, range) => {
    const { data, response } = await (await api({ DELIVERY_SOURCE_ADDRESS: value })).anonymous().GET('/api/webhooks/v1/meta');
    expect(response.status).toBe(200);
    expect(data).toEqual({ delivery_source_addresses: [range], delivery_source_addresses_fixed: true });
  });

  it('is public even when a key is sent, and refuses parameters the contract does not name', async () => {
    const service = await api();
    const withKey = await fetch(`${service.baseUrl}/api/webhooks/v1/meta`, { headers: { Authorization: 'Bearer not-a-key' } });
    expect(withKey.status).toBe(200);
    const unknown = await fetch(`${service.baseUrl}/api/webhooks/v1/meta?region=eu`);
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
