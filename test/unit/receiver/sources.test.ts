import { randomBytes } from 'node:crypto';
import http, { type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ReceivedEvent, type SourceOptions, sourceAllowlist, webhookReceiver } from '../../../src/receiver';
import { signatureHeaders } from '../../../src/webhooks/signature';

/** Runs the middleware on a request from `peer` with `headers`: `null` when it passed it on, else the problem it answered. */
function decide(opts: SourceOptions, peer: string | undefined, headers: IncomingHttpHeaders = {}): { status: number; type: string; body: { status: number; detail: string } } | null {
  const req = { socket: { remoteAddress: peer }, headers } as unknown as Request;
  const answer = { status: 0, type: '', body: undefined as unknown };
  const res = {
    status: (s: number) => ((answer.status = s), res),
    type: (t: string) => ((answer.type = t), res),
    json: (b: unknown) => ((answer.body = b), res),
  } as unknown as Response;
  let passed = false;
  sourceAllowlist(opts)(req, res, () => {
    passed = true;
  });
  return passed ? null : (answer as { status: number; type: string; body: { status: number; detail: string } });
}
const allows = (opts: SourceOptions, peer: string | undefined, headers?: IncomingHttpHeaders) => decide(opts, peer, headers) === null;

describe('allowedSources: addresses and CIDR ranges, IPv4 and IPv6', () => {
  it.each([
    [['127.0.0.2/32'], '127.0.0.2', true],
    [['127.0.0.2/32'], '127.0.0.3', false],
    [['127.0.0.2'], '127.0.0.2', true],
    // A dual-stack socket reports IPv4 peers as IPv4-mapped IPv6.
    [['127.0.0.2/32'], '::ffff:127.0.0.2', true],
    [['127.0.0.2/32'], '::ffff:127.0.0.3', false],
    [['::ffff:127.0.0.2'], '127.0.0.2', true],
    [['::ffff:10.0.0.0/104'], '10.200.3.4', true],
    [['10.0.0.0/8'], '10.255.255.255', true],
    [['10.0.0.0/8'], '11.0.0.0', false],
    [['192.168.1.0/24', '203.0.113.7'], '203.0.113.7', true],
    [['192.168.1.0/24', '203.0.113.7'], '192.168.2.1', false],
    [['2001:db8::/32'], '2001:db8:ffff::1', true],
    [['2001:db8::/32'], '2001:db9::1', false],
    [['2001:db8::7/128'], '2001:DB8:0:0:0:0:0:7', true],
    [['::1'], '::1', true],
    [['::1'], '127.0.0.1', false],
    [['127.0.0.1'], '::1', false],
    // The zone names this host's interface, not the sender.
    [['fe80::/10'], 'fe80::1%eth0', true],
    [['0.0.0.0/0'], '198.51.100.1', true],
    [['0.0.0.0/0'], '2001:db8::1', false],
  ])('%j from %s: %s', (allowedSources, peer, expected) => {
    expect(allows({ allowedSources }, peer)).toBe(expected);
  });

  it('answers 403 problem+json naming the refused address', () => {
    expect(decide({ allowedSources: ['127.0.0.2'] }, '::ffff:127.0.0.3')).toEqual({
      status: 403,
      type: 'application/problem+json',
      body: { type: 'about:blank', title: 'Forbidden', status: 403, detail: '127.0.0.3 is not an allowed source address' },
    });
  });

  it('refuses a connection without a peer address (already closed)', () => {
    expect(decide({ allowedSources: ['0.0.0.0/0', '::/0'] }, undefined)?.body.detail).toBe('The connection has no peer address');
  });

  it('ignores X-Forwarded-For and Forwarded unless told to trust a proxy: anyone can send them', () => {
    const forged = { 'x-forwarded-for': '127.0.0.2', forwarded: 'for=127.0.0.2' };
    expect(allows({ allowedSources: ['127.0.0.2'] }, '198.51.100.9', forged)).toBe(false);
  });

  it.each([
    [['not-an-ip'], /allowedSources: "not-an-ip" is not an IP address or CIDR range/],
    [['10.0.0.0/33'], /allowedSources: "10\.0\.0\.0\/33"/],
    [['127.0.0.1:8080'], /allowedSources: "127\.0\.0\.1:8080"/],
    [[], /allowedSources is empty/],
  ])('refuses %j at setup', (allowedSources, message) => {
    expect(() => sourceAllowlist({ allowedSources })).toThrow(message);
  });
});

