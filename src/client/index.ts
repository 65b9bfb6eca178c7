import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths, webhooks } from '../../generated/api';

export type { components, paths, webhooks };

/** Options of the typed client. */
export interface WebhookServiceClientOptions {
  /** Where the service runs, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** An API key (`whk_...`); sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** A fetch implementation to use instead of the global one (tests, proxies, retries). */
  fetch?: ClientOptions['fetch'];
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

/** The typed client: every path, body and response is checked against the contract. */
export type WebhookServiceClient = Client<paths>;

/**
 * Creates a typed client for the service over openapi-fetch and the generated `paths`.
 *
 * @example
 * const client = createClient({ baseUrl: 'http://localhost:3000', apiKey: process.env.API_KEY });
 * const { data, error } = await client.POST('/api/webhooks/v1/subscribe', {
 *   body: { url: 'https://example.com/hooks', events: ['order.created'] },
 * });
 */
export function createClient(options: WebhookServiceClientOptions): WebhookServiceClient {
  return createFetchClient<paths>({
    baseUrl: options.baseUrl,
    headers: {
      ...options.headers,
      ...(options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {}),
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
