import type { ChannelModel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { PostResult } from '../workflows/delivery-model';
import type { BrokerMessage } from './broker-message';
import { BrokerPool, brokerPoolKey } from './broker-pool';
import { createGuardedLookup, portOf } from '../src/webhooks/address-policy';
import { addressProblem } from './broker-address';
import { attemptClock, bounded, describe, PROXY_REFUSAL, Timeout } from './broker-timing';

/**
 * One message to a RabbitMQ exchange, as a delivery attempt publishes it: `url` is
 * amqp(s)://host[:port][/vhost], and the message id also tells an unroutable message coming back apart.
 */
export interface PublishRequest extends BrokerMessage {
  username: string;
  password: string;
  exchange: string;
  routingKey: string;
}

/** Publishes one message and says how it ended, never throwing: the delivery rules settle it. */
export type Publish = (req: PublishRequest) => Promise<PostResult>;

const lookups = { strict: createGuardedLookup({ allowPrivate: false }), open: createGuardedLookup({ allowPrivate: true }) };

/** A broker's answer that repeats however often the message is sent: the delivery stops. */
class Rejected extends Error {}

/** One pooled connection with its confirm channel. */
interface RabbitConnection {
  connection: ChannelModel;
  channel?: Promise<ConfirmChannel> | undefined;
  /** Messages on the channel awaiting their confirm, by message id: a basic.return marks one unroutable. */
  returned: Map<string, string | undefined>;
  /** Why the channel or connection closed, when the broker said (e.g. an exchange that does not exist). */
  closedBecause?: string | undefined;
}

/**
 * RabbitMQ connections of one worker process, one per subscription and connection (its URL and
 * credentials): deliveries to it reuse the connection and its confirm channel, a connection
 * unused for `idleMs` is closed, and no two subscriptions share one, so one owner's broker,
 * credentials or failures never touch another's deliveries (see BrokerPool). amqplib is imported
 * on the first publish: a worker that only POSTs never loads it.
 */
export class RabbitPool {
  readonly #pool: BrokerPool<RabbitConnection>;

  constructor(opts: { idleMs?: number; now?: () => number } = {}) {
    this.#pool = new BrokerPool((c) => c.connection.close(), opts);
  }

  /** Open connections (for tests and metrics). */
  get size(): number {
    return this.#pool.size;
  }

  /** Publishes `req` with `mandatory` and persistence, and waits for the broker's confirm. */
  readonly publish: Publish = async (req) => {
    const { ended, elapsedMs } = attemptClock('confirmed by the broker');
    const refused = req.proxied ? PROXY_REFUSAL : addressProblem(req);
    if (refused) return ended({ outcome: 'blocked', error: refused });
    const lease = this.#pool.acquire(brokerPoolKey(req.subscriptionId, [req.url, req.username, req.password]), (closed) => connectTo(req, closed));
    let entry: RabbitConnection | undefined;
    try {
      const opening = lease.connection.then((opened) => {
        entry = opened;
        return channelOf(opened);
      });
      const channel = await bounded(opening, req.timeoutMs, `no connection to the broker within ${req.timeoutMs} ms`);
      const left = Math.max(1, req.timeoutMs - elapsedMs());
      await bounded(publishConfirmed(channel, entry!, req), left, `no confirm from the broker within ${req.timeoutMs} ms`);
      return ended({ outcome: 'delivered' });
    } catch (err) {
      if (err instanceof Rejected) return ended({ outcome: 'rejected', error: err.message });
      if (err instanceof Timeout) {
        // A broker that stopped answering: the next attempt starts afresh.
        lease.drop();
        return ended({ outcome: 'timeout', error: err.message });
      }
      if ((err as NodeJS.ErrnoException).code === 'EFORBIDDENADDRESS') return ended({ outcome: 'blocked', error: (err as Error).message });
      const reason = entry?.closedBecause ?? describe(err);
      return ended({ outcome: isRefusal(reason) ? 'rejected' : 'network_error', error: reason });
    } finally {
      lease.release();
    }
  };

  /** Closes every connection, waiting at most `timeoutMs` for each; resolves with how many did not close in time. The pool opens new ones if used again. */
  close(timeoutMs?: number): Promise<number> {
    return this.#pool.close(timeoutMs);
  }
}

/** The connection's confirm channel, opened when there is none (one the broker closed is replaced; the connection stays). */
function channelOf(entry: RabbitConnection): Promise<ConfirmChannel> {
  if (!entry.channel) {
    const opening = entry.connection.createConfirmChannel().then((channel) => {
      channel.on('return', (msg: ConsumeMessage) => {
        const id = msg.properties.messageId as string | undefined;
        if (id !== undefined && entry.returned.has(id)) entry.returned.set(id, `${msg.fields.exchange ? `exchange ${msg.fields.exchange}` : 'the default exchange'} could not route it with routing key ${msg.fields.routingKey} (${(msg.fields as { replyText?: string }).replyText ?? 'NO_ROUTE'}): no queue is bound for it`);
      });
      channel.on('error', (err: Error) => {
        entry.closedBecause = describe(err);
      });
      // An unknown exchange closes the channel: the next publish opens another.
      channel.on('close', () => {
        if (entry.channel === opening) entry.channel = undefined;
      });
      return channel;
    });
    entry.channel = opening;
    opening.catch(() => {
      if (entry.channel === opening) entry.channel = undefined;
    });
  }
  entry.closedBecause = undefined;
  return entry.channel;
}

async function connectTo(req: PublishRequest, closed: () => void): Promise<RabbitConnection> {
  const amqp = await import('amqplib');
  const url = new URL(req.url);
  const vhost = decodeURIComponent(url.pathname.slice(1)) || '/';
  const connection = await amqp.connect(
    {
      protocol: url.protocol.slice(0, -1),
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: portOf(url),
      vhost,
      username: req.username,
      password: req.password,
      // A dead peer is noticed within a minute even with nothing to publish.
      heartbeat: 30,
    },
    {
      timeout: req.timeoutMs,
      lookup: req.allowPrivate ? lookups.open : lookups.strict,
      ...(req.sourceAddress ? { localAddress: req.sourceAddress } : {}),
      clientProperties: { connection_name: `webhooks ${req.subscriptionId}` },
    },
  );
  const entry: RabbitConnection = { connection, returned: new Map() };
  connection.on('error', (err: Error) => {
    entry.closedBecause ??= describe(err);
  });
  connection.on('close', closed);
  return entry;
}

function publishConfirmed(channel: ConfirmChannel, entry: RabbitConnection, req: PublishRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    entry.returned.set(req.messageId, undefined);
    const settle = (err: unknown) => {
      const returned = entry.returned.get(req.messageId);
      entry.returned.delete(req.messageId);
      if (returned) reject(new Rejected(returned));
      else if (err) reject(new Error(entry.closedBecause ?? (err instanceof Error && /nack/i.test(err.message) ? 'the broker nacked the message' : describe(err))));
      else resolve();
    };
    try {
      channel.publish(
        req.exchange,
        req.routingKey,
        Buffer.from(req.body),
        { mandatory: true, persistent: true, contentType: 'application/json', messageId: req.messageId, headers: req.headers },
        settle,
      );
    } catch (err) {
      entry.returned.delete(req.messageId);
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/** AMQP answers that repeat on every attempt: wrong credentials, refused access, an unknown exchange or vhost. */
function isRefusal(reason: string): boolean {
  return /ACCESS[_-]REFUSED|NOT[_-]ALLOWED|NOT_FOUND|\b40[34]\b|\b530\b/.test(reason);
}
