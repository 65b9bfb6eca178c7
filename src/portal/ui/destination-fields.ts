import type { SubscriptionDestination } from './types';

/** What the destination picker says: keep the stored broker, or one of the contract's kinds. */
export type DestinationChoice = 'keep' | SubscriptionDestination['type'];

/** The destination boxes; only those of the chosen kind are read. */
export interface DestinationFields {
  exchange: string;
  routingKey: string;
  username: string;
  password: string;
  /** NATS: the subject, and a token instead of a user and password. */
  subject: string;
  token: string;
  /** Redis: the stream, and about how many entries it keeps (empty: all). */
  stream: string;
  maxlen: string;
  /** A pull consumer's ack deadline in seconds; empty is the service's default. */
  ackDeadlineSeconds: string;
  /** Kafka: the topic, further bootstrap brokers (comma- or space-separated) and the SASL mechanism. */
  topic: string;
  brokers: string;
  saslMechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512';
  /** SQS: the queue's region (its access key and secret go in the user and password boxes). */
  region: string;
}

/** Empty fields: credentials are never shown again, so editing starts from these too. */
export const emptyDestinationFields: DestinationFields = { exchange: '', routingKey: '', username: '', password: '', subject: '', token: '', stream: '', maxlen: '', ackDeadlineSeconds: '', topic: '', brokers: '', saslMechanism: 'plain', region: '' };

/** The bounds of a pull destination's `ack_deadline_seconds` (the contract's). */
export const ACK_DEADLINE_BOUNDS = { min: 5, max: 600 } as const;

/** The ack deadline box as seconds: undefined when empty, or an error naming the bounds. */
export function parseAckDeadline(text: string): { seconds?: number } | { error: string } {
  if (!text.trim()) return {};
  const seconds = Number(text.trim());
  const { min, max } = ACK_DEADLINE_BOUNDS;
  if (!Number.isInteger(seconds) || seconds < min || seconds > max) return { error: `The ack deadline must be a whole number of seconds from ${min} to ${max}.` };
  return { seconds };
}

/**
 * The `destination` part of a create or PATCH body: nothing for `keep`, and for `http` on create
 * or on a subscription that POSTs already; `{type: http}` to leave a broker; the broker with its
 * fields, or an error naming the first empty required one.
 */
export function destinationBody(choice: DestinationChoice, f: DestinationFields, hadBroker: boolean): { destination?: SubscriptionDestination } | { error: string } {
  const missing = (label: string, kind = 'RabbitMQ') => ({ error: `Enter the ${label} for the ${kind} destination.` });
  switch (choice) {
    case 'keep':
      return {};
    case 'http':
      return hadBroker ? { destination: { type: 'http' } } : {};
    case 'rabbitmq':
      if (!f.username.trim()) return missing('user name');
      if (!f.password) return missing('password');
      return { destination: { type: 'rabbitmq', exchange: f.exchange.trim(), routing_key: f.routingKey.trim(), username: f.username.trim(), password: f.password } };
    case 'nats': {
      const subject = f.subject.trim();
      const username = f.username.trim();
      if (!subject) return missing('subject', 'NATS');
      if (f.token && (username || f.password)) return { error: 'Enter a token or a user name and password for the NATS destination, not both.' };
      if (username && !f.password) return missing('password', 'NATS');
      if (f.password && !username) return missing('user name', 'NATS');
      const credentials = f.token ? { token: f.token } : username ? { username, password: f.password } : {};
      return { destination: { type: 'nats', subject, ...credentials } };
    }
    case 'redis': {
      const stream = f.stream.trim();
      const username = f.username.trim();
      const maxlen = f.maxlen.trim();
      if (!stream) return missing('stream', 'Redis');
      if (username && !f.password) return missing('password', 'Redis');
      if (maxlen && !/^[1-9]\d{0,9}$/.test(maxlen)) return { error: 'Enter the Redis stream\'s maximum length as a whole number of entries, or leave it empty.' };
      const credentials = { ...(username ? { username } : {}), ...(f.password ? { password: f.password } : {}) };
      return { destination: { type: 'redis', stream, ...(maxlen ? { maxlen: Number(maxlen) } : {}), ...credentials } };
    }
    case 'kafka':
      return kafkaBody(f);
    case 'sqs': {
      const region = f.region.trim();
      const accessKeyId = f.username.trim();
      if (!region) return missing('region', 'SQS');
      if (!accessKeyId) return missing('access key ID', 'SQS');
      if (!f.password) return missing('secret access key', 'SQS');
      return { destination: { type: 'sqs', region, access_key_id: accessKeyId, secret_access_key: f.password } };
    }
    case 'pull': {
      const deadline = parseAckDeadline(f.ackDeadlineSeconds);
      if ('error' in deadline) return deadline;
      return { destination: { type: 'pull', ...(deadline.seconds !== undefined ? { ack_deadline_seconds: deadline.seconds } : {}) } };
    }
  }
}

/** A Kafka destination from its boxes: the topic required, SASL only with both user and password. */
function kafkaBody(f: DestinationFields): { destination: SubscriptionDestination } | { error: string } {
  const topic = f.topic.trim();
  if (!topic) return { error: 'Enter the topic for the Kafka destination.' };
  const username = f.username.trim();
  if (Boolean(username) !== Boolean(f.password)) return { error: 'Enter both the SASL user name and password for the Kafka destination, or neither.' };
  const brokers = f.brokers.split(/[\s,]+/).filter(Boolean);
  return {
    destination: {
      type: 'kafka',
      topic,
      ...(brokers.length ? { brokers } : {}),
      ...(username ? { sasl_mechanism: f.saslMechanism, username, password: f.password } : {}),
    },
  };
}

/** How the detail names a subscription's destination, with nothing secret in it. */
export function describeDestination(
  destination: { type: string; exchange?: string; routing_key?: string; ack_deadline_seconds?: number; topic?: string; brokers?: string[]; sasl_mechanism?: string; subject?: string; stream?: string; maxlen?: number; region?: string } | undefined,
): string {
  if (!destination) return 'HTTP POST';
  if (destination.type === 'pull') {
    const deadline = destination.ack_deadline_seconds !== undefined ? ` (outcome due within ${destination.ack_deadline_seconds} s)` : '';
    return `Pull: an inbox its consumer reads over the API${deadline}`;
  }
  if (destination.type === 'kafka') {
    const brokers = destination.brokers?.length ? `, also via ${destination.brokers.join(', ')}` : '';
    return `Kafka: topic "${destination.topic ?? ''}"${brokers}${destination.sasl_mechanism ? ` (SASL ${destination.sasl_mechanism.toUpperCase()}, credentials hidden)` : ''}`;
  }
  if (destination.type === 'redis') return `Redis stream "${destination.stream ?? ''}"${destination.maxlen ? `, trimmed to about ${destination.maxlen} entries` : ''} (credentials hidden)`;
  if (destination.type === 'sqs') return `Amazon SQS: the queue in the URL, region ${destination.region ?? ''} (credentials hidden)`;
  if (destination.type === 'nats') return `NATS JetStream: subject "${destination.subject ?? ''}" (credentials hidden)`;
  return `RabbitMQ: exchange ${destination.exchange ? `"${destination.exchange}"` : '(default)'}, routing key "${destination.routing_key ?? ''}" (credentials hidden)`;
}
