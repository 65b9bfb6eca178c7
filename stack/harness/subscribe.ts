/** The subscriptions a run's receiver gets: one per tag, each with its own signing secret. */
import { randomBytes } from 'node:crypto';
import type { ApiClient } from './api-client';
import type { ReceiverProcess } from './receiver-client';
import type { RedisStreamSource } from './stream-consumer';

/**
 * Subscribes the receiver's `/hook/<tag>` to order.created (or `opts.events`, with `opts.ordering`)
 * with `secret`; returns the subscription id.
 */
export function createSubscription(ctx: { api: ApiClient; receiver: ReceiverProcess }, tag: string, secret: string, opts: { events?: string[]; ordering?: 'per_key' } = {}): Promise<string> {
  return subscribe(ctx.api, { url: `${ctx.receiver.url}/hook/${tag}`, events: opts.events ?? ['order.created'], secret, description: `bench ${tag}`, ...(opts.ordering ? { ordering: opts.ordering } : {}) });
}

/**
 * Subscribes a Redis Streams destination (`redis` names the server, its password and the stream)
 * to order.created with `secret`; the receiver records the entries under `tag` once told to
 * `consume` the stream. Returns the subscription id.
 */
export function createStreamSubscription(api: ApiClient, redis: RedisStreamSource, tag: string, secret: string): Promise<string> {
  return subscribe(api, {
    url: redis.url,
    events: ['order.created'],
    secret,
    description: `bench ${tag}`,
    destination: { type: 'redis', stream: redis.stream, password: redis.password },
  });
}

async function subscribe(api: ApiClient, body: Record<string, unknown>): Promise<string> {
  const res = await api.request('POST', '/api/webhooks/v1/subscribe', body);
  const id = (res.body as { id?: unknown } | undefined)?.id;
  if (res.status !== 201 || typeof id !== 'string') throw new Error(`subscribe failed: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return id;
}

/** A fresh signing secret in the service's format. */
export const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

