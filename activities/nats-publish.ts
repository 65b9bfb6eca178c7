import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { NatsConnection, TlsOptions } from '@nats-io/transport-node';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { PostResult } from '../workflows/delivery-model';
import type { BrokerCredentials } from '../src/subscriptions/destination';
import { createGuardedLookup, portOf } from '../src/webhooks/address-policy';
import type { BrokerMessage } from './broker-message';
import { BrokerPool, brokerPoolKey } from './broker-pool';
import { addressProblem } from './broker-address';
import { bounded, describe, PROXY_REFUSAL, Timeout } from './broker-timing';

/**
 * One message to a NATS JetStream subject, as a delivery attempt publishes it: `url` is
 * tls://host[:port] or nats://host[:port]; the message id is `Nats-Msg-Id`, so JetStream drops a
 * second copy within its duplicate window. The NATS client cannot bind `sourceAddress`: a set one
 * refuses the publish.
 */
export interface NatsPublishRequest extends BrokerMessage {
  credentials: BrokerCredentials;
  subject: string;
}

/** Publishes one message and says how it ended, never throwing: the delivery rules settle it. */
export type NatsPublish = (req: NatsPublishRequest) => Promise<PostResult>;

/** A connection and its JetStream client. */
interface NatsEntry {
  connection: NatsConnection;
  js: JetStreamClient;
}

/** A server's answer that repeats however often the message is sent: the delivery stops. */
class Rejected extends Error {}

const lookups = { strict: createGuardedLookup({ allowPrivate: false }), open: createGuardedLookup({ allowPrivate: true }) };

/**
 * NATS connections of one worker process, one per subscription and connection (its URL and
 * credentials), reused by its deliveries and closed when idle (see BrokerPool). The NATS client is
 * imported on the first publish: a worker that never publishes to NATS never loads it.
 */
export class NatsPool {
  readonly #pool: BrokerPool<NatsEntry>;

  constructor(opts: { idleMs?: number; now?: () => number } = {}) {
    this.#pool = new BrokerPool((e) => e.connection.close(), opts);
  }

  /** Open connections (for tests and metrics). */
  get size(): number {
    return this.#pool.size;
  }

  /** Publishes `req` to JetStream with its message id and waits for the stream's PubAck. */
  readonly publish: NatsPublish = async (req) => {
    const startedAt = Date.now();
    const t0 = performance.now();
    const ended = (outcome: 'rejected' | 'network_error' | 'timeout' | 'blocked', error: string): PostResult => ({ startedAt, durationMs: Math.round(performance.now() - t0), outcome, error });
    const refused = req.proxied
      ? PROXY_REFUSAL
      : req.sourceAddress
        ? 'DELIVERY_SOURCE_ADDRESS is set and the NATS client cannot bind a source address: not sent from another one'
        : addressProblem(req);
    if (refused) return ended('blocked', refused);
    const lease = this.#pool.acquire(brokerPoolKey(req.subscriptionId, [req.url, req.credentials]), (closed) => connectTo(req, closed));
    try {
      const { js } = await bounded(lease.connection, req.timeoutMs, `no connection to the NATS server within ${req.timeoutMs} ms`);
      const left = Math.max(1, req.timeoutMs - Math.round(performance.now() - t0));
      const { headers } = await import('@nats-io/transport-node');
      const h = headers();
      for (const [name, value] of Object.entries(req.headers)) h.set(name, value);
      h.set('Content-Type', 'application/json');
      const ack = await bounded(
        js.publish(req.subject, req.body, { msgID: req.messageId, headers: h, timeout: left }).catch((err: unknown) => {
          throw classify(err, req.subject);
        }),
        left,
        `no PubAck from JetStream within ${req.timeoutMs} ms`,
      );
      return {
        startedAt,
        durationMs: Math.round(performance.now() - t0),
        outcome: 'delivered',
        statusCode: 200,
        responseExcerpt: `stored by JetStream: stream ${ack.stream}, sequence ${ack.seq}${ack.duplicate ? ' (a duplicate of an earlier publish)' : ''}`,
      };
    } catch (err) {
      if (err instanceof Rejected) return ended('rejected', err.message);
      if (err instanceof Timeout) {
        // A server that stopped answering: the next attempt starts afresh.
        lease.drop();
        return ended('timeout', err.message);
      }
      if ((err as NodeJS.ErrnoException).code === 'EFORBIDDENADDRESS') return ended('blocked', (err as Error).message);
      const named = classify(err, req.subject);
      if (named instanceof Rejected) return ended('rejected', named.message);
      return ended('network_error', describe(err));
    } finally {
      lease.release();
    }
  };

