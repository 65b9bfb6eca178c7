import http from 'node:http';
import https from 'node:https';
import { createServer, isIP } from 'node:net';
import type { DeliveryOutcome } from '../src/contract/types';
import { classifyAddress, createGuardedLookup } from '../src/webhooks/address-policy';

/** What one POST to a receiver produced; returned as a value, never thrown. */
export type PostResult = {
  /** Epoch milliseconds (results cross Temporal as JSON). */
  startedAt: number;
  durationMs: number;
} & (
  | { outcome: Extract<DeliveryOutcome, 'delivered' | 'http_error'>; statusCode: number; responseExcerpt: string; retryAfterMs?: number }
  | { outcome: Exclude<DeliveryOutcome, 'delivered' | 'http_error'>; error: string }
);

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
    const sourceFamily = req.sourceAddress ? isIP(req.sourceAddress) : 0;
    // A socket bound to one family cannot reach the other; say why instead of the kernel's EINVAL.
    if (sourceFamily !== 0 && isIP(host) !== 0 && isIP(host) !== sourceFamily) {
      resolve({ startedAt, durationMs: 0, outcome: 'network_error', error: `${host} is an IPv${isIP(host)} address; deliveries leave from IPv${sourceFamily} ${req.sourceAddress} (DELIVERY_SOURCE_ADDRESS)` });
      return;
    }
    const transport = url.protocol === 'https:' ? https : http;
    const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:'];
    let settled = false;
    const finish = (r: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const request = transport.request(url, {
      method: 'POST',
      agent,
      lookup: req.allowPrivate ? lookups.open : lookups.strict,
      // The guarded lookup still checks every address it returns; `family` only narrows them to the ones this source can reach.
      ...(sourceFamily !== 0 ? { localAddress: req.sourceAddress, family: sourceFamily } : {}),
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
      else finish({ startedAt, durationMs: elapsed(), outcome: 'network_error', error: err.code ?? err.message });
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
