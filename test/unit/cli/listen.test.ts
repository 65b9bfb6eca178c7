import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { excerptOf, forward, isLoopback, withRetries } from '../../../src/cli/listen';

const message = (ackBy: Date) => ({
  id: 'pmsg_00000000000000000000000000000001',
  event_id: 'evt_1',
  attempt: 1,
  body: '{"id":"evt_1"}',
  headers: { 'Content-Type': 'application/json', 'webhook-id': 'evt_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x', 'X-Signature': 'x', Host: 'evil.example', 'Transfer-Encoding': 'chunked' },
  created_at: new Date().toISOString(),
  ack_by: ackBy.toISOString(),
});

describe('listen', () => {
  let url = '';
  let seen: IncomingHttpHeaders | undefined;
  const server = createServer((req, res) => {
    seen = req.headers;
    req.resume();
    // /slow never answers: the forward must give up before the deadline.
    if (req.url === '/slow') return;
    res.writeHead(200).end('a\0b');
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('forwards only the documented headers and reports the answer without NUL', async () => {
    const outcome = await forward(`${url}/hooks`, message(new Date(Date.now() + 30_000)));
    expect(outcome).toMatchObject({ status_code: 200, response_excerpt: 'a\uFFFDb' });
    expect(Object.keys(seen!).filter((h) => h.startsWith('webhook-') || h === 'x-signature' || h === 'content-type')).toHaveLength(5);
    expect(seen!.host).not.toBe('evil.example');
  });

  it('gives up on a local receiver in time to report before the deadline', async () => {
    const outcome = await forward(`${url}/slow`, message(new Date(Date.now() + 2500)));
    expect(outcome.status_code).toBe(502);
    expect(outcome.response_excerpt).toMatch(/before the deadline/);
  });

  it('forwards to this machine only', () => {
    for (const u of ['http://localhost:3000/x', 'http://127.0.0.1:1/', 'http://127.8.0.1/', 'http://[::1]:8080/']) expect(isLoopback(u), u).toBe(true);
    for (const u of ['http://example.com/', 'http://10.0.0.1/', 'http://127.0.0.1.example.com/', 'not a url']) expect(isLoopback(u), u).toBe(false);
    expect(excerptOf('x'.repeat(2000))).toHaveLength(1024);
  });

  it('calls again after a 429, a 503 or a network error, as Retry-After says', async () => {
    const answers: Array<number | 'network'> = [429, 'network', 503, 200];
    let calls = 0;
    const res = await withRetries(() => {
      const next = answers[calls++]!;
      if (next === 'network') return Promise.reject(new TypeError('fetch failed'));
      return Promise.resolve({ response: new Response(null, { status: next, headers: { 'Retry-After': '0' } }) });
    });
    expect(calls).toBe(4);
    expect(res!.response.status).toBe(200);
    // Not past `until`: the last refusal is the answer.
    const late = await withRetries(() => Promise.resolve({ response: new Response(null, { status: 503, headers: { 'Retry-After': '60' } }) }), { until: Date.now() + 1000 });
    expect(late!.response.status).toBe(503);
  });
});
