import type { components } from '../../generated/api';
import { DomainError } from '../errors/domain-error';
import { MASKED_VALUE } from './custom-headers';
import type { SecretBox } from './secret-box';
import { SQS_QUEUE_URL } from './sqs-queue';

type Schemas = components['schemas'];

/** What an integrator sends: `http` (the default) or a broker (contract `SubscriptionDestination`). */
export type SubscriptionDestination = Schemas['SubscriptionDestination'];
/** What a read shows of a destination other than `http`: a broker's target with the credentials masked, or `pull`. */
export type SubscriptionDestinationView = Schemas['SubscriptionDestinationView'];
/** The kinds of destination; `http` is never stored (a subscription without one POSTs). */
export type DestinationKind = SubscriptionDestination['type'];

/** The stored form of a destination other than `http` (which is the field's absence). */
export type StoredDestination = StoredBroker | StoredKafka | StoredNats | StoredRedis | StoredSqs | StoredPull;

/** A pull destination as stored: the ack deadline only when one was sent (reads and delivery fill in the default). */
export interface StoredPull {
  type: 'pull';
  ack_deadline_seconds?: number;
}

/** How long a pull consumer has to report an outcome when its subscription does not say (the contract's default). */
export const DEFAULT_ACK_DEADLINE_SECONDS = 30;

/** The ack deadline (ms) of a pull destination. */
export function ackDeadlineMs(pull: StoredPull): number {
  return (pull.ack_deadline_seconds ?? DEFAULT_ACK_DEADLINE_SECONDS) * 1000;
}

/** The stored form of a broker destination. */
export interface StoredBroker {
  type: 'rabbitmq';
  exchange: string;
  routing_key: string;
  /** `{"username","password"}` as JSON, sealed (bound to the subscription) like a signing secret. */
  credentials: string;
}

/** Sealed credentials of a broker whose credentials are optional, and which of them are set. */
interface SealedCredentials {
  /** The credentials sent ({@link BrokerCredentials}) as JSON, sealed like a signing secret. */
  credentials: string;
  /** Which credentials are sealed, so reads show which ones are set without opening them. */
  credential_form: 'user' | 'password' | 'token' | 'none';
}

/** The stored form of a NATS JetStream destination. */
export interface StoredNats extends SealedCredentials {
  type: 'nats';
  subject: string;
}

/** The stored form of a Redis Streams destination. */
export interface StoredRedis extends SealedCredentials {
  type: 'redis';
  stream: string;
  maxlen?: number;
}

/** The stored form of an SQS destination: the queue is the subscription's url. */
export interface StoredSqs {
  type: 'sqs';
  region: string;
  /** `{"access_key_id","secret_access_key"}` as JSON, sealed like a signing secret. */
  credentials: string;
}

