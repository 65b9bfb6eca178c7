import { isIP, Socket, connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { ISocketFactory, Producer, SASLOptions } from 'kafkajs';
import type { PostResult } from '../workflows/delivery-model';
import type { SaslMechanism } from '../src/subscriptions/destination';
import { createGuardedLookup } from '../src/webhooks/address-policy';
import { hostPortProblem } from './broker-address';
import type { BrokerMessage } from './broker-message';
import { BrokerPool, brokerPoolKey } from './broker-pool';
import { attemptClock, bounded, describe, PROXY_REFUSAL, Timeout } from './broker-timing';

/**
 * One record to a Kafka topic, as a delivery attempt produces it: `url` is kafka://host[:port] or
 * kafkas://host[:port] (TLS), the first bootstrap broker; the message id travels as `webhook-id`.
 */
export interface ProduceRequest extends BrokerMessage {
  /** Further bootstrap brokers, `host:port`. */
  brokers: readonly string[];
  sasl?: { mechanism: SaslMechanism; username: string; password: string } | undefined;
  topic: string;
  /** The record key: the event's resource, so one order's events share a partition. */
  key: string;
}

/** Produces one record and says how it ended, never throwing: the delivery rules settle it. */
export type Produce = (req: ProduceRequest) => Promise<PostResult>;

const PORTS = { 'kafka:': 9092, 'kafkas:': 9093 } as const;

/** Kafka's answers that repeat however often the record is sent: the delivery stops. */
const REFUSALS = new Set([
  'UNKNOWN_TOPIC_OR_PARTITION',
  'TOPIC_AUTHORIZATION_FAILED',
  'CLUSTER_AUTHORIZATION_FAILED',
  'TRANSACTIONAL_ID_AUTHORIZATION_FAILED',
  'SASL_AUTHENTICATION_FAILED',
  'UNSUPPORTED_SASL_MECHANISM',
  'ILLEGAL_SASL_STATE',
  'INVALID_TOPIC_EXCEPTION',
  'MESSAGE_TOO_LARGE',
  'RECORD_LIST_TOO_LARGE',
  'INVALID_RECORD',
]);

/**
 * Kafka producers of one worker process, one per subscription and connection (its brokers and
 * credentials): deliveries to it reuse the producer and its connections, a producer unused for
 * `idleMs` is disconnected, and no two subscriptions share one, so one owner's cluster,
 * credentials or failures never touch another's deliveries. kafkajs is imported on the first
 * produce: a worker that only POSTs never loads it.
 */
export class KafkaPool {
  readonly #pool: BrokerPool<Producer>;

  constructor(opts: { idleMs?: number; now?: () => number } = {}) {
    this.#pool = new BrokerPool((producer) => producer.disconnect(), opts);
  }

  /** Connected producers (for tests and metrics). */
  get size(): number {
    return this.#pool.size;
  }

  /** Produces `req` with `acks=all` and waits for the acknowledgement. */
  readonly produce: Produce = async (req) => {
    const { ended, elapsedMs } = attemptClock('acknowledged by every in-sync replica');
    const target = brokersOf(req);
    if (req.proxied) return ended({ outcome: 'blocked', error: PROXY_REFUSAL });
    if ('problem' in target) return ended({ outcome: 'blocked', error: target.problem });
    const lease = this.#pool.acquire(brokerPoolKey(req.subscriptionId, [req.url, req.brokers, req.sasl?.mechanism, req.sasl?.username, req.sasl?.password]), () => connectProducer(req, target));
    try {
      const producer = await bounded(lease.connection, req.timeoutMs, `no connection to the brokers within ${req.timeoutMs} ms`);
      const left = Math.max(1, req.timeoutMs - elapsedMs());
      await bounded(
        producer.send({
          topic: req.topic,
          acks: -1,
          timeout: left,
          messages: [{ key: req.key, value: req.body, headers: { ...req.headers, 'content-type': 'application/json' } }],
        }),
        left,
        `no acknowledgement from the brokers within ${req.timeoutMs} ms`,
      );
      return ended({ outcome: 'delivered' });
    } catch (err) {
      if (err instanceof Timeout) {
        // A cluster that stopped answering: the next attempt starts afresh.
        lease.drop();
        return ended({ outcome: 'timeout', error: err.message });
      }
      const forbidden = chain(err).find((e) => (e as NodeJS.ErrnoException).code === 'EFORBIDDENADDRESS');
      if (forbidden) {
        lease.drop();
        return ended({ outcome: 'blocked', error: (forbidden as Error).message });
      }
      const refusal = refusalOf(err, req.topic);
      if (refusal) return ended({ outcome: 'rejected', error: refusal });
      // A broker that went away: reconnect from scratch on the next attempt rather than trust the old metadata.
      lease.drop();
      return ended({ outcome: 'network_error', error: explain(err) });
    } finally {
      lease.release();
    }
  };

  /** Disconnects every producer, waiting at most `timeoutMs` for each; resolves with how many did not close in time. The pool connects new ones if used again. */
  close(timeoutMs?: number): Promise<number> {
    return this.#pool.close(timeoutMs);
  }
}

/** The bootstrap brokers as `host:port` and whether they speak TLS, or why the address policy refuses one (IP literals and ports; names are checked at lookup). */
function brokersOf(req: ProduceRequest): { brokers: string[]; tls: boolean } | { problem: string } {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return { problem: 'invalid broker URL' };
  }
  const protocol = url.protocol as keyof typeof PORTS;
  if (!(protocol in PORTS)) return { problem: `${url.protocol} is not a Kafka scheme` };
  const first = `${url.hostname}:${url.port || PORTS[protocol]}`;
  const brokers = [first, ...req.brokers];
  if (!req.allowPrivate) {
    for (const broker of brokers) {
      const problem = brokerProblem(broker, protocol);
      if (problem) return { problem };
    }
  }
  return { brokers, tls: protocol === 'kafkas:' };
}

