import http from 'node:http';
import https from 'node:https';
import { connect as netConnect, createServer, isIP, type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import type { PostResult } from '../workflows/delivery-model';
import { callbackPortProblem, classifyAddress, createGuardedLookup, portOf } from '../src/webhooks/address-policy';
import type { DeliveryProxy } from '../src/webhooks/delivery-proxy';

export type { DeliveryProxy } from '../src/webhooks/delivery-proxy';
export type { PostResult } from '../workflows/delivery-model';

export interface PostRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Allow loopback/private targets (local development and tests only). */
  allowPrivate: boolean;
  /** At most this many response bytes are read and kept. */
  maxResponseBytes?: number;
  /**
   * Local address the connection leaves from (DELIVERY_SOURCE_ADDRESS), so receivers can allow-list
   * it; only destinations of its family are reachable then. Unset: the system chooses.
   */
  sourceAddress?: string | undefined;
  /** HTTP CONNECT proxy every POST goes through (DELIVERY_PROXY_URL); absent: straight to the receiver. */
  proxy?: DeliveryProxy | undefined;
}

// Keep-alive pools: deliveries to the same receiver reuse connections. The guarded lookup
// runs on every new connection, so a reused socket was checked when it was opened.
const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }) };
const lookups = { strict: createGuardedLookup({ allowPrivate: false }), open: createGuardedLookup({ allowPrivate: true }) };

class DeliveryTimeout extends Error {
  constructor(ms: number) {
    super(`no complete answer within ${ms} ms`);
  }
}

/** Parses Retry-After (seconds or an HTTP date) into milliseconds from now. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * POSTs `body` exactly as given, with a hard timeout over the whole exchange, no redirects
 * followed, the response read up to a small cap, and private addresses refused at connect
 * time (resolve-then-connect) unless allowed.
 */
export function postWebhook(req: PostRequest): Promise<PostResult> {
  const startedAt = Date.now();
  const t0 = performance.now();
  const elapsed = () => Math.round(performance.now() - t0);
  const cap = req.maxResponseBytes ?? 1024;
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      resolve({ startedAt, durationMs: 0, outcome: 'blocked', error: 'invalid callback URL' });
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // Node skips `lookup` for IP literals, so they are checked here.
    if (!req.allowPrivate && isIP(host)) {
      const cls = classifyAddress(host);
      if (cls) {
        resolve({ startedAt, durationMs: 0, outcome: 'blocked', error: `${host} is a ${cls} address` });
        return;
      }
    }
    // The port rule holds at connect time too: a URL stored before it never reaches such a port.
    const portProblem = req.allowPrivate ? undefined : callbackPortProblem(portOf(url));
    if (portProblem) {
      resolve({ startedAt, durationMs: 0, outcome: 'blocked', error: portProblem });
      return;
    }
    const sourceFamily = req.sourceAddress ? isIP(req.sourceAddress) : 0;
    // A socket bound to one family cannot reach the other; say why instead of the kernel's EINVAL.
    if (!req.proxy && sourceFamily !== 0 && isIP(host) !== 0 && isIP(host) !== sourceFamily) {
      resolve({ startedAt, durationMs: 0, outcome: 'network_error', error: `${host} is an IPv${isIP(host)} address; deliveries leave from IPv${sourceFamily} ${req.sourceAddress} (DELIVERY_SOURCE_ADDRESS)` });
      return;
    }
    const transport = url.protocol === 'https:' ? https : http;
    const lookup = req.allowPrivate ? lookups.open : lookups.strict;
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    // Through a proxy: one tunnel per POST (no agent: Node then calls createConnection), opened only after the destination passed the guard.
    const route = req.proxy
      ? { createConnection: tunnel(req.proxy, host, port, url.protocol === 'https:', lookup, req.sourceAddress, req.timeoutMs) }
      : {
          agent: url.protocol === 'https:' ? agents['https:'] : agents['http:'],
          lookup,
          // The guarded lookup still checks every address it returns; `family` only narrows them to the ones this source can reach.
          ...(sourceFamily !== 0 ? { localAddress: req.sourceAddress, family: sourceFamily } : {}),
        };
    let settled = false;
    const finish = (r: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const request = transport.request(url, {
      method: 'POST',
      ...route,
      headers: { ...req.headers, 'Content-Length': Buffer.byteLength(req.body).toString() },
    });
    // Once the status line is in, it decides the outcome; the timeout then only cuts the body short.
    let answered: (() => void) | undefined;
    const timer = setTimeout(() => {
      answered?.();
      // Destroyed, not left to finish: a socket held by an endless body would never return to the pool.
      request.destroy(new DeliveryTimeout(req.timeoutMs));
      // A request still queued for a pooled socket emits nothing when destroyed: settle at the deadline regardless.
      finish(timeoutResult());
    }, req.timeoutMs);
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () =>
        finish({
          startedAt,
          durationMs: elapsed(),
          outcome: res.statusCode! >= 200 && res.statusCode! < 300 ? 'delivered' : 'http_error',
          statusCode: res.statusCode!,
          responseExcerpt: Buffer.concat(chunks).subarray(0, cap).toString('utf8'),
          ...(retryAfter(res.statusCode!, res.headers['retry-after']) ?? {}),
        });
      answered = done;
      res.on('data', (chunk: Buffer) => {
        if (size < cap) chunks.push(chunk);
        size += chunk.length;
        // Enough read: the status decides the outcome; drop the rest of a large body.
        if (size >= cap) {
          done();
          res.destroy();
        }
      });
      res.on('end', done);
      res.on('error', done);
    });
    const timeoutResult = (): PostResult => ({
      startedAt,
      durationMs: elapsed(),
      outcome: 'timeout',
      error: `no complete answer within ${req.timeoutMs} ms`,
    });
    request.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof DeliveryTimeout) finish(timeoutResult());
      else if (err.code === 'EFORBIDDENADDRESS') finish({ startedAt, durationMs: elapsed(), outcome: 'blocked', error: err.message });
      else finish({ startedAt, durationMs: elapsed(), outcome: 'network_error', error: err.code === 'EPROXY' ? err.message : (err.code ?? err.message) });
    });
    request.end(req.body);
  });
}

