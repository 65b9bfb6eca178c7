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

/** The key owner's pull subscription named `pull://<label>`, if there is one. */
export async function findPullSubscription(client: WebhookServiceClient, label: string): Promise<Subscription | undefined> {
  const url = `pull://${label}`;
  let cursor: string | undefined;
  do {
    const page = await client.GET(`${v1}/subscriptions`, { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } });
    if (!page.data) throw failure('listing subscriptions', page.error, page.response.status);
    const found = page.data.data.find((s) => s.url === url && s.destination?.type === 'pull');
    if (found) return found;
    cursor = page.data.next_cursor;
  } while (cursor);
  return undefined;
}

/**
 * The key owner's pull subscription named `pull://<label>`: reused (events updated when asked
 * and resumed when paused or disabled) or created. Returns it with its secret when created.
 */
export async function pullSubscription(client: WebhookServiceClient, label: string, events: readonly EventType[] | undefined): Promise<{ subscription: Subscription; secret?: string }> {
  const found = await findPullSubscription(client, label);
  if (found) {
    const sameEvents = !events || (events.length === found.events.length && events.every((e) => found.events.includes(e)));
    if (sameEvents && found.status === 'active') return { subscription: found };
    const patched = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, {
      params: { path: { subscription_id: found.id } },
      body: { ...(sameEvents ? {} : { events: [...events] }), ...(found.status === 'active' ? {} : { status: 'active' }) },
    });
    if (!patched.data) throw failure(`updating ${found.id}`, patched.error, patched.response.status);
    return { subscription: patched.data };
  }
  const url = `pull://${label}`;
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

/** The headers the contract documents on a message: only these are forwarded. */
const FORWARDED = new Set(['content-type', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-signature']);
/** Time kept before a message's deadline to report its outcome. */
const REPORT_MARGIN_MS = 2000;

/** `text` as the contract takes it in `response_excerpt`: at most its bound, NUL replaced by U+FFFD. */
export function excerptOf(text: string): string {
  return text.slice(0, EXCERPT).replaceAll('\0', '\uFFFD');
}

/** True for a URL on this machine (localhost, 127.0.0.0/8, ::1): where `listen` forwards unless allowed otherwise. */
export function isLoopback(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The local receiver's answer to one message, as the outcome to report: POSTed with its
 * documented headers only, cut short in time to report before its deadline; a receiver that
 * cannot be reached (or answer in time) is a 502.
 */
export async function forward(forwardTo: string, message: InboxMessage, now = Date.now()): Promise<{ status_code: number; response_excerpt: string; duration_ms: number }> {
  const t0 = performance.now();
  const headers = Object.fromEntries(Object.entries(message.headers).filter(([name]) => FORWARDED.has(name.toLowerCase())));
  const timeoutMs = Math.max(1, Date.parse(message.ack_by) - now - REPORT_MARGIN_MS);
  try {
    const res = await fetch(forwardTo, { method: 'POST', headers, body: message.body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    return { status_code: res.status, response_excerpt: excerptOf(text), duration_ms: Math.round(performance.now() - t0) };
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = (err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms (before the deadline)` : (cause?.code ?? cause?.message ?? String(err));
    return { status_code: 502, response_excerpt: excerptOf(`webhook-service listen could not reach ${forwardTo}: ${why}`), duration_ms: Math.round(performance.now() - t0) };
  }
}

/**
 * `call` again after a 429, a 503 or a network error, waiting as `Retry-After` says (else
 * doubling from half a second, at most 30 s), until it answers otherwise, `until` passes or
 * `signal` aborts; undefined then.
 */
export async function withRetries<T extends { response: Response }>(call: () => Promise<T>, opts: { signal?: AbortSignal; until?: number } = {}): Promise<T | undefined> {
  for (let n = 0; ; n++) {
    const res = await call().catch((err: unknown) => {
      if (opts.signal?.aborted) return undefined;
      if (err instanceof TypeError) return 'network' as const;
      throw err;
    });
    if (res === undefined) return undefined;
    if (res !== 'network' && res.response.status !== 429 && res.response.status !== 503) return res;
    const after = res === 'network' ? NaN : Number(res.response.headers.get('Retry-After'));
    const waitMs = Number.isFinite(after) && after >= 0 ? after * 1000 : Math.min(30_000, 500 * 2 ** n);
    if (opts.until !== undefined && Date.now() + waitMs >= opts.until) return res === 'network' ? undefined : res;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    if (opts.signal?.aborted) return undefined;
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
  // Messages handled, until their deadline: a read returns each until its outcome is stored.
  const handled = new Map<string, number>();
  let cursor: string | undefined;
  while (!opts.signal?.aborted) {
    const page = await withRetries(
      () =>
        client.GET(`${v1}/subscriptions/{subscription_id}/inbox`, {
          params: { path, query: { wait: opts.waitSeconds ?? 20, ...(cursor ? { cursor } : {}) } },
          ...(opts.signal ? { signal: opts.signal } : {}),
        }),
      opts.signal ? { signal: opts.signal } : {},
    );
    if (!page) break;
    if (!page.data) throw failure('reading the inbox', page.error, page.response.status);
    cursor = page.data.next_cursor;
    for (const [id, due] of handled) if (due <= Date.now()) handled.delete(id);
    for (const message of page.data.data) {
      const due = Date.parse(message.ack_by);
      if (handled.has(message.id)) continue;
      handled.set(message.id, due);
      // Past (or too near) its deadline the attempt is a timeout already: forwarding it would only be refused.
      if (due - Date.now() <= REPORT_MARGIN_MS) {
        print(`${message.event_id} ${typeOf(message)} attempt ${message.attempt} skipped: its deadline passed`);
        continue;
      }
      const outcome = await forward(opts.forwardTo, message);
      print(`${message.event_id} ${typeOf(message)} attempt ${message.attempt} -> ${outcome.status_code} (${outcome.duration_ms} ms)`);
      const reported = await withRetries(() => client.POST(`${v1}/subscriptions/{subscription_id}/inbox/{message_id}/outcome`, { params: { path: { ...path, message_id: message.id } }, body: outcome }), {
        ...(opts.signal ? { signal: opts.signal } : {}),
        until: due,
      });
      // Past its deadline the attempt was a timeout already: say so and go on.
      if (reported && reported.response.status !== 204) print(`  outcome of ${message.id} not recorded: ${failure('report', reported.error, reported.response.status).message}`);
      else if (!reported && !opts.signal?.aborted) print(`  outcome of ${message.id} not recorded: the service could not be reached before its deadline`);
    }
  }
}
