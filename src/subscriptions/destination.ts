import type { components } from '../../generated/api';
import { DomainError } from '../errors/domain-error';
import { MASKED_VALUE } from './custom-headers';
import type { SecretBox } from './secret-box';

type Schemas = components['schemas'];

/** What an integrator sends: `http` (the default) or a broker (contract `SubscriptionDestination`). */
export type SubscriptionDestination = Schemas['SubscriptionDestination'];
/** What a read shows of a destination other than `http`: a broker's target with the credentials masked, or `pull`. */
export type SubscriptionDestinationView = Schemas['SubscriptionDestinationView'];
/** The kinds of destination; `http` is never stored (a subscription without one POSTs). */
export type DestinationKind = SubscriptionDestination['type'];

/** The stored form of a destination other than `http` (which is the field's absence). */
export type StoredDestination = StoredBroker | StoredPull;

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

/** An opened destination: what a worker delivers with. */
export type OpenedDestination = OpenedBroker | StoredPull;

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
  const credentials = box.seal(JSON.stringify({ username: destination.username, password: destination.password }), subscriptionId);
  return { type: 'rabbitmq', exchange: destination.exchange, routing_key: destination.routing_key, credentials };
}

/** How reads show a stored destination: the target, never the credentials. */
export function viewDestination(stored: StoredDestination): SubscriptionDestinationView {
  if (stored.type === 'pull') return { type: 'pull', ack_deadline_seconds: stored.ack_deadline_seconds ?? DEFAULT_ACK_DEADLINE_SECONDS };
  return { type: stored.type, exchange: stored.exchange, routing_key: stored.routing_key, username: MASKED_VALUE, password: MASKED_VALUE };
}

/** Opens a stored destination's credentials for a worker. */
export function openDestination(box: SecretBox, subscriptionId: string, stored: StoredDestination): OpenedDestination {
  if (stored.type === 'pull') return stored;
  const { username, password } = JSON.parse(box.open(stored.credentials, subscriptionId)) as { username: string; password: string };
  return { type: stored.type, exchange: stored.exchange, routingKey: stored.routing_key, username, password };
}

/** `stored` with its credentials sealed under the current key, or `stored` itself when they are. */
export function resealDestination(box: SecretBox, subscriptionId: string, stored: StoredDestination): StoredDestination {
  if (stored.type === 'pull') return stored;
  return box.isStale(stored.credentials) ? { ...stored, credentials: box.seal(box.open(stored.credentials, subscriptionId), subscriptionId) } : stored;
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
  if (kind !== 'http' && hasAuth) {
    const message = `auth is for http destinations; a ${kind} destination carries its own credentials`;
    throw DomainError.unprocessable(message, [{ field: ['auth'], message }]);
  }
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
