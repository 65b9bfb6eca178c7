import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { ChannelModel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { PostResult } from '../workflows/delivery-model';
import type { BrokerMessage } from './broker-message';
import { callbackPortProblem, classifyAddress, createGuardedLookup, portOf } from '../src/webhooks/address-policy';

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

/** How long an unused connection stays open. */
export const DEFAULT_IDLE_MS = 60_000;

const lookups = { strict: createGuardedLookup({ allowPrivate: false }), open: createGuardedLookup({ allowPrivate: true }) };

/** A broker's answer that repeats however often the message is sent: the delivery stops. */
class Rejected extends Error {}

/** One pooled connection with its confirm channel. */
interface Entry {
  connection: Promise<ChannelModel>;
  channel?: Promise<ConfirmChannel> | undefined;
  /** Messages on the channel awaiting their confirm, by message id: a basic.return marks one unroutable. */
  returned: Map<string, string | undefined>;
  /** Why the channel or connection closed, when the broker said (e.g. an exchange that does not exist). */
  closedBecause?: string | undefined;
  lastUsed: number;
  busy: number;
}

/**
 * RabbitMQ connections of one worker process, one per subscription and connection (its URL and
 * credentials): deliveries to it reuse the connection and its confirm channel, a connection
 * unused for `idleMs` is closed, and no two subscriptions share one, so one owner's broker,
 * credentials or failures never touch another's deliveries. amqplib is imported on the first
 * publish: a worker that only POSTs never loads it.
 */
export class RabbitPool {
  readonly #entries = new Map<string, Entry>();
  readonly #idleMs: number;
  readonly #now: () => number;
  #sweeper: NodeJS.Timeout | undefined;

  constructor(opts: { idleMs?: number; now?: () => number } = {}) {
    this.#idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
    this.#now = opts.now ?? Date.now;
  }

  /** Open connections (for tests and metrics). */
  get size(): number {
    return this.#entries.size;
  }

  /** Publishes `req` with `mandatory` and persistence, and waits for the broker's confirm. */
  readonly publish: Publish = async (req) => {
    const startedAt = Date.now();
    const t0 = performance.now();
    const ended = (r: { outcome: 'delivered' } | { outcome: 'rejected' | 'network_error' | 'timeout' | 'blocked'; error: string }): PostResult =>
      r.outcome === 'delivered'
        ? { startedAt, durationMs: Math.round(performance.now() - t0), outcome: 'delivered', statusCode: 200, responseExcerpt: 'confirmed by the broker' }
        : { startedAt, durationMs: Math.round(performance.now() - t0), outcome: r.outcome, error: r.error };
    const refused = req.proxied ? 'deliveries must leave through DELIVERY_PROXY_URL, which carries HTTP only: broker destinations are not reached through it' : addressProblem(req);
    if (refused) return ended({ outcome: 'blocked', error: refused });
    const key = poolKey(req);
    let entry: Entry;
    try {
      entry = this.#entry(key, req);
    } catch (err) {
      return ended({ outcome: 'network_error', error: String(err) });
    }
    entry.busy++;
    entry.lastUsed = this.#now();
    try {
      const channel = await bounded(this.#channel(entry), req.timeoutMs, `no connection to the broker within ${req.timeoutMs} ms`);
      const left = Math.max(1, req.timeoutMs - Math.round(performance.now() - t0));
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
    } finally {
      entry.busy--;
      entry.lastUsed = this.#now();
    }
  };

  /** Closes every connection; the pool opens new ones if used again. */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    const entries = [...this.#entries];
    this.#entries.clear();
    await Promise.all(entries.map(([, e]) => closeEntry(e)));
  }

  #entry(key: string, req: PublishRequest): Entry {
    const found = this.#entries.get(key);
    if (found) return found;
    const entry: Entry = { connection: Promise.resolve(null as unknown as ChannelModel), returned: new Map(), lastUsed: this.#now(), busy: 0 };
    entry.connection = connectTo(req).then((connection) => {
      connection.on('error', (err: Error) => {
        entry.closedBecause ??= describe(err);
      });
      connection.on('close', () => this.#drop(key, entry));
      return connection;
    });
    // A failed connect is forgotten at once: the next attempt connects again.
    entry.connection.catch(() => this.#drop(key, entry));
    this.#entries.set(key, entry);
    this.#sweep();
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
    if (this.#entries.get(key) === entry) this.#entries.delete(key);
    void closeEntry(entry);
  }

  /** Closes connections unused for the idle time; the timer does not keep the process alive. */
  #sweep(): void {
    if (this.#sweeper) return;
    this.#sweeper = setInterval(
      () => {
        const now = this.#now();
        for (const [key, entry] of this.#entries) if (entry.busy === 0 && now - entry.lastUsed >= this.#idleMs) this.#drop(key, entry);
        if (this.#entries.size === 0) {
          clearInterval(this.#sweeper);
          this.#sweeper = undefined;
        }
      },
      Math.max(1000, Math.min(this.#idleMs, 30_000)),
    );
    this.#sweeper.unref();
  }
}

/** The pool key: the subscription and its connection; the credentials only as a hash. */
function poolKey(req: PublishRequest): string {
  const connection = createHash('sha256').update(JSON.stringify([req.url, req.username, req.password])).digest('base64url');
  return `${req.subscriptionId} ${connection}`;
}

/** Why the address policy refuses the broker before any connection (IP literals and ports; names are checked at lookup). */
export function addressProblem(req: Pick<PublishRequest, 'url' | 'allowPrivate'>): string | undefined {
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

/** One line for the attempt log: the broker's reply text when there is one. */
export function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code) && !err.message.includes(code)) return `${code} ${err.message}`.trim();
  return err.message.split('\n')[0]!.slice(0, 500);
}

/** An attempt's deadline passed (see {@link bounded}). */
export class Timeout extends Error {}

/** `work`, or a {@link Timeout} with `message` after `ms`. */
export function bounded<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject: (err: Error) => void) => {
    timer = setTimeout(() => reject(new Timeout(message)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

async function closeEntry(entry: Entry): Promise<void> {
  try {
    const connection = await entry.connection;
    await connection.close();
  } catch {
    // Already closed, or never opened.
  }
}
