import { afterEach, describe, expect, it } from 'vitest';
import { assertSourceAddress, postWebhook } from '../../../activities/http-post';
import { getFreePort } from '../../../stack/runtime/ports';
import { startReceiver, type TestReceiver } from '../../support/receiver';

const receivers: TestReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
async function receiver(...args: Parameters<typeof startReceiver>): Promise<TestReceiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

const body = '{"event":"order.created","id":"evt_0000000000000000abcd","data":{"order_id":1,"total":9.5}}';
const post = (url: string, extra: Partial<Parameters<typeof postWebhook>[0]> = {}) =>
  postWebhook({ url, body, headers: { 'Content-Type': 'application/json', 'X-Test': 'yes' }, timeoutMs: 1000, allowPrivate: true, ...extra });

describe('postWebhook against real local receivers', () => {
  it.each([200, 204])('%i is delivered; the exact bytes and headers arrive', async (status) => {
    const r = await receiver((_req, res) => res.writeHead(status).end(status === 204 ? undefined : 'ok'));
    const result = await post(r.url);
    expect(result).toMatchObject({ outcome: 'delivered', statusCode: status });
    expect(r.received).toHaveLength(1);
    expect(r.received[0]!.body).toBe(body);
    expect(r.received[0]!.method).toBe('POST');
    expect(r.received[0]!.headers['x-test']).toBe('yes');
    expect(r.received[0]!.headers['content-length']).toBe(String(Buffer.byteLength(body)));
  });

  it('301 is a failure and the redirect is not followed', async () => {
    const target = await receiver((_req, res) => res.writeHead(200).end());
    const r = await receiver((_req, res) => res.writeHead(301, { Location: target.url }).end());
    expect(await post(r.url)).toMatchObject({ outcome: 'http_error', statusCode: 301 });
    expect(target.received).toHaveLength(0);
  });

  it.each([400, 410, 500])('%i is an http_error with a response excerpt', async (status) => {
    const r = await receiver((_req, res) => res.writeHead(status).end(`status ${status}`));
    expect(await post(r.url)).toMatchObject({ outcome: 'http_error', statusCode: status, responseExcerpt: `status ${status}` });
  });

  it('429 with Retry-After reports the requested wait', async () => {
    const r = await receiver((_req, res) => res.writeHead(429, { 'Retry-After': '120' }).end());
    expect(await post(r.url)).toMatchObject({ outcome: 'http_error', statusCode: 429, retryAfterMs: 120_000 });
  });

  it('a receiver slower than the timeout is a timeout', async () => {
    const r = await receiver((_req, res) => {
      setTimeout(() => res.writeHead(200).end(), 1500);
    });
    const result = await post(r.url, { timeoutMs: 300 });
    expect(result).toMatchObject({ outcome: 'timeout' });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(1500);
  });

  it('a body that never ends is cut at the timeout; the status already received decides', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    expect(await post(r.url, { timeoutMs: 300 })).toMatchObject({ outcome: 'delivered', statusCode: 200 });
  });

  it('connection refused is a network_error', async () => {
    const port = await getFreePort();
    expect(await post(`http://127.0.0.1:${port}/hooks`)).toMatchObject({ outcome: 'network_error', error: 'ECONNREFUSED' });
  });

  it('a connection reset is a network_error', async () => {
    const r = await receiver((req, res) => {
      res.socket?.destroy();
    });
    expect(await post(r.url)).toMatchObject({ outcome: 'network_error', error: 'ECONNRESET' });
  });

  it('reads at most the cap of a large response', async () => {
    const r = await receiver((_req, res) => res.writeHead(500).end('x'.repeat(100_000)));
    const result = await post(r.url, { maxResponseBytes: 1024 });
    expect(result).toMatchObject({ outcome: 'http_error', statusCode: 500 });
    expect('responseExcerpt' in result && result.responseExcerpt.length).toBe(1024);
  });

  it('refuses loopback targets unless private callbacks are allowed; nothing is sent', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    expect(await post(r.url, { allowPrivate: false })).toMatchObject({ outcome: 'blocked' });
    expect(await post(`http://localhost:${r.port}/hooks`, { allowPrivate: false })).toMatchObject({ outcome: 'blocked' });
    expect(r.received).toHaveLength(0);
  });
});

describe('postWebhook bound to a source address (DELIVERY_SOURCE_ADDRESS)', () => {
  it('leaves from the configured address, and from the system-chosen one without it', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    expect(await post(r.url, { sourceAddress: '127.0.0.2' })).toMatchObject({ outcome: 'delivered' });
    expect(await post(r.url, { sourceAddress: '127.0.0.3' })).toMatchObject({ outcome: 'delivered' });
    expect(await post(r.url)).toMatchObject({ outcome: 'delivered' });
    expect(r.received.map((x) => x.remoteAddress)).toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.1']);
  });

  it('binding does not open the address policy: loopback targets stay refused, by literal and by name', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    expect(await post(r.url, { allowPrivate: false, sourceAddress: '127.0.0.2' })).toMatchObject({ outcome: 'blocked' });
    expect(await post(`http://localhost:${r.port}/hooks`, { allowPrivate: false, sourceAddress: '127.0.0.2' })).toMatchObject({ outcome: 'blocked' });
    expect(r.received).toHaveLength(0);
  });

  it('a target of the other family is a network_error that names the source, and nothing is sent', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    const result = await post(`http://[::1]:${r.port}/hooks`, { sourceAddress: '127.0.0.2' });
    expect(result).toMatchObject({ outcome: 'network_error' });
    expect('error' in result && result.error).toBe('::1 is an IPv6 address; deliveries leave from IPv4 127.0.0.2 (DELIVERY_SOURCE_ADDRESS)');
    expect(r.received).toHaveLength(0);
  });

  it('assertSourceAddress accepts an address of this host and names the variable for one it does not have', async () => {
    await expect(assertSourceAddress('127.0.0.2')).resolves.toBeUndefined();
    await expect(assertSourceAddress('192.0.2.1')).rejects.toThrow(/^DELIVERY_SOURCE_ADDRESS 192\.0\.2\.1 cannot be bound on this host \(EADDRNOTAVAIL\)/);
  });
});
