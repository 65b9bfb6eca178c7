import type { RedisClientType } from '@redis/client';
import type { PostResult } from '../workflows/delivery-model';
import type { BrokerCredentials } from '../src/subscriptions/destination';
import { createGuardedLookup, portOf } from '../src/webhooks/address-policy';
import type { BrokerMessage } from './broker-message';
import { BrokerPool, brokerPoolKey } from './broker-pool';
import { addressProblem } from './broker-address';
import { bounded, describe, PROXY_REFUSAL, Timeout } from './broker-timing';

/**
 * One entry for a Redis stream, as a delivery attempt adds it: `url` is rediss://host[:port][/db]
 * or redis://…; the message id travels as the `webhook-id` field (Redis has no de-duplication).
 */
export interface RedisPublishRequest extends BrokerMessage {
  credentials: BrokerCredentials;
  stream: string;
  /** Trim the stream to about this many entries (`MAXLEN ~`); absent: never trimmed. */
  maxlen?: number | undefined;
}

/** Adds one entry and says how it ended, never throwing: the delivery rules settle it. */
export type RedisPublish = (req: RedisPublishRequest) => Promise<PostResult>;

/** The entry field holding the envelope; every other field is a header. */
export const REDIS_BODY_FIELD = 'body';

const lookups = { strict: createGuardedLookup({ allowPrivate: false }), open: createGuardedLookup({ allowPrivate: true }) };

/** A server's answer that repeats however often the entry is sent: the delivery stops. */
class Rejected extends Error {}

/**
 * Redis connections of one worker process, one per subscription and connection (its URL and
 * credentials), reused by its deliveries and closed when idle (see BrokerPool). The Redis client
 * is imported on the first add: a worker that never delivers to Redis never loads it.
 */
export class RedisPool {
  readonly #pool: BrokerPool<RedisClientType>;

  constructor(opts: { idleMs?: number; now?: () => number } = {}) {
    this.#pool = new BrokerPool((c) => c.close(), opts);
  }

  /** Open connections (for tests and metrics). */
  get size(): number {
    return this.#pool.size;
  }

  /** Adds the envelope and its headers as one entry (`XADD stream [MAXLEN ~ n] * …`) and waits for its id. */
  readonly publish: RedisPublish = async (req) => {
    const startedAt = Date.now();
    const t0 = performance.now();
    const ended = (outcome: 'rejected' | 'network_error' | 'timeout' | 'blocked', error: string): PostResult => ({ startedAt, durationMs: Math.round(performance.now() - t0), outcome, error });
    const refused = req.proxied ? PROXY_REFUSAL : addressProblem(req);
    if (refused) return ended('blocked', refused);
    const key = brokerPoolKey(req.subscriptionId, [req.url, req.credentials]);
    const acquire = () => this.#pool.acquire(key, (closed) => connectTo(req, closed));
    let lease = acquire();
    try {
      const connected = () => bounded(lease.connection, Math.max(1, req.timeoutMs - Math.round(performance.now() - t0)), `no connection to the Redis server within ${req.timeoutMs} ms`);
      let client = await connected();
      // A pooled connection the server closed (not always announced by the client): replaced once.
      if (!client.isReady) {
        lease.drop();
        lease.release();
        lease = acquire();
        client = await connected();
      }
      const left = Math.max(1, req.timeoutMs - Math.round(performance.now() - t0));
      // The envelope last: a custom header named like its field never replaces it.
      const fields = { ...req.headers, 'Content-Type': 'application/json', [REDIS_BODY_FIELD]: req.body };
      const id = await bounded(
        client.xAdd(req.stream, '*', fields, req.maxlen !== undefined ? { TRIM: { strategy: 'MAXLEN', strategyModifier: '~', threshold: req.maxlen } } : undefined),
        left,
        `no answer from Redis within ${req.timeoutMs} ms`,
      );
      return { startedAt, durationMs: Math.round(performance.now() - t0), outcome: 'delivered', statusCode: 200, responseExcerpt: `added to stream ${req.stream} as entry ${id}` };
    } catch (err) {
      if (err instanceof Timeout) {
        // A server that stopped answering: the next attempt starts afresh.
        lease.drop();
        return ended('timeout', err.message);
      }
      if ((err as NodeJS.ErrnoException).code === 'EFORBIDDENADDRESS') return ended('blocked', (err as Error).message);
      const reason = describe(err);
      if (isRefusal(reason)) return ended('rejected', new Rejected(`the Redis server refused it: ${reason}`).message);
      return ended('network_error', reason);
    } finally {
      lease.release();
    }
  };

  /** Closes every connection, waiting at most `timeoutMs` for each; resolves with how many did not close in time. The pool opens new ones if used again. */
  close(timeoutMs?: number): Promise<number> {
    return this.#pool.close(timeoutMs);
  }
}

/**
 * Redis answers that repeat on every attempt: wrong or missing credentials, an ACL refusal, a key
 * holding something other than a stream. LOADING, READONLY, OOM, BUSY and the like pass.
 */
function isRefusal(reason: string): boolean {
  return /^(WRONGPASS|NOAUTH|NOPERM|WRONGTYPE)\b|AUTH.*without any password configured/.test(reason);
}

/**
 * Connects to `req.url` through the policy's lookup (every address of the host checked at
 * connect time), from DELIVERY_SOURCE_ADDRESS when set, without reconnecting on its own: a lost
 * connection is dropped from the pool and the next attempt connects again. Commands are never
 * queued while it is down.
 */
async function connectTo(req: RedisPublishRequest, closed: () => void): Promise<RedisClientType> {
  const { createClient } = await import('@redis/client');
  const url = new URL(req.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const database = Number(url.pathname.slice(1) || '0');
  const { username, password } = req.credentials;
  const common = {
    host,
    port: portOf(url),
    connectTimeout: req.timeoutMs,
    reconnectStrategy: false as const,
    lookup: req.allowPrivate ? lookups.open : lookups.strict,
    ...(req.sourceAddress ? { localAddress: req.sourceAddress } : {}),
  };
  const client = createClient({
    socket: url.protocol === 'rediss:' ? { ...common, tls: true as const, servername: host } : common,
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
    database,
    name: `webhooks-${req.subscriptionId}`,
    disableOfflineQueue: true,
  }) as RedisClientType;
  // Errors surface in the attempt that meets them; the event must be listened to, or it would throw.
  client.on('error', () => {
    if (!client.isOpen) closed();
  });
  client.on('end', closed);
  try {
    await client.connect();
  } catch (err) {
    client.destroy();
    throw err;
  }
  return client;
}