/** Why the address policy refuses `host:port` before any connection, or undefined. */
function brokerProblem(hostPort: string, protocol: string): string | undefined {
  const at = hostPort.lastIndexOf(':');
  return hostPortProblem(hostPort.slice(0, at), Number(hostPort.slice(at + 1)), protocol);
}

const lookups = { strict: createGuardedLookup({ allowPrivate: false }), open: createGuardedLookup({ allowPrivate: true }) };

/**
 * Sockets under the address policy: names are resolved through the guarded lookup, and IP
 * literals (which skip lookup), including the brokers the cluster's metadata names, are checked
 * before connecting.
 */
function guardedSockets(req: ProduceRequest): ISocketFactory {
  return ({ host, port, ssl, onConnect }) => {
    const problem = req.allowPrivate ? undefined : brokerProblem(`${host}:${port}`, 'kafka:');
    if (problem) {
      const socket = new Socket();
      process.nextTick(() => socket.destroy(Object.assign(new Error(`broker ${host}:${port}: ${problem}`), { code: 'EFORBIDDENADDRESS' })));
      return socket;
    }
    const common = { host, port, lookup: req.allowPrivate ? lookups.open : lookups.strict, ...(req.sourceAddress ? { localAddress: req.sourceAddress } : {}) };
    const socket = ssl ? tlsConnect({ ...common, ...(isIP(host) ? {} : { servername: host }), ...(typeof ssl === 'object' ? ssl : {}) }, onConnect) : netConnect(common, onConnect);
    // A dead peer is noticed within a minute even with nothing to produce.
    socket.setKeepAlive(true, 60_000);
    return socket;
  };
}

async function connectProducer(req: ProduceRequest, target: { brokers: string[]; tls: boolean }): Promise<Producer> {
  const { Kafka, logLevel } = await import('kafkajs');
  const kafka = new Kafka({
    clientId: `webhooks-${req.subscriptionId}`,
    brokers: target.brokers,
    ssl: target.tls,
    ...(req.sasl ? { sasl: { mechanism: req.sasl.mechanism, username: req.sasl.username, password: req.sasl.password } as SASLOptions } : {}),
    connectionTimeout: req.timeoutMs,
    requestTimeout: req.timeoutMs,
    socketFactory: guardedSockets(req),
    // Outcomes are the attempt log's; kafkajs's own lines would repeat them (and name the brokers).
    logLevel: logLevel.NOTHING,
    // Few and quick: a transient error (a leader moving) has a second chance within the attempt; the rest waits for the schedule.
    retry: { retries: 2, initialRetryTime: 100, maxRetryTime: req.timeoutMs },
  });
  // Idempotent: a retry within the attempt never writes the record twice; acks=all is its rule too.
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false, retry: { retries: 2, initialRetryTime: 100, maxRetryTime: req.timeoutMs } });
  try {
    await producer.connect();
  } catch (err) {
    await producer.disconnect().catch(() => undefined);
    throw err;
  }
  return producer;
}

/** The error and its causes (kafkajs wraps a broker's answer in retry errors). */
function chain(err: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e: unknown = err; e && out.length < 5; e = (e as { originalError?: unknown; cause?: unknown }).originalError ?? (e as { cause?: unknown }).cause) out.push(e);
  return out;
}

/** The lasting refusal behind `err` as a line for the attempt log, or undefined when a later attempt may succeed. */
function refusalOf(err: unknown, topic: string): string | undefined {
  for (const e of chain(err)) {
    const name = (e as Error).name;
    if (name === 'KafkaJSSASLAuthenticationError') return `authentication failed: ${describe(e)}`;
    const type = (e as { type?: string }).type;
    if (type && REFUSALS.has(type)) return `topic ${topic}: ${describe(e)} (${type})`;
  }
  return undefined;
}

/** The innermost cause's text, with the broker's error code when there is one. */
function explain(err: unknown): string {
  const all = chain(err);
  const inner = all[all.length - 1];
  const type = (inner as { type?: string }).type;
  return `${describe(inner)}${type ? ` (${type})` : ''}`;
}
