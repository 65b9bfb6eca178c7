import type { SubscriptionDestination } from './types';

/** What the destination picker says: keep the stored broker, or one of the contract's kinds. */
export type DestinationChoice = 'keep' | SubscriptionDestination['type'];

/** The broker boxes; only those of the chosen kind are read. */
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
}

/** Empty fields: credentials are never shown again, so editing starts from these too. */
export const emptyDestinationFields: DestinationFields = { exchange: '', routingKey: '', username: '', password: '', subject: '', token: '', stream: '', maxlen: '' };

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
    case 'pull':
      return { destination: { type: 'pull' } };
  }
}

/** How the detail names a subscription's destination, with nothing secret in it. */
export function describeDestination(destination: { type: string; exchange?: string; routing_key?: string; subject?: string; stream?: string; maxlen?: number } | undefined): string {
  if (!destination) return 'HTTP POST';
  if (destination.type === 'pull') return 'Pull: an inbox its consumer reads over the API';
  if (destination.type === 'redis') return `Redis stream "${destination.stream ?? ''}"${destination.maxlen ? `, trimmed to about ${destination.maxlen} entries` : ''} (credentials hidden)`;
  if (destination.type === 'nats') return `NATS JetStream: subject "${destination.subject ?? ''}" (credentials hidden)`;
  return `RabbitMQ: exchange ${destination.exchange ? `"${destination.exchange}"` : '(default)'}, routing key "${destination.routing_key ?? ''}" (credentials hidden)`;
}