  /** Closes every connection, waiting at most `timeoutMs` for each; resolves with how many did not close in time. The pool opens new ones if used again. */
  close(timeoutMs?: number): Promise<number> {
    return this.#pool.close(timeoutMs);
  }
}

/** The NATS errors that repeat on every attempt, as {@link Rejected}; anything else as it is. */
function classify(err: unknown, subject: string): Error {
  if (!(err instanceof Error)) return new Error(String(err));
  switch (err.name) {
    case 'AuthorizationError':
      return new Rejected(`the NATS server refused the credentials: ${err.message}`);
    case 'PermissionViolationError':
      return new Rejected(`the NATS server refused the publish: ${err.message}`);
    // No responder on the subject: no stream captures it yet (one made later, a stream leader being elected, JetStream starting), so retried.
    case 'JetStreamNotEnabled':
      return new Error(`no JetStream stream captures subject ${subject} (no responders on the server); retried until one does`);
    case 'JetStreamApiError': {
      const status = (err as Error & { status?: number }).status ?? 0;
      // 503 is JetStream unavailable for now (a leader election): retried; a 4xx is the stream's lasting no.
      return status >= 400 && status < 500 ? new Rejected(`JetStream refused the message: ${err.message} (${status})`) : err;
    }
    case 'TimeoutError':
      return new Timeout(`no PubAck from JetStream in time: ${err.message}`);
    default:
      return err;
  }
}

/**
 * Connects to the one server of `req.url`, at an address the policy allows (resolved here, then
 * dialled as an IP, so the check and the connection see the same address), without following the
 * cluster's gossiped servers and without reconnecting: a lost connection is dropped from the pool
 * and the next attempt connects (and checks) again.
 */
async function connectTo(req: NatsPublishRequest, closed: () => void): Promise<NatsEntry> {
  const [{ connect }, { jetstream }] = await Promise.all([import('@nats-io/transport-node'), import('@nats-io/jetstream')]);
  const url = new URL(req.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const address = isIP(host) ? host : await resolveChecked(host, req.allowPrivate);
  const server = `${isIP(address) === 6 ? `[${address}]` : address}:${portOf(url)}`;
  const { username, password, token } = req.credentials;
  const connection = await connect({
    servers: server,
    // tls:// requires TLS, verified against the URL's host name; nats:// never uses it.
    // servername is passed on to tls.connect though TlsOptions does not name it.
    tls: url.protocol === 'tls:' ? ({ servername: host } as TlsOptions) : null,
    ...(username !== undefined ? { user: username, pass: password } : {}),
    ...(token !== undefined ? { token } : {}),
    name: `webhooks ${req.subscriptionId}`,
    timeout: req.timeoutMs,
    reconnect: false,
    ignoreClusterUpdates: true,
    noRandomize: true,
    resolve: false,
  });
  void connection.closed().then(closed);
  return { connection, js: jetstream(connection) };
}

/** The first address of `host`, every one of which the address policy allows (EFORBIDDENADDRESS otherwise). */
function resolveChecked(host: string, allowPrivate: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    (allowPrivate ? lookups.open : lookups.strict)(host, { all: true }, (err, addresses) => {
      if (err) reject(err);
      else resolve((addresses as LookupAddress[])[0]!.address);
    });
  });
}
