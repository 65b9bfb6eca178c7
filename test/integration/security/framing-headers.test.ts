import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import { startTestApi, type TestApi } from '../../support/api';

type Problem = components['schemas']['Problem'];

const hook = 'http://127.0.0.1:9/hooks';
const v1 = '/api/webhooks/v1';

describe('security: custom headers that would misframe a delivery are refused', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    api = await startTestApi();
    key = (await api.clientWith(['webhooks:read', 'webhooks:write'])).key;
  });
  afterAll(async () => {
    await api.close();
  });

  async function call(method: string, path: string, body: unknown): Promise<{ status: number; type: string | null; body: Problem & { id?: string } }> {
    const res = await fetch(`${api.baseUrl}${path}`, { method, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Problem & { id?: string } };
  }

  const names = ['Content-Encoding', 'content-language', 'Content-Range', 'Content-Disposition', 'Expect', 'HTTP2-Settings', 'Transfer-Encoding', 'Host', 'Proxy-Authorization'];

  it.each(names)('refuses %s on create and on PATCH with a 422 naming it, writing nothing', async (name) => {
    const count = () => api.mongo.db.collection('subscriptions').countDocuments({});
    const before = await count();
    const created = await call('POST', `${v1}/subscribe`, { url: hook, events: ['webhook.test'], headers: { [name]: 'gzip' } });
    expect(created.status).toBe(422);
    expect(created.type).toContain('application/problem+json');
    expect(created.body.errors?.[0]?.path).toBe(`/body/headers/${name}`);
    expect(created.body.detail).toContain(name);
    expect(await count()).toBe(before);

    const ok = await call('POST', `${v1}/subscribe`, { url: hook, events: ['webhook.test'], headers: { 'X-Tenant': 'acme' } });
    expect(ok.status).toBe(201);
    const stored = await api.mongo.db.collection('subscriptions').findOne({ _id: ok.body.id as never });
    const patched = await call('PATCH', `${v1}/subscriptions/${ok.body.id}`, { headers: { 'X-Tenant': 'acme', [name]: 'gzip' } });
    expect(patched.status).toBe(422);
    expect(patched.body.errors?.[0]?.path).toBe(`/body/headers/${name}`);
    expect(await api.mongo.db.collection('subscriptions').findOne({ _id: ok.body.id as never })).toEqual(stored);
  });
});