describe('trustProxy: the sender as trusted proxies name it', () => {
  const behindOne: SourceOptions = { allowedSources: ['127.0.0.2'], trustProxy: { header: 'x-forwarded-for', hops: 1 } };

  it('takes the entry the nearest proxy appended, so entries a client forged to its left do not count', () => {
    expect(allows(behindOne, '10.0.0.1', { 'x-forwarded-for': '127.0.0.2' })).toBe(true);
    expect(allows(behindOne, '10.0.0.1', { 'x-forwarded-for': '127.0.0.2, 198.51.100.9' })).toBe(false);
    expect(allows(behindOne, '10.0.0.1', { 'x-forwarded-for': '198.51.100.9,127.0.0.2' })).toBe(true);
    // Without a header the sender is unknown; the proxy's own address is not the sender.
    expect(decide(behindOne, '127.0.0.2')?.body.detail).toBe('x-forwarded-for names 0 address(es), fewer than the 1 trusted proxy hop(s) add, so the sender is unknown');
  });

  it('counts hops from the right through a chain of proxies', () => {
    const two: SourceOptions = { allowedSources: ['127.0.0.2'], trustProxy: { hops: 2 } };
    expect(allows(two, '10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 127.0.0.2, 10.0.0.2' })).toBe(true);
    expect(allows(two, '10.0.0.1', { 'x-forwarded-for': '127.0.0.2, 6.6.6.6, 10.0.0.2' })).toBe(false);
    expect(allows(two, '10.0.0.1', { 'x-forwarded-for': '10.0.0.2' })).toBe(false);
  });

  it('reads IPv6, IPv4-mapped and entries with ports; refuses an entry that is no address', () => {
    expect(allows({ allowedSources: ['2001:db8::/32'], trustProxy: { hops: 1 } }, '10.0.0.1', { 'x-forwarded-for': '[2001:db8::17]:4711' })).toBe(true);
    expect(allows(behindOne, '10.0.0.1', { 'x-forwarded-for': '::ffff:127.0.0.2' })).toBe(true);
    expect(allows(behindOne, '10.0.0.1', { 'x-forwarded-for': '127.0.0.2:50123' })).toBe(true);
    expect(decide(behindOne, '10.0.0.1', { 'x-forwarded-for': 'unknown' })?.body.detail).toBe('x-forwarded-for entry "unknown" is not an IP address');
  });

  it('reads RFC 7239 Forwarded for= values and single-entry headers like X-Real-IP', () => {
    const forwarded: SourceOptions = { allowedSources: ['2001:db8::17', '127.0.0.2'], trustProxy: { header: 'Forwarded', hops: 1 } };
    expect(allows(forwarded, '10.0.0.1', { forwarded: 'for=198.51.100.9, for="[2001:db8::17]:4711";proto=https' })).toBe(true);
    expect(allows(forwarded, '10.0.0.1', { forwarded: 'proto=https;for=127.0.0.2;by=10.0.0.1' })).toBe(true);
    expect(allows(forwarded, '10.0.0.1', { forwarded: 'for=127.0.0.2, proto=https' })).toBe(false);
    expect(allows(forwarded, '10.0.0.1', { forwarded: 'for=_hidden' })).toBe(false);
    expect(allows({ allowedSources: ['127.0.0.2'], trustProxy: { header: 'X-Real-IP', hops: 1 } }, '10.0.0.1', { 'x-real-ip': '127.0.0.2' })).toBe(true);
  });

  it('with proxies, refuses a request that came around them, whatever its header says', () => {
    const listed: SourceOptions = { allowedSources: ['127.0.0.2'], trustProxy: { hops: 1, proxies: ['10.0.0.0/24', 'fd00::1'] } };
    expect(allows(listed, '10.0.0.9', { 'x-forwarded-for': '127.0.0.2' })).toBe(true);
    expect(allows(listed, 'fd00::1', { 'x-forwarded-for': '127.0.0.2' })).toBe(true);
    expect(decide(listed, '198.51.100.9', { 'x-forwarded-for': '127.0.0.2' })?.body.detail).toBe('198.51.100.9 is not a trusted proxy');
  });

  it.each([
    [{ allowedSources: ['127.0.0.2'], trustProxy: { hops: 0 } }, /trustProxy.hops must be a whole number/],
    [{ allowedSources: ['127.0.0.2'], trustProxy: { hops: 1.5 } }, /trustProxy.hops must be a whole number/],
    [{ allowedSources: ['127.0.0.2'], trustProxy: { hops: 1, proxies: ['proxy.internal'] } }, /trustProxy.proxies: "proxy.internal"/],
  ])('refuses %j at setup', (opts, message) => {
    expect(() => sourceAllowlist(opts)).toThrow(message);
  });

  it('webhookReceiver refuses trustProxy without allowedSources', () => {
    expect(() => webhookReceiver({ secret: 'whsec_x', dedupe: false, handle: () => Promise.resolve(), trustProxy: { hops: 1 } })).toThrow(/set allowedSources too/);
  });
});

