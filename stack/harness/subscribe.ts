/** The subscriptions a run's receiver gets: one per tag, each with its own signing secret. */
import { randomBytes } from 'node:crypto';
import type { ApiClient } from './api-client';
import type { ReceiverProcess } from './receiver-client';

/** Subscribes the receiver's `/hook/<tag>` to order.created with `secret`; returns the subscription id. */
export async function createSubscription(ctx: { api: ApiClient; receiver: ReceiverProcess }, tag: string, secret: string): Promise<string> {
  const res = await ctx.api.request('POST', '/api/webhooks/v1/subscribe', {
    url: `${ctx.receiver.url}/hook/${tag}`,
    events: ['order.created'],
    secret,
    description: `bench ${tag}`,
  });
  const id = (res.body as { id?: unknown } | undefined)?.id;
  if (res.status !== 201 || typeof id !== 'string') throw new Error(`subscribe failed: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return id;
}

/** A fresh signing secret in the service's format. */
export const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

