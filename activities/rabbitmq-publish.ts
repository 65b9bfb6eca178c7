import { isIP } from 'node:net';
import type { ChannelModel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { PostResult } from '../workflows/delivery-model';
import { callbackPortProblem, classifyAddress, createGuardedLookup, portOf } from '../src/webhooks/address-policy';
import { attemptClock, bounded, describe, PROXY_REFUSAL, Timeout } from './broker-timing';
import { connectionKey, IdlePool, type Pooled } from './broker-pool';

/** One message to a RabbitMQ exchange, as a delivery attempt publishes it. */
export interface PublishRequest {
  subscriptionId: string;
  /** amqp(s)://host[:port][/vhost], without credentials. */
  url: string;
  username: string;
  password: string;
  exchange: string;
  routingKey: string;
  /** The event id: the message id, and how an unroutable message coming back is told apart. */
  messageId: string;
  body: string;
  /** The signature headers and the subscription's own, as AMQP message headers. */
  headers: Record<string, string>;
  /** Bounds the attempt: the connect (when there is none to reuse) and the wait for the broker's confirm together. */
  timeoutMs: number;
  /** Allow loopback/private brokers (local development and tests only). */
  allowPrivate: boolean;
  sourceAddress?: string | undefined;
  /** Egress must go through DELIVERY_PROXY_URL, an HTTP CONNECT proxy a broker connection cannot take: not sent. */
  proxied?: boolean;
}

/** Publishes one message and says how it ended, never throwing: the delivery rules settle it. */
export type Publish = (req: PublishRequest) => Promise<PostResult>;

const lookups = { strict: createGuardedLookup({ allowPrivate: false }), open: createGuardedLookup({ allowPrivate: true }) };

/** A broker's answer that repeats however often the message is sent: the delivery stops. */
class Rejected extends Error {}

/** One pooled connection with its confirm channel. */
interface Entry extends Pooled {
  connection: Promise<ChannelModel>;
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
 * credentials or failures never touch another's deliveries. amqplib is imported on the first
 * publish: a worker that only POSTs never loads it.
 */
export class RabbitPool {
  readonly #pool: IdlePool<Entry>;

  constructor(opts: { idleMs?: number; now?: () => number } = {}) {
    this.#pool = new IdlePool(closeEntry, opts);
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
    const key = connectionKey(req.subscriptionId, [req.url, req.username, req.password]);
    let entry: Entry;
    try {
      entry = this.#entry(key, req);
    } catch (err) {
      return ended({ outcome: 'network_error', error: String(err) });
    }
    return this.#pool.use(entry, async () => {
      try {
        const channel = await bounded(this.#channel(entry), req.timeoutMs, `no connection to the broker within ${req.timeoutMs} ms`);
        const left = Math.max(1, req.timeoutMs - elapsedMs());
        await bounded(publishConfirmed(channel, entry, req), left, `no confirm from the broker within ${req.timeoutMs} ms`);
        return ended({ outcome: 'delivered' });
      } catch (err) {
        if (err instanceof Rejected) return ended({ outcome: 'rejected', error: err.message });
        if (err instanceof Timeout) {
          // A broker that stopped answering: the next attempt starts afresh.
          this.#drop(key, entry);
          return ended({ outcome: 'timeout', error: err.message });
        }
        if ((err as NodeJS.ErrnoException).code === 'EFORBIDDENADDRESS') return ended({ outcome: 'blocked', error: (err as Error).message });
        const reason = entry.closedBecause ?? describe(err);
        return ended({ outcome: isRefusal(reason) ? 'rejected' : 'network_error', error: reason });
      }
    });
  };

  /** Closes every connection; the pool opens new ones if used again. */
  close(): Promise<void> {
    return this.#pool.close();
  }

  #entry(key: string, req: PublishRequest): Entry {
    return this.#pool.get(key, () => this.#connect(key, req));
  }

  #connect(key: string, req: PublishRequest): Entry {
    const entry: Entry = { connection: Promise.resolve(null as unknown as ChannelModel), returned: new Map(), lastUsed: this.#pool.now(), busy: 0 };
    entry.connection = connectTo(req).then((connection) => {
      connection.on('error', (err: Error) => {
        entry.closedBecause ??= describe(err);
      });
      connection.on('close', () => this.#drop(key, entry));
      return connection;
    });
    // A failed connect is forgotten at once: the next attempt connects again.
    entry.connection.catch(() => this.#drop(key, entry));
    return entry;
  }

  async #channel(entry: Entry): Promise<ConfirmChannel> {
    if (!entry.channel) {
      const opening = entry.connection.then(async (connection) => {
        const channel = await connection.createConfirmChannel();
        channel.on('return', (msg: ConsumeMessage) => {
          const id = msg.properties.messageId as string | undefined;
          if (id !== undefined && entry.returned.has(id)) entry.returned.set(id, `${msg.fields.exchange ? `exchange ${msg.fields.exchange}` : 'the default exchange'} could not route it with routing key ${msg.fields.routingKey} (${(msg.fields as { replyText?: string }).replyText ?? 'NO_ROUTE'}): no queue is bound for it`);
        });
        channel.on('error', (err: Error) => {
          entry.closedBecause = describe(err);
        });
        // A channel the broker closed (an unknown exchange closes it) is replaced on the next publish; the connection stays.
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

  #drop(key: string, entry: Entry): void {
    this.#pool.drop(key, entry);
  }
}

/** Why the address policy refuses the broker before any connection (IP literals and ports; names are checked at lookup). */
function addressProblem(req: PublishRequest): string | undefined {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return 'invalid broker URL';
  }
  if (req.allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const cls = isIP(host) ? classifyAddress(host) : undefined;
  return cls ? `${host} is a ${cls} address` : callbackPortProblem(portOf(url), url.protocol);
}

async function connectTo(req: PublishRequest): Promise<ChannelModel> {
  const amqp = await import('amqplib');
  const url = new URL(req.url);
  const vhost = decodeURIComponent(url.pathname.slice(1)) || '/';
  return amqp.connect(
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
}

function publishConfirmed(channel: ConfirmChannel, entry: Entry, req: PublishRequest): Promise<void> {
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

async function closeEntry(entry: Entry): Promise<void> {
  try {
    const connection = await entry.connection;
    await connection.close();
  } catch {
    // Already closed, or never opened.
  }
}
