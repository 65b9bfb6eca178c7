import { parseArgs } from 'node:util';
import { createClient, type components, type WebhookServiceClient } from '../client';
import { findPullSubscription, isLoopback, listen } from './listen';

type EventType = components['schemas']['EventType'];

const v1 = '/api/webhooks/v1';

const usage = `webhook-service <command> [options]

  listen --forward-to <url> [--events a,b] [--label cli] [--allow-remote]
      Forwards the API key owner's deliveries to a local receiver (which the service need not
      reach) through a pull subscription (pull://<label>), and reports each local answer as the
      attempt's outcome; the receiver must be on this machine unless --allow-remote. Without
      --events a new subscription takes every event type this key may receive; a reused one
      keeps its own.
  trigger [<event-type>] [--subscription <id>]
      Sends a test event to one subscription: webhook.test by default, or a sample of one of
      its event types (e.g. order.created) with made-up data (default subscription: the listen
      one of --label, which only listen makes, showing its signing secret; as for the commands
      below).
  events [--subscription <id>] [--follow]
  attempts [--subscription <id>] [--follow]
      Lists a subscription's events or delivery attempts (default: the listen subscription);
      --follow keeps printing new ones.

  Common: --api-url (WEBHOOK_SERVICE_URL, default http://localhost:3000)
          --api-key (WEBHOOK_SERVICE_API_KEY)`;

/** The parsed command line; `positionals[0]` is the command. */
function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'forward-to': { type: 'string' },
      events: { type: 'string' },
      label: { type: 'string', default: 'cli' },
      subscription: { type: 'string' },
      follow: { type: 'boolean', default: false },
      'allow-remote': { type: 'boolean', default: false },
      'api-url': { type: 'string' },
      'api-key': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}

/** What a command prints to and how it stops. */
export interface CliIo {
  print: (line: string) => void;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

/** The event types of `--events`, comma-separated (the service checks them: 400 naming an unknown one). */
function eventsOf(values: ReturnType<typeof parse>['values']): EventType[] | undefined {
  return values.events ? (values.events.split(',').map((e) => e.trim()) as EventType[]) : undefined;
}

/** The subscription a command is about: `--subscription`, else the listen subscription of `--label`, which only `listen` makes (and shows the secret of). */
async function subscriptionOf(client: WebhookServiceClient, values: ReturnType<typeof parse>['values']): Promise<string> {
  if (values.subscription) return values.subscription;
  const found = await findPullSubscription(client, values.label);
  if (!found) throw new Error(`No listen subscription pull://${values.label}: run listen first (it shows the signing secret), or pass --subscription <id>.`);
  return found.id;
}

/** Prints a list, then with `follow` the new rows every two seconds until aborted; rows are newest first and keyed by `id`. */
async function listRows<T>(read: () => Promise<T[]>, key: (row: T) => string, line: (row: T) => string, follow: boolean, io: CliIo): Promise<void> {
  const seen = new Set<string>();
  for (;;) {
    const fresh = (await read()).filter((r) => !seen.has(key(r)));
    for (const row of fresh.reverse()) {
      seen.add(key(row));
      io.print(line(row));
    }
    if (!follow || io.signal?.aborted) return;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    if (io.signal?.aborted) return;
  }
}

/** Runs one command; the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    io.print(`${(err as Error).message}\n\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    io.print(usage);
    return values.help ? 0 : 2;
  }
  const apiKey = values['api-key'] ?? io.env.WEBHOOK_SERVICE_API_KEY;
  if (!apiKey) {
    io.print('An API key is needed: --api-key or WEBHOOK_SERVICE_API_KEY.');
    return 2;
  }
  const client = createClient({ baseUrl: values['api-url'] ?? io.env.WEBHOOK_SERVICE_URL ?? 'http://localhost:3000', apiKey });
  const problem = (res: { error?: unknown; response: Response }) => `${res.response.status} ${(res.error as { detail?: string } | undefined)?.detail ?? ''}`.trim();
  switch (command) {
    case 'listen': {
      const forwardTo = values['forward-to'];
      if (!forwardTo) {
        io.print('listen needs --forward-to <url>.');
        return 2;
      }
      if (!values['allow-remote'] && !isLoopback(forwardTo)) {
        io.print(`--forward-to ${forwardTo} is not on this machine (localhost, 127.0.0.1, ::1): deliveries carry your data; pass --allow-remote to forward there anyway.`);
        return 2;
      }
      const events = eventsOf(values);
      await listen({ client, forwardTo, label: values.label, print: io.print, ...(events ? { events } : {}), ...(io.signal ? { signal: io.signal } : {}) });
      return 0;
    }
    case 'trigger': {
      // The service checks the type (400 for an unknown one, 422 for one the subscription does not receive).
      const type = (rest[0] ?? 'webhook.test') as EventType;
      const id = await subscriptionOf(client, values);
      const res = await client.POST(`${v1}/subscriptions/{subscription_id}/test`, { params: { path: { subscription_id: id } }, body: { type } });
      if (!res.data) {
        io.print(`trigger failed: ${problem(res)}`);
        return 1;
      }
      io.print(`Sent ${res.data.event_id} (${type}) to ${id}`);
      return 0;
    }
    case 'events': {
      const id = await subscriptionOf(client, values);
      await listRows(
        async () => (await client.GET(`${v1}/subscriptions/{subscription_id}/events`, { params: { path: { subscription_id: id }, query: { limit: 50 } } })).data?.data ?? [],
        (e) => `${e.id} ${e.delivery_state} ${e.attempts}`,
        (e) => `${e.created_at} ${e.id} ${e.type} ${e.delivery_state} (${e.attempts} attempts)`,
        values.follow,
        io,
      );
      return 0;
    }
    case 'attempts': {
      const id = await subscriptionOf(client, values);
      await listRows(
        async () => (await client.GET(`${v1}/subscriptions/{subscription_id}/attempts`, { params: { path: { subscription_id: id }, query: { limit: 50 } } })).data?.data ?? [],
        (a) => a.id,
        (a) => `${a.started_at} ${a.event_id} attempt ${a.attempt} ${a.outcome}${a.status_code !== undefined ? ` ${a.status_code}` : ''} -> ${a.state} (${a.duration_ms} ms)`,
        values.follow,
        io,
      );
      return 0;
    }
    default:
      io.print(`Unknown command ${command}.\n\n${usage}`);
      return 2;
  }
}
