import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from '../../../activities/http-post';
import type { components } from '../../../generated/api';
import { startTestApi, type TestApi } from '../../support/api';

type Problem = components['schemas']['Problem'];

// A public address, written as a literal so nothing is resolved; no test ever connects to it.
const publicHost = '93.184.215.14';
const v1 = '/api/webhooks/v1';

/** A loopback CONNECT proxy that records each target and refuses it: where a POST would have gone. */
async function startRefusingProxy(): Promise<{ port: number; targets: string[]; close(): Promise<void> }> {
  const targets: string[] = [];
  const server: Server = createServer((socket) => {
    socket.once('data', (chunk: Buffer) => {
      targets.push(chunk.toString('latin1').split(' ')[1] ?? '');
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, targets, close: () => new Promise((r) => server.close(() => r())) };
}

describe('security: public callbacks only on 80, 443 and 1024–65535 outside well-known service ports', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    api = await startTestApi({ CALLBACK_ALLOW_PRIVATE: 'false' });
    key = (await api.clientWith(['webhooks:read', 'webhooks:write'])).key;
  });
  afterAll(async () => {
    await api.close();
  });

  async function call(method: string, path: string, body: unknown): Promise<{ status: number; type: string | null; body: Problem & { id?: string } }> {
    const res = await fetch(`${api.baseUrl}${path}`, { method, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Problem & { id?: string } };
  }
  const count = () => api.mongo.db.collection('subscriptions').countDocuments({});

  it.each([22, 25, 6379, 5432, 27017, 1023])('refuses a callback URL on port %i, on create and PATCH, naming the port and writing nothing', async (port) => {
    const before = await count();
    const created = await call('POST', `${v1}/subscribe`, { url: `https://${publicHost}:${port}/hooks`, events: ['webhook.test'] });
    expect(created.status).toBeGreaterThanOrEqual(400);
    expect(created.status).toBeLessThan(500);
    expect(created.type).toContain('application/problem+json');
    expect(created.body.errors?.[0]?.path).toBe('/body/url');
    expect(created.body.detail).toContain(`port ${port}`);
    expect(await count()).toBe(before);

    const ok = await call('POST', `${v1}/subscribe`, { url: `https://${publicHost}/hooks`, events: ['webhook.test'] });
    expect(ok.status).toBe(201);
    const stored = await api.mongo.db.collection('subscriptions').findOne({ _id: ok.body.id as never });
    const patched = await call('PATCH', `${v1}/subscriptions/${ok.body.id}`, { url: `https://${publicHost}:${port}/hooks` });
    expect(patched.body.errors?.[0]?.path).toBe('/body/url');
    expect(await api.mongo.db.collection('subscriptions').findOne({ _id: ok.body.id as never })).toEqual(stored);
  });

  it('refuses an OAuth 2.0 token URL on such a port with a 422 naming it', async () => {
    const auth = { type: 'oauth2_client_credentials', token_url: `https://${publicHost}:6379/token`, client_id: 'c', client_secret: 's' };
    const refused = await call('POST', `${v1}/subscribe`, { url: `https://${publicHost}/hooks`, events: ['webhook.test'], auth });
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.[0]?.path).toBe('/body/auth/token_url');
    expect(refused.body.detail).toContain('port 6379 (Redis)');
  });

  it.each([443, 80, 8080, 8443, 1024, 65535])('accepts port %i', async (port) => {
    expect((await call('POST', `${v1}/subscribe`, { url: `https://${publicHost}:${port}/hooks`, events: ['webhook.test'] })).status).toBe(201);
  });

  it('blocks such a port at connect time too (a URL stored before the rule), before any connection', async () => {
    const proxy = await startRefusingProxy();
    try {
      const post = (url: string) =>
        postWebhook({ url, body: '{}', headers: {}, timeoutMs: 2000, allowPrivate: false, proxy: { host: '127.0.0.1', port: proxy.port } });
      const blocked = await post(`http://${publicHost}:6379/hooks`);
      expect(blocked).toMatchObject({ outcome: 'blocked' });
      expect(blocked.outcome === 'blocked' ? blocked.error : '').toContain('port 6379');
      expect(proxy.targets).toEqual([]);
      // An allowed port goes on to the (refusing) proxy: the rule, not the proxy, stopped the first.
      expect((await post(`http://${publicHost}:8080/hooks`)).outcome).not.toBe('blocked');
      expect(proxy.targets).toEqual([`${publicHost}:8080`]);
    } finally {
      await proxy.close();
    }
  });
});
