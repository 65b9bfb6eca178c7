import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import { startTestApi, type TestApi } from '../../support/api';

type Problem = components['schemas']['Problem'];

const v1 = '/api/webhooks/v1';
const hook = 'http://127.0.0.1:9/hooks';

/** A request with headers fetch refuses to send (Host), answered with status, content type and parsed body. */
function raw(base: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; type: string; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) }, timeout: 20_000 });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body: text ? (JSON.parse(text) as unknown) : undefined }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 20 s')));
    req.on('error', reject);
    req.end(body);
  });
}

// Inputs an attacker found answered with 500: each is now a 4xx problem naming the field, writing nothing.
describe('no input answers 500 (finding 7)', () => {
  let api: TestApi;
  let key: string;
  const auth = () => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
  const count = (collection: string) => api.mongo.db.collection(collection).countDocuments({});

  beforeAll(async () => {
    api = await startTestApi();
    key = (await api.clientWith(['webhooks:read', 'webhooks:write', 'resources:read', 'admin'])).key;
  });
  afterAll(async () => {
    await api.close();
  });

  it('refuses a deeply nested body with 400 naming /body, with or without an Idempotency-Key', async () => {
    const depth = 20_000;
    const body = `{"url":"${hook}","events":["order.created"],"filter":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    for (const headers of [{ ...auth(), 'idempotency-key': randomUUID() }, auth()]) {
      const res = await raw(api.baseUrl, 'POST', `${v1}/subscribe`, headers, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.type).toContain('application/problem+json');
      expect((res.body as Problem).errors?.[0]).toMatchObject({ path: '/body', message: expect.stringContaining('levels deep') as unknown });
    }
    expect(await count('subscriptions')).toBe(0);
    expect(await count('idempotency_keys')).toBe(0);
  });

  it('refuses U+0000 in a body string, on create and PATCH, with 400 naming the field', async () => {
    const created = await raw(api.baseUrl, 'POST', `${v1}/subscribe`, auth(), JSON.stringify({ url: hook, events: ['order.created'], description: 'a\u0000b' }));
    expect(created.status, JSON.stringify(created.body)).toBe(400);
    expect(created.type).toContain('application/problem+json');
    expect((created.body as Problem).errors).toEqual([{ path: '/body/description', message: expect.stringContaining('U+0000') as unknown }]);
    expect(await count('subscriptions')).toBe(0);

    const ok = await raw(api.baseUrl, 'POST', `${v1}/subscribe`, auth(), JSON.stringify({ url: hook, events: ['order.created'], description: 'before' }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const id = (ok.body as { id: string }).id;
    const patched = await raw(api.baseUrl, 'PATCH', `${v1}/subscriptions/${id}`, auth(), JSON.stringify({ description: 'x\u0000' }));
    expect(patched.status, JSON.stringify(patched.body)).toBe(400);
    expect((patched.body as Problem).errors?.[0]?.path).toBe('/body/description');
    const read = await raw(api.baseUrl, 'GET', `${v1}/subscriptions/${id}`, auth());
    expect((read.body as { description: string }).description).toBe('before');
  });

  it('refuses U+0000 in a query value, a body key and the path with 400 naming each', async () => {
    const query = await raw(api.baseUrl, 'GET', `${v1}/subscriptions?cursor=a%00b`, auth());
    expect(query.status).toBe(400);
    expect((query.body as Problem).errors?.[0]?.path).toBe('/query/cursor');

    const bodyKey = await raw(api.baseUrl, 'POST', `${v1}/subscribe`, auth(), JSON.stringify({ url: hook, events: ['order.created'], filter: { 'da\u0000ta': 1 } }));
    expect(bodyKey.status).toBe(400);
    expect((bodyKey.body as Problem).errors?.[0]?.path).toBe('/body/filter');

    const path = await raw(api.baseUrl, 'GET', `${v1}/subscriptions/sub_%00`, auth());
    expect(path.status).toBe(400);
    expect(path.type).toContain('application/problem+json');
    expect((path.body as Problem).errors?.[0]?.path).toBe('/path');
  });

  it('answers a portal session whatever the Host header says', async () => {
    const res = await raw(api.baseUrl, 'POST', `${v1}/portal-sessions`, { ...auth(), host: 'a b' }, JSON.stringify({ owner_id: 'customer-1' }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((res.body as { url: string }).url.startsWith(`${api.baseUrl}/portal#token=`)).toBe(true);
  });
});
