import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type DeliveryProxy, postWebhook } from '../../../activities/http-post';
import { getFreePort } from '../../../stack/runtime/ports';
import { startConnectProxy, type TestProxy } from '../../support/connect-proxy';
import { startReceiver, type TestReceiver } from '../../support/receiver';

const open: Array<TestReceiver | TestProxy> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});
async function receiver(...args: Parameters<typeof startReceiver>): Promise<TestReceiver> {
  const r = await startReceiver(...args);
  open.push(r);
  return r;
}
async function proxy(): Promise<TestProxy> {
  const p = await startConnectProxy();
  open.push(p);
  return p;
}
const via = (p: TestProxy, authorization?: string): DeliveryProxy => ({ host: '127.0.0.1', port: p.port, authorization });

const body = '{"event":"order.created","id":"evt_0000000000000000abcd","data":{"order_id":1}}';
const post = (url: string, extra: Partial<Parameters<typeof postWebhook>[0]> = {}) =>
  postWebhook({ url, body, headers: { 'Content-Type': 'application/json', 'X-Test': 'yes' }, timeoutMs: 2000, allowPrivate: true, ...extra });

describe('postWebhook through a real CONNECT proxy (DELIVERY_PROXY_URL)', () => {
  it('tunnels to the resolved address, keeps the Host name, and sends Proxy-Authorization', async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end());
    const p = await proxy();
    const result = await post(`http://localhost:${r.port}/hooks?x=1`, { proxy: via(p, 'Basic dTpw') });
    expect(result).toMatchObject({ outcome: 'delivered', statusCode: 204 });
    // The proxy is asked for the address the guard checked, never for the name.
    expect(p.connects).toEqual([{ target: `127.0.0.1:${r.port}`, proxyAuthorization: 'Basic dTpw' }]);
    expect(r.received).toHaveLength(1);
    expect(r.received[0]!.body).toBe(body);
    expect(r.received[0]!.url).toBe('/hooks?x=1');
    expect(r.received[0]!.headers.host).toBe(`localhost:${r.port}`);
    expect(r.received[0]!.headers['x-test']).toBe('yes');
    expect(r.received[0]!.headers['proxy-authorization']).toBeUndefined();
  });

  it('refuses a private destination before any CONNECT, by literal and by name', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    const p = await proxy();
    expect(await post(r.url, { allowPrivate: false, proxy: via(p) })).toMatchObject({ outcome: 'blocked' });
    expect(await post(`http://localhost:${r.port}/hooks`, { allowPrivate: false, proxy: via(p) })).toMatchObject({ outcome: 'blocked' });
    expect(await post('http://169.254.169.254/latest/meta-data', { allowPrivate: false, proxy: via(p) })).toMatchObject({ outcome: 'blocked' });
    expect(p.connects).toEqual([]);
    expect(r.received).toHaveLength(0);
  });

  it('a proxy that refuses the tunnel, or is not there, is a network_error naming the proxy', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    const p = await proxy();
    // The test proxy answers 502 when it cannot reach the target.
    const dead = await getFreePort();
    const refused = await post(`http://127.0.0.1:${dead}/hooks`, { proxy: via(p) });
    expect(refused).toMatchObject({ outcome: 'network_error' });
    expect('error' in refused && refused.error).toContain('refused CONNECT');
    const gone = await post(r.url, { proxy: { host: '127.0.0.1', port: await getFreePort() } });
    expect(gone).toMatchObject({ outcome: 'network_error', error: 'ECONNREFUSED' });
    expect(r.received).toHaveLength(0);
  });

  it('times out a receiver that never answers inside the tunnel', async () => {
    const r = await receiver(() => undefined);
    const p = await proxy();
    expect(await post(r.url, { proxy: via(p), timeoutMs: 300 })).toMatchObject({ outcome: 'timeout' });
  });

  it('runs TLS inside the tunnel with the name as SNI, and verifies the certificate', async () => {
    const p = await proxy();
    const names: Array<string | undefined> = [];
    const tls = { key: readFileSync(new URL('../../fixtures/tls/localhost-key.pem', import.meta.url)), cert: readFileSync(new URL('../../fixtures/tls/localhost-cert.pem', import.meta.url)) };
    const server = createHttpsServer({ ...tls, SNICallback: (name, cb) => (names.push(name), cb(null, undefined)) }, (_req, res) => res.writeHead(200).end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const result = await post(`https://localhost:${port}/hooks`, { proxy: via(p) });
      // Self-signed, so not trusted: the check was made (never switched off for tunnels).
      expect(result).toMatchObject({ outcome: 'network_error', error: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
      expect(names).toEqual(['localhost']);
      expect(p.connects.map((c) => c.target)).toEqual([`127.0.0.1:${port}`]);
    } finally {
      server.close();
    }
  });
});