/** An opened SQS destination: what a worker sends with. */
export interface OpenedSqs {
  type: 'sqs';
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** The credentials of a NATS or Redis destination: a user and password, a token (NATS), a password alone (Redis), or none. */
export interface BrokerCredentials {
  username?: string;
  password?: string;
  token?: string;
}

/** An opened NATS destination: what a worker publishes with. */
export interface OpenedNats extends BrokerCredentials {
  type: 'nats';
  subject: string;
}

/** An opened Redis Streams destination: what a worker publishes with. */
export interface OpenedRedis extends BrokerCredentials {
  type: 'redis';
  stream: string;
  maxlen?: number;
}

/** Kafka's SASL mechanisms (contract `KafkaDestination.sasl_mechanism`). */
export type SaslMechanism = NonNullable<Schemas['KafkaDestination']['sasl_mechanism']>;

/** The stored form of a Kafka destination. */
export interface StoredKafka {
  type: 'kafka';
  topic: string;
  /** Bootstrap brokers beside the url's, `host:port`. */
  brokers?: string[];
  sasl_mechanism?: SaslMechanism;
  /** `{"username","password"}` as JSON, sealed like a signing secret; absent without SASL. */
  credentials?: string;
}

/** An opened destination: what a worker delivers with. */
export type OpenedDestination = OpenedBroker | OpenedKafka | OpenedNats | OpenedRedis | OpenedSqs | StoredPull;

/** An opened Kafka destination: what a worker produces with. */
export interface OpenedKafka {
  type: 'kafka';
  topic: string;
  brokers: string[];
  sasl?: { mechanism: SaslMechanism; username: string; password: string };
}

/** An opened broker destination: what a worker publishes with. */
export interface OpenedBroker {
  type: 'rabbitmq';
  exchange: string;
  routingKey: string;
  username: string;
  password: string;
}

/** The URL schemes of each kind; a subscription's `url` takes the scheme of its destination's kind. */
export const DESTINATION_SCHEMES: Readonly<Record<DestinationKind, readonly string[]>> = {
  http: ['https', 'http'],
  rabbitmq: ['amqps', 'amqp'],
  nats: ['tls', 'nats'],
  redis: ['rediss', 'redis'],
  kafka: ['kafkas', 'kafka'],
  // The queue URL is SQS's HTTPS API; http only reaches an SQS-compatible server (local ones).
  sqs: ['https', 'http'],
  pull: ['pull'],
};

/** Every scheme some kind takes: what the `url` field's own check lets through. */
export const ALL_DESTINATION_SCHEMES: readonly string[] = Object.values(DESTINATION_SCHEMES).flat();

/** The kind of a stored subscription: its broker's, or `http`. */
export function destinationKind(stored: StoredDestination | undefined): DestinationKind {
  return stored?.type ?? 'http';
}

/** What a sent destination stores: nothing (`null`) for `http`, the kind (and ack deadline) for `pull`, the broker's target and sealed credentials otherwise. */
export function sealDestination(box: SecretBox, subscriptionId: string, destination: SubscriptionDestination): StoredDestination | null {
  if (destination.type === 'http') return null;
  if (destination.type === 'pull') return destination.ack_deadline_seconds === undefined ? { type: 'pull' } : { type: 'pull', ack_deadline_seconds: destination.ack_deadline_seconds };
  if (destination.type === 'kafka') return sealKafka(box, subscriptionId, destination);
  if (destination.type === 'nats') return { type: 'nats', subject: destination.subject, ...sealCredentials(box, subscriptionId, destination) };
  if (destination.type === 'redis') return { type: 'redis', stream: destination.stream, ...(destination.maxlen !== undefined ? { maxlen: destination.maxlen } : {}), ...sealCredentials(box, subscriptionId, destination) };
  if (destination.type === 'sqs') {
    const credentials = box.seal(JSON.stringify({ access_key_id: destination.access_key_id, secret_access_key: destination.secret_access_key }), subscriptionId);
    return { type: 'sqs', region: destination.region, credentials };
  }
  const credentials = box.seal(JSON.stringify({ username: destination.username, password: destination.password }), subscriptionId);
  return { type: 'rabbitmq', exchange: destination.exchange, routing_key: destination.routing_key, credentials };
}

/** How reads show a stored destination: the target, never the credentials. */
export function viewDestination(stored: StoredDestination): SubscriptionDestinationView {
  if (stored.type === 'pull') return { type: 'pull', ack_deadline_seconds: stored.ack_deadline_seconds ?? DEFAULT_ACK_DEADLINE_SECONDS };
  if (stored.type === 'kafka') {
    const sasl = stored.credentials ? { sasl_mechanism: stored.sasl_mechanism ?? 'plain', username: MASKED_VALUE, password: MASKED_VALUE } : {};
    return { type: 'kafka', topic: stored.topic, ...(stored.brokers?.length ? { brokers: stored.brokers } : {}), ...sasl };
  }
  if (stored.type === 'nats') return { type: 'nats', subject: stored.subject, ...credentialMasks(stored) };
  if (stored.type === 'redis') return { type: 'redis', stream: stored.stream, ...(stored.maxlen !== undefined ? { maxlen: stored.maxlen } : {}), ...credentialMasks(stored) };
  if (stored.type === 'sqs') return { type: 'sqs', region: stored.region, access_key_id: MASKED_VALUE, secret_access_key: MASKED_VALUE };
  return { type: stored.type, exchange: stored.exchange, routing_key: stored.routing_key, username: MASKED_VALUE, password: MASKED_VALUE };
}

/** Opens a stored destination's credentials for a worker. */
export function openDestination(box: SecretBox, subscriptionId: string, stored: StoredDestination): OpenedDestination {
  if (stored.type === 'pull') return stored;
  if (stored.type === 'kafka') {
    const opened = stored.credentials ? (JSON.parse(box.open(stored.credentials, subscriptionId)) as { username: string; password: string }) : undefined;
    return { type: 'kafka', topic: stored.topic, brokers: stored.brokers ?? [], ...(opened ? { sasl: { mechanism: stored.sasl_mechanism ?? 'plain', ...opened } } : {}) };
  }
  if (stored.type === 'nats') return { type: 'nats', subject: stored.subject, ...openCredentials(box, subscriptionId, stored) };
  if (stored.type === 'redis') return { type: 'redis', stream: stored.stream, ...(stored.maxlen !== undefined ? { maxlen: stored.maxlen } : {}), ...openCredentials(box, subscriptionId, stored) };
  if (stored.type === 'sqs') {
    const opened = JSON.parse(box.open(stored.credentials, subscriptionId)) as { access_key_id: string; secret_access_key: string };
    return { type: 'sqs', region: stored.region, accessKeyId: opened.access_key_id, secretAccessKey: opened.secret_access_key };
  }
  const { username, password } = JSON.parse(box.open(stored.credentials, subscriptionId)) as { username: string; password: string };
  return { type: stored.type, exchange: stored.exchange, routingKey: stored.routing_key, username, password };
}

/** `stored` with its credentials sealed under the current key, or `stored` itself when they are. */
export function resealDestination(box: SecretBox, subscriptionId: string, stored: StoredDestination): StoredDestination {
  if (stored.type === 'pull' || !stored.credentials) return stored;
  return box.isStale(stored.credentials) ? { ...stored, credentials: box.seal(box.open(stored.credentials, subscriptionId), subscriptionId) } : stored;
}

/** The credentials a destination sent, sealed, and which of them are set. */
function sealCredentials(box: SecretBox, subscriptionId: string, d: BrokerCredentials): SealedCredentials {
  const sent: BrokerCredentials = { ...(d.username !== undefined ? { username: d.username } : {}), ...(d.password !== undefined ? { password: d.password } : {}), ...(d.token !== undefined ? { token: d.token } : {}) };
  const form = d.token !== undefined ? 'token' : d.username !== undefined ? 'user' : d.password !== undefined ? 'password' : 'none';
  return { credentials: box.seal(JSON.stringify(sent), subscriptionId), credential_form: form };
}

function openCredentials(box: SecretBox, subscriptionId: string, stored: SealedCredentials): BrokerCredentials {
  return JSON.parse(box.open(stored.credentials, subscriptionId)) as BrokerCredentials;
}

/** Which credentials a stored destination holds, masked: which ones are set is shown, never a value. */
function credentialMasks(stored: SealedCredentials): Partial<Record<keyof BrokerCredentials, typeof MASKED_VALUE>> {
  switch (stored.credential_form) {
    case 'token':
      return { token: MASKED_VALUE };
    case 'user':
      return { username: MASKED_VALUE, password: MASKED_VALUE };
    case 'password':
      return { password: MASKED_VALUE };
    case 'none':
      return {};
  }
}

/**
 * 422 unless a sent destination's fields make sense together: a NATS destination's credentials
 * are `username` with `password`, or `token`, or none; a Redis one's `password` with or without
 * `username`, or none.
 */
export function assertDestinationFields(destination: SubscriptionDestination): void {
  if (destination.type !== 'nats' && destination.type !== 'redis') return;
  const { username, password } = destination;
  const token = destination.type === 'nats' ? destination.token : undefined;
  const problem: [string, string] | undefined =
    token !== undefined && (username !== undefined || password !== undefined)
      ? ['token', 'send a token or a username and password, not both']
      : username !== undefined && password === undefined
        ? ['password', 'a username needs its password']
        : password !== undefined && username === undefined && destination.type === 'nats'
          ? ['username', 'a password needs its username']
          : undefined;
  if (problem) throw DomainError.unprocessable(`destination.${problem[0]}: ${problem[1]}`, [{ field: ['destination', problem[0]], message: problem[1] }]);
}

/**
 * 422 unless the subscription's `url` after a change fits its destination's kind after it (an
 * amqps URL with an http destination, or the reverse, would deliver nowhere), naming the field
 * the request sent; and unless `auth`, HTTP's own, stays off a broker destination.
 */
export function assertUrlFitsDestination(url: string, kind: DestinationKind, sent: 'url' | 'destination', hasAuth: boolean): void {
  const scheme = url.slice(0, url.indexOf(':')).toLowerCase();
  const schemes = DESTINATION_SCHEMES[kind];
  if (!schemes.includes(scheme)) {
    const message = `${kind} destinations take ${schemes.join(' or ')} URLs, not ${scheme}`;
    throw DomainError.unprocessable(`${sent} does not fit: ${message}`, [{ field: [sent], message }]);
  }
  // A NATS server has no path to address, a Redis one only its database number: anything else would be ignored, so it is refused.
  if (kind === 'nats' && /^[a-z]+:\/\/[^/?#]*[/?#]./i.test(url)) {
    const message = 'a nats destination takes tls://host[:port] or nats://host[:port], without a path or query';
    throw DomainError.unprocessable(`${sent} does not fit: ${message}`, [{ field: [sent], message }]);
  }
  if (kind === 'redis' && !/^[a-z]+:\/\/[^/?#]*(\/(\d{1,5})?)?$/i.test(url)) {
    const message = 'a redis destination takes rediss://host[:port][/db] or redis://host[:port][/db], the database a number';
    throw DomainError.unprocessable(`${sent} does not fit: ${message}`, [{ field: [sent], message }]);
  }
  if (kind === 'sqs' && !SQS_QUEUE_URL.test(url)) {
    const message = 'an sqs destination takes the queue URL, https://host/<account>/<queue> (the queue name letters, digits, "-" or "_", a FIFO queue\'s ending in .fifo), without a query';
    throw DomainError.unprocessable(`${sent} does not fit: ${message}`, [{ field: [sent], message }]);
  }
  if (kind === 'kafka' && !/^[a-z]+:\/\/[^/?#]+\/?$/i.test(url)) {
    const message = 'a kafka url is a bootstrap broker, kafka(s)://host[:port], with nothing after the port (the topic goes in destination.topic)';
    throw DomainError.unprocessable(`${sent} does not fit: ${message}`, [{ field: [sent], message }]);
  }
  if (kind !== 'http' && hasAuth) {
    const message = `auth is for http destinations; a ${kind} destination carries its own credentials`;
    throw DomainError.unprocessable(message, [{ field: ['auth'], message }]);
  }
}

/** What a Kafka destination stores: its topic and brokers, and its SASL credentials sealed (422 naming the one of the pair missing). */
function sealKafka(box: SecretBox, subscriptionId: string, destination: Schemas['KafkaDestination']): StoredKafka {
  const { username, password } = destination;
  if ((username === undefined) !== (password === undefined) || (destination.sasl_mechanism !== undefined && username === undefined)) {
    const missing = username === undefined ? 'username' : 'password';
    const message = `SASL needs both username and password; ${missing} is missing`;
    throw DomainError.unprocessable(`destination ${message}`, [{ field: ['destination', missing], message }]);
  }
  return {
    type: 'kafka',
    topic: destination.topic,
    ...(destination.brokers?.length ? { brokers: destination.brokers } : {}),
    ...(username !== undefined && password !== undefined
      ? { sasl_mechanism: destination.sasl_mechanism ?? 'plain', credentials: box.seal(JSON.stringify({ username, password }), subscriptionId) }
      : {}),
  };
}

/** Whether a stored destination carries credentials sealed for its address (they must not follow a new one). */
export function hasBrokerCredentials(stored: StoredDestination | undefined): stored is Exclude<StoredDestination, StoredPull> & { credentials: string } {
  return stored !== undefined && stored.type !== 'pull' && stored.credentials !== undefined;
}

/** Whether `url` names a pull consumer (`pull://label`) rather than an address something connects to. */
export function isPullUrl(url: string): boolean {
  return /^pull:/i.test(url);
}

/** Why a `pull://label` URL is not one (credentials, a path, query or fragment, no label), or undefined. */
export function pullUrlProblem(url: string): string | undefined {
  const m = /^pull:\/\/([A-Za-z0-9][A-Za-z0-9._-]{0,99})$/i.exec(url);
  return m ? undefined : 'must be pull://<label>, the label letters, digits, ".", "_" or "-" (at most 100)';
}
