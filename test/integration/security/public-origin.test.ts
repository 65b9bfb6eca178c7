import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, type TestApi } from '../../support/api';

const v1 = '/api/webhooks/v1';

/** A request with a forged Host header (fetch refuses to send one), answered with status and parsed body. */
function withHost(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: unknown }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, {
      method,
      headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}) },
      timeout: 20_000,
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as unknown) : undefined }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 20 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

// Without PUBLIC_URL (development and tests) links name the address the request reached, never its Host header.
describe('links never follow the Host header (finding 9)', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    api = await startTestApi();
    await seedDemoData(api.mongo.db);
    key = (await api.clientWith(['webhooks:read', 'webhooks:write', 'resources:read', 'orders:write', 'admin'])).key;
  });
  afterAll(async () => {
    await api.close();
  });

  const evil = () => ({ authorization: `Bearer ${key}`, host: 'evil.example' });

  it("a portal session's link", async () => {
    const res = await withHost(api.baseUrl, 'POST', `${v1}/portal-sessions`, evil(), { owner_id: 'customer-1' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const url = (res.body as { url: string }).url;
    expect(url).not.toContain('evil.example');
    expect(url.startsWith(`${api.baseUrl}/portal#token=`)).toBe(true);
  });

  it("an event's data.url in a subscription's event list", async () => {
    const sub = await withHost(api.baseUrl, 'POST', `${v1}/subscribe`, evil(), { url: 'http://127.0.0.1:9/hook', events: ['order.created'] });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const order = await withHost(api.baseUrl, 'POST', '/api/orders/', evil(), { user_id: 1, items: [{ product_id: 3, quantity: 1 }] });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const events = await withHost(api.baseUrl, 'GET', `${v1}/subscriptions/${(sub.body as { id: string }).id}/events`, evil());
    expect(events.status, JSON.stringify(events.body)).toBe(200);
    const urls = (events.body as { data: Array<{ data: { url: string } }> }).data.map((e) => e.data.url);
    expect(urls).toEqual([`${api.baseUrl}/api/orders/${(order.body as { id: number }).id}`]);
  });
});
