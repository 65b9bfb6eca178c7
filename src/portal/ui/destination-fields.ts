import type { SubscriptionDestination } from './types';

/** What the destination picker says: keep the stored broker, or one of the contract's kinds. */
export type DestinationChoice = 'keep' | SubscriptionDestination['type'];

/** The destination boxes; only those of the chosen kind are read. */
export interface DestinationFields {
  exchange: string;
  routingKey: string;
  username: string;
  password: string;
  /** A pull consumer's ack deadline in seconds; empty is the service's default. */
  ackDeadlineSeconds: string;
}

/** Empty fields: credentials are never shown again, so editing starts from these too. */
export const emptyDestinationFields: DestinationFields = { exchange: '', routingKey: '', username: '', password: '', ackDeadlineSeconds: '' };

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
  const missing = (label: string) => ({ error: `Enter the ${label} for the RabbitMQ destination.` });
  switch (choice) {
    case 'keep':
      return {};
    case 'http':
      return hadBroker ? { destination: { type: 'http' } } : {};
    case 'rabbitmq':
      if (!f.username.trim()) return missing('user name');
      if (!f.password) return missing('password');
      return { destination: { type: 'rabbitmq', exchange: f.exchange.trim(), routing_key: f.routingKey.trim(), username: f.username.trim(), password: f.password } };
    case 'pull': {
      const deadline = parseAckDeadline(f.ackDeadlineSeconds);
      if ('error' in deadline) return deadline;
      return { destination: { type: 'pull', ...(deadline.seconds !== undefined ? { ack_deadline_seconds: deadline.seconds } : {}) } };
    }
  }
}

/** How the detail names a subscription's destination, with nothing secret in it. */
export function describeDestination(destination: { type: string; exchange?: string; routing_key?: string; ack_deadline_seconds?: number } | undefined): string {
  if (!destination) return 'HTTP POST';
  if (destination.type === 'pull') {
    const deadline = destination.ack_deadline_seconds !== undefined ? ` (outcome due within ${destination.ack_deadline_seconds} s)` : '';
    return `Pull: an inbox its consumer reads over the API${deadline}`;
  }
  return `RabbitMQ: exchange ${destination.exchange ? `"${destination.exchange}"` : '(default)'}, routing key "${destination.routing_key ?? ''}" (credentials hidden)`;
}
