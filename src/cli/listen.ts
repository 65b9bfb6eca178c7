import type { components, WebhookServiceClient } from '../client';

type InboxMessage = components['schemas']['InboxMessage'];
type Subscription = components['schemas']['Subscription'];
/** An event type name; what a user types is checked by the service (400 naming it). */
type EventType = components['schemas']['EventType'];

const v1 = '/api/webhooks/v1';
/** Most of a local answer kept for the attempt log (the contract's `response_excerpt` bound). */
const EXCERPT = 1024;

/** What `listen` needs: the service, where to forward, and where to say what happened. */
export interface ListenOptions {
  client: WebhookServiceClient;
  /** The local receiver; it need not be reachable from the service. */
  forwardTo: string;
  /** The event types to subscribe to; absent: those of a reused subscription, else every type of the catalogue this key may receive. */
  events?: readonly EventType[];
  /** Names the pull subscription (`pull://<label>`), so a second run reuses it. */
  label: string;
  print: (line: string) => void;
  signal?: AbortSignal;
  /** Seconds each inbox read waits for a message (at most 30). */
  waitSeconds?: number;
}

/** A failed call, as one line. */
function failure(what: string, error: unknown, status: number): Error {
  const detail = (error as { detail?: string; title?: string } | undefined)?.detail ?? (error as { title?: string } | undefined)?.title ?? '';
  return new Error(`${what}: ${status}${detail ? ` ${detail}` : ''}`);
}

/**
 * The key owner's pull subscription named `pull://<label>`: reused (unless `asIs`, events updated
 * when asked and resumed when paused or disabled) or created. Returns it with its secret when created.
 */
export async function pullSubscription(
  client: WebhookServiceClient,
  label: string,
  events: readonly EventType[] | undefined,
  asIs = false,
): Promise<{ subscription: Subscription; secret?: string }> {
  const url = `pull://${label}`;
  let cursor: string | undefined;
  do {
    const page = await client.GET(`${v1}/subscriptions`, { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } });
    if (!page.data) throw failure('listing subscriptions', page.error, page.response.status);
    const found = page.data.data.find((s) => s.url === url && s.destination?.type === 'pull');
    if (found) {
      const sameEvents = !events || (events.length === found.events.length && events.every((e) => found.events.includes(e)));
      if (asIs || (sameEvents && found.status === 'active')) return { subscription: found };
      const patched = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, {
        params: { path: { subscription_id: found.id } },
        body: { ...(sameEvents ? {} : { events: [...events] }), ...(found.status === 'active' ? {} : { status: 'active' }) },
      });
      if (!patched.data) throw failure(`updating ${found.id}`, patched.error, patched.response.status);
      return { subscription: patched.data };
    }
    cursor = page.data.next_cursor;
  } while (cursor);
  const create = (types: readonly EventType[]) => client.POST(`${v1}/subscribe`, { body: { url, events: [...types], destination: { type: 'pull' }, description: 'webhook-service listen' } });
  const types = events ?? (await catalogueTypes(client));
  let created = await create(types);
  if (!events && created.response.status === 403) {
    // Not asked for any: take what the key may receive, as the refusal names the rest.
    const allowed = typesNotRefused(types, created.error);
    if (allowed.length > 0) created = await create(allowed);
  }
  if (!created.data) throw failure('creating the pull subscription', created.error, created.response.status);
  return { subscription: created.data, secret: created.data.secret };
}

/** The types of `types` a subscribe refusal (403) did not name: it names each one the key may not receive at `/body/events/<index>`. */
export function typesNotRefused(types: readonly EventType[], problem: unknown): EventType[] {
  const errors = (problem as { errors?: Array<{ path?: string }> } | undefined)?.errors ?? [];
  const refused = new Set(errors.flatMap((e) => /^\/body\/events\/(\d+)$/.exec(e.path ?? '')?.slice(1).map(Number) ?? []));
  return types.filter((_, i) => !refused.has(i));
}

/** Every event type of the catalogue. */
async function catalogueTypes(client: WebhookServiceClient): Promise<EventType[]> {
  const res = await client.GET(`${v1}/event-types`);
  if (!res.data) throw failure('reading the event catalogue', res.error, res.response.status);
  return res.data.data.map((t) => t.name);
}

/** The local receiver's answer to one message, as the outcome to report; a receiver that cannot be reached is a 502. */
export async function forward(forwardTo: string, message: InboxMessage): Promise<{ status_code: number; response_excerpt: string; duration_ms: number }> {
  const t0 = performance.now();
  try {
    const res = await fetch(forwardTo, { method: 'POST', headers: message.headers, body: message.body, redirect: 'manual' });
    const text = await res.text();
    return { status_code: res.status, response_excerpt: text.slice(0, EXCERPT), duration_ms: Math.round(performance.now() - t0) };
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? String(err);
    return { status_code: 502, response_excerpt: `webhook-service listen could not reach ${forwardTo}: ${why}`.slice(0, EXCERPT), duration_ms: Math.round(performance.now() - t0) };
  }
}

/** The event type of a message, from its envelope (`event` in v1, `type` in v2). */
function typeOf(message: InboxMessage): string {
  try {
    const envelope = JSON.parse(message.body) as { event?: string; type?: string };
    return envelope.type ?? envelope.event ?? '?';
  } catch {
    return '?';
  }
}

/**
 * Forwards the owner's deliveries to a local receiver until `signal` aborts: long-polls the pull
 * subscription's inbox, POSTs each message with its original headers, prints the delivery and
 * the local answer, and reports that answer as the attempt's outcome (so a local 500 is retried).
 */
export async function listen(opts: ListenOptions): Promise<void> {
  const { client, print } = opts;
  const { subscription, secret } = await pullSubscription(client, opts.label, opts.events);
  print(`Ready: ${subscription.id} (${subscription.url}) receives ${subscription.events.join(', ')}; forwarding to ${opts.forwardTo}`);
  if (secret) print(`Signing secret (shown once): ${secret}`);
  const path = { subscription_id: subscription.id };
  let cursor: string | undefined;
  while (!opts.signal?.aborted) {
    const page = await client.GET(`${v1}/subscriptions/{subscription_id}/inbox`, {
      params: { path, query: { wait: opts.waitSeconds ?? 20, ...(cursor ? { cursor } : {}) } },
      ...(opts.signal ? { signal: opts.signal } : {}),
    }).catch((err: unknown) => {
      if (opts.signal?.aborted) return undefined;
      throw err;
    });
    if (!page) break;
    if (!page.data) throw failure('reading the inbox', page.error, page.response.status);
    cursor = page.data.next_cursor;
    for (const message of page.data.data) {
      const outcome = await forward(opts.forwardTo, message);
      print(`${message.event_id} ${typeOf(message)} attempt ${message.attempt} -> ${outcome.status_code} (${outcome.duration_ms} ms)`);
      const reported = await client.POST(`${v1}/subscriptions/{subscription_id}/inbox/{message_id}/outcome`, { params: { path: { ...path, message_id: message.id } }, body: outcome });
      // Past its deadline the attempt was a timeout already: say so and go on.
      if (reported.response.status !== 204) print(`  outcome of ${message.id} not recorded: ${failure('report', reported.error, reported.response.status).message}`);
    }
  }
}
