import { createClient, type WebhookServiceClient } from '../../client';
import { problemText } from './problem-text';

/** The typed contract client, authenticated with the portal session token. */
export function portalClient(token: string, onUnauthorized: () => void): WebhookServiceClient {
  const client = createClient({ baseUrl: location.origin, apiKey: token });
  // An expired session mid-use switches the page to the expired-link message.
  client.use({
    onResponse({ response }) {
      if (response.status === 401) onUnauthorized();
      return undefined;
    },
  });
  return client;
}

/** A call's outcome reduced to what the page shows. */
export type Outcome<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

/** Unwraps an openapi-fetch result; network failures become an outcome too, never a throw. */
export async function outcome<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<Outcome<T>> {
  try {
    const { data, error, response } = await call;
    if (response.ok) return { ok: true, data: data as T };
    return { ok: false, status: response.status, message: problemText(error, response.status) };
  } catch (err) {
    return { ok: false, status: 0, message: `The server could not be reached (${err instanceof Error ? err.message : String(err)}).` };
  }
}

/** A fresh Idempotency-Key, so a retried click does not send twice. */
export function idempotencyKey(): string {
  return crypto.randomUUID();
}