/**
 * Resolves when `address` is an address of this host that sockets can be bound to; rejects
 * otherwise, naming DELIVERY_SOURCE_ADDRESS, so a worker fails at start rather than on every POST.
 */
export async function assertSourceAddress(address: string): Promise<void> {
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: address, port: 0 }, resolve);
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    throw new Error(`DELIVERY_SOURCE_ADDRESS ${address} cannot be bound on this host (${code}): set it to one of this host's addresses, or leave it unset`);
  } finally {
    server.close();
  }
}

function retryAfter(status: number, header: string | undefined): { retryAfterMs: number } | undefined {
  if (status !== 429 && status !== 503) return undefined;
  const ms = parseRetryAfter(header);
  return ms === undefined ? undefined : { retryAfterMs: ms };
}

/** Raised when the proxy does not open the tunnel; a network error of the attempt. */
class ProxyError extends Error {
  readonly code = 'EPROXY';
}

/**
 * A `createConnection` that reaches `host:port` through an HTTP CONNECT proxy. The destination
 * is resolved first with the guarded lookup (IP literals were checked by the caller), and the
 * proxy is asked for the checked IP, not the name: it cannot resolve the name elsewhere, so it
 * is no way around the address policy. TLS (for https) runs inside the tunnel with the name as
 * SNI and certificate identity; http also tunnels, so every POST takes the same road.
 */
function tunnel(proxy: DeliveryProxy, host: string, port: number, tls: boolean, lookup: LookupFunction, localAddress: string | undefined, timeoutMs: number) {
  return (_opts: unknown, done: (err: Error | null, socket: Duplex) => void): undefined => {
    // Node ignores the socket argument when there is an error.
    const fail = (err: Error) => done(err, undefined as unknown as Duplex);
    const connectTo = (address: string) => {
      const target = isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`;
      const socket = netConnect({ host: proxy.host, port: proxy.port, ...(localAddress ? { localAddress } : {}) });
      // Bounded like the POST: a proxy that never answers must not hold the socket open.
      socket.setTimeout(timeoutMs, () => socket.destroy(new ProxyError(`proxy ${proxy.host}:${proxy.port} did not answer CONNECT ${target} within ${timeoutMs} ms`)));
      let head = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end === -1) {
          if (head.length > 16_384) socket.destroy(new ProxyError(`proxy ${proxy.host}:${proxy.port} sent an oversized CONNECT answer`));
          return;
        }
        socket.off('data', onData);
        socket.off('error', onError);
        socket.setTimeout(0);
        const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
        const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
        if (status === undefined || !status.startsWith('2')) {
          socket.destroy();
          fail(new ProxyError(`proxy ${proxy.host}:${proxy.port} refused CONNECT ${target}: ${statusLine.slice(0, 100)}`));
          return;
        }
        // Bytes after the proxy's answer already belong to the destination.
        const rest = head.subarray(end + 4);
        if (rest.length) socket.unshift(rest);
        if (!tls) {
          done(null, socket);
          return;
        }
        const secure = tlsConnect({ socket, host, ...(isIP(host) === 0 ? { servername: host } : {}) });
        done(null, secure);
      };
      const onError = (err: Error) => fail(err);
      socket.on('data', onData);
      socket.once('error', onError);
      const auth = proxy.authorization ? `Proxy-Authorization: ${proxy.authorization}\r\n` : '';
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`);
    };
    if (isIP(host) !== 0) {
      connectTo(host);
      return undefined;
    }
    lookup(host, {}, (err, address) => {
      if (err) fail(err);
      else connectTo(typeof address === 'string' ? address : (address[0]?.address ?? ''));
    });
    return undefined;
  };
}