describe('webhookReceiver with allowedSources, over real sockets', () => {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
  });

  /** A receiver app on loopback; `reads` records, as each answer starts, whether anything had read the request body. */
  async function receiver(allowedSources: readonly string[]) {
    const handle = vi.fn((_event: ReceivedEvent) => Promise.resolve());
    const reads: Array<{ status: number; bodyRead: boolean; dataListeners: number }> = [];
    const app = express();
    app.use((req, res, next) => {
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
      res.writeHead = ((...args: unknown[]) => {
        reads.push({ status: res.statusCode, bodyRead: req.readableDidRead, dataListeners: req.listenerCount('data') });
        return writeHead(...args);
      }) as typeof res.writeHead;
      next();
    });
    app.use('/hooks', webhookReceiver({ secret, dedupe: false, handle, allowedSources }));
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((r) => server.once('listening', r));
    return { port: (server.address() as AddressInfo).port, handle, reads };
  }

  /** Sends the headers and only the first bytes of a body it never finishes, from `localAddress`; resolves with the answer. */
  function postUnfinished(port: number, localAddress: string, headers: Record<string, string>, body: string): Promise<{ res: IncomingMessage; text: string; req: http.ClientRequest }> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/hooks', method: 'POST', localAddress, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } });
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ res, text, req }));
      });
      req.write(body.slice(0, 10));
      req.flushHeaders();
    });
  }

  /** POSTs a whole delivery from `localAddress`; resolves with the answer. */
  function postFrom(port: number, localAddress: string, headers: Record<string, string>, body: string): Promise<{ status: number | undefined; text: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/hooks', method: 'POST', localAddress, agent: false, headers: { ...headers, 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  function delivery() {
    const id = `evt_${randomBytes(8).toString('hex')}`;
    const body = JSON.stringify({ event: 'webhook.test', id, data: { message: 'hi', subscription_id: 'sub_x' } });
    return { id, body, headers: signatureHeaders({ id, timestamp: Math.floor(Date.now() / 1000), body, secrets: [secret] }) as unknown as Record<string, string> };
  }

  it('answers 403 before the body is read: the refusal arrives while the body is still unsent, and nothing is verified or handled', async () => {
    const r = await receiver(['127.0.0.3']);
    const d = delivery();
    const { res, text, req } = await postUnfinished(r.port, '127.0.0.2', d.headers, d.body);
    req.destroy();
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(text)).toMatchObject({ status: 403, detail: '127.0.0.2 is not an allowed source address' });
    expect(r.reads).toEqual([{ status: 403, bodyRead: false, dataListeners: 0 }]);
    expect(r.handle).not.toHaveBeenCalled();
  });

  it('passes an allowed sender on to the body, the signature and the handler', async () => {
    const r = await receiver(['127.0.0.2/32']);
    const d = delivery();
    const answer = await postFrom(r.port, '127.0.0.2', d.headers, d.body);
    expect(answer).toEqual({ status: 200, text: '{"received":true}' });
    await vi.waitFor(() => expect(r.handle).toHaveBeenCalledWith(expect.objectContaining({ id: d.id })));
  });

  it('an allowed sender still needs a valid signature', async () => {
    const r = await receiver(['127.0.0.2/32']);
    const d = delivery();
    const tampered = { ...d.headers, 'webhook-signature': 'v1,AAAA' };
    const answer = await postFrom(r.port, '127.0.0.2', tampered, d.body);
    expect(answer.status).toBe(401);
    expect(r.handle).not.toHaveBeenCalled();
  });
});
