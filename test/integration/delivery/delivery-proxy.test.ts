import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptDoc } from '../../../src/deliveries/attempts';
import { verify } from '../../../src/receiver';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { startConnectProxy, type TestProxy } from '../../support/connect-proxy';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

const v1 = '/api/webhooks/v1';

describe('DELIVERY_PROXY_URL: every delivery and token request through a CONNECT proxy, the address policy still first', () => {
  let proxy: TestProxy;
  let receiver: TestReceiver;
  let tokenServer: Server;
  let tokenUrl: string;
  let api: TestApi;
  let worker: TestWorker;
  /** Same proxy, CALLBACK_ALLOW_PRIVATE=false in the worker: the production SSRF policy. */
  let strictApi: TestApi;
  let strictWorker: TestWorker;

  beforeAll(async () => {
    proxy = await startConnectProxy();
    receiver = await startReceiver((req, res) => res.writeHead(req.headers.authorization === 'Bearer via-proxy-token' ? 200 : 401).end());
    tokenServer = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"access_token":"via-proxy-token","token_type":"bearer","expires_in":600}'));
    await new Promise<void>((r) => tokenServer.listen(0, '127.0.0.1', r));
    tokenUrl = `http://localhost:${(tokenServer.address() as AddressInfo).port}/token`;
    const env = { DELIVERY_PROXY_URL: proxy.url, SECRET_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}` };
    [api, strictApi] = await Promise.all([startTestApi(env), startTestApi(env)]);
    await Promise.all([seedDemoData(api.mongo.db), seedDemoData(strictApi.mongo.db)]);
    expect(api.config.delivery.proxy).toEqual({ host: '127.0.0.1', port: proxy.port });
    [worker, strictWorker] = await Promise.all([startTestWorker(api), startTestWorker(strictApi, { allowPrivate: false })]);
  });
  afterAll(async () => {
    await Promise.all([worker?.stop(), strictWorker?.stop()]);
    await Promise.all([receiver?.close(), proxy?.close(), new Promise((r) => tokenServer?.close(r))]);
    await Promise.all([api?.close(), strictApi?.close()]);
  });

  it('delivers through the proxy, the OAuth 2.0 token request too, asking it for the resolved address', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write']);
    const created = await client.POST(`${v1}/subscribe`, {
      body: { url: `http://localhost:${receiver.port}/hooks`, events: ['order.created'], auth: { type: 'oauth2_client_credentials', token_url: tokenUrl, client_id: 'c', client_secret: 's' } },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    await waitFor(() => receiver.received.length === 1, 20_000);
    const delivery = receiver.received[0]!;
    expect(verify(delivery.body, delivery.headers, created.data!.secret)).toMatchObject({ event: 'order.created' });
    expect(delivery.headers.host).toBe(`localhost:${receiver.port}`);
    expect(delivery.headers.authorization).toBe('Bearer via-proxy-token');
    // The token endpoint first, then the receiver; both by address, never by name.
    const tokenPort = (tokenServer.address() as AddressInfo).port;
    expect(proxy.connects.map((c) => c.target)).toEqual([`127.0.0.1:${tokenPort}`, `127.0.0.1:${receiver.port}`]);
    expect(proxy.refused).toEqual([]);
  });

  it('refuses a callback to a private address even with the proxy set: blocked, and the proxy never asked', async () => {
    const { client } = await strictApi.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write']);
    // The strict worker's policy refuses loopback; the API here still accepts it (CALLBACK_ALLOW_PRIVATE=true), as a URL that resolved publicly when it was set might later.
    const created = await client.POST(`${v1}/subscribe`, { body: { url: `http://127.0.0.1:${receiver.port}/private`, events: ['order.created'] } });
    const byName = await client.POST(`${v1}/subscribe`, { body: { url: `http://localhost:${receiver.port}/private-by-name`, events: ['order.created'] } });
    expect([created.response.status, byName.response.status]).toEqual([201, 201]);
    const before = proxy.connects.length;
    const received = receiver.received.length;
    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    const attempts = strictApi.mongo.db.collection<AttemptDoc>('attempts');
    await waitFor(async () => (await attempts.countDocuments({ subscription_id: { $in: [created.data!.id, byName.data!.id] } })) === 2, 20_000);
    const logged = await attempts.find().toArray();
    expect(logged.map((a) => a.outcome)).toEqual(['blocked', 'blocked']);
    expect(logged.map((a) => a.error).sort()).toEqual([expect.stringContaining('loopback'), expect.stringContaining('loopback')]);
    expect(proxy.connects.length).toBe(before);
    expect(receiver.received.length).toBe(received);
  });
});
