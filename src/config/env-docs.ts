import type { envSchema } from './config';

/** A variable of {@link envSchema}. */
export type EnvVar = keyof typeof envSchema.shape;

/** What the reference says of a variable; its default comes from the schema itself. */
export interface EnvDoc {
  /** The section it is listed under. */
  group: EnvGroup;
  /** What it means, in markdown (one line). */
  meaning: string;
  /** What leaving it unset means, for a variable the schema gives no default (the schema's default wins when it has one). */
  unset?: string;
}

/** Sections of the reference, in order. */
export const envGroups = ['Process', 'Database', 'Temporal', 'API', 'Delivery', 'Retention', 'Secrets at rest', 'Metrics and tracing'] as const;
export type EnvGroup = (typeof envGroups)[number];

/**
 * The meaning of every variable the API and the worker read, rendered with the schema's defaults
 * into docs/configuration.md by `npm run docs:config` (the stack's own: stack/config/env-docs.ts).
 * Typed over the schema's keys: a variable added to the schema without a line here does not compile.
 */
export const envDocs: Record<EnvVar, EnvDoc> = {
  NODE_ENV: { group: 'Process', meaning: '`production` requires `SECRET_ENCRYPTION_KEY` and `PUBLIC_URL`, and turns response validation off' },
  LOG_LEVEL: { group: 'Process', meaning: 'pino level' },
  LOG_FORMAT: { group: 'Process', meaning: 'Log line format; `pretty` is pino-pretty', unset: 'pretty on a terminal, else `json`' },
  HOST: { group: 'Process', meaning: 'API listen address (`0.0.0.0` in containers); the worker serves its `/metrics` on it too' },
  PORT: { group: 'Process', meaning: 'API port' },
  MONGODB_URI: { group: 'Database', meaning: 'External MongoDB (`mongodb://` or `mongodb+srv://`); unset starts an embedded one' },
  MONGODB_DB: { group: 'Database', meaning: 'Database name' },
  MONGO_PORT: { group: 'Database', meaning: 'Port of the embedded database; the API and worker connect to it on loopback when `MONGODB_URI` is unset' },
  TEMPORAL_ADDRESS: { group: 'Temporal', meaning: 'External Temporal frontend `host:port`; unset starts the dev server' },
  TEMPORAL_NAMESPACE: { group: 'Temporal', meaning: 'Temporal namespace' },
  TEMPORAL_TASK_QUEUE: { group: 'Temporal', meaning: 'Task queue of the delivery worker (also names the retention schedule when not the default)' },
  TEMPORAL_PORT: { group: 'Temporal', meaning: 'gRPC port of the embedded dev server; the API and worker connect to it on loopback when `TEMPORAL_ADDRESS` is unset' },
  TEMPORAL_UI_PORT: { group: 'Temporal', meaning: 'Web UI port of the embedded dev server (administrator portal sessions link to it when `TEMPORAL_UI_URL` and `TEMPORAL_ADDRESS` are unset)' },
  TEMPORAL_UI_URL: { group: 'Temporal', meaning: 'The Temporal UI that administrator portal sessions link to', unset: 'embedded: `http://localhost:<TEMPORAL_UI_PORT>`; external: none' },
  ADMIN_API_KEY: { group: 'API', meaning: 'Bootstrap admin key (≥ 24 chars), stored hashed at API start; `npm start` generates one in `DATA_DIR/admin-api-key` when unset' },
  PUBLIC_URL: {
    group: 'API',
    meaning: 'Origin of the API as receivers reach it (`https://hooks.example.com`): of portal links and of every event\'s `data.url` (set it for the worker too); required when `NODE_ENV=production`',
    unset: "portal links use the address the request reached (never its `Host` header), events `http://<HOST>:<PORT>`",
  },
  PORTAL_SESSION_SECRET: {
    group: 'API',
    meaning: 'Key (≥ 32 chars) signing portal session tokens, shared by every API process',
    unset: 'a random key stored once in the database (`service_keys`)',
  },
  API_DELIVERY_WORKER: {
    group: 'API',
    meaning:
      'Also run a delivery worker in each API process, on the connection its workflow starts use: Temporal then hands a new workflow its first task in the start reply (eager start) instead of through matching. It saves the start-to-first-task hop (`npm run bench:floor -- --eager`: start to deliveries 31 → 20 ms), but that API process then POSTs deliveries, holds the workflow bundle and the SDK core (RSS 228 → ~410 MB under `npm start`), needs the worker\'s settings, and its deliveries are missing from the worker\'s `/metrics`; keep the worker process for retries, the relay and schedules ([operations.md](operations.md#what-npm-start-runs))',
  },
  CALLBACK_ALLOW_PRIVATE: { group: 'API', meaning: 'Allow callback URLs on loopback/private/link-local addresses (local development and tests only)' },
  MAX_SUBSCRIPTIONS_PER_OWNER: { group: 'API', meaning: 'Most subscriptions one owner may have; one more is a 409 naming the limit (concurrent creates may overshoot it by their number)' },
  VALIDATE_RESPONSES: { group: 'API', meaning: 'Validate every response against the contract too (`true`, `false`, `1`, `0`)', unset: 'on unless `NODE_ENV=production`' },
  REQUEST_BODY_LIMIT: { group: 'API', meaning: 'Largest request body (`<n>b`, `kb` or `mb`); larger gets 413' },
  API_MAX_IN_FLIGHT: {
    group: 'API',
    meaning:
      'Requests one API process serves at once; beyond it 503 with `Retry-After: 1`, nothing done ([Overload](api.md#overload)); `0`: no bound. 32 is about twice what a process holds at 15 orders/s with 0.5–1 s answers; in the CI chaos run it kept almost every answer under the client\'s 10 s timeout ([bench/RESULTS.md](../bench/RESULTS.md#load-shedding-api_max_in_flight))',
  },
  API_OWNER_CONCURRENCY: {
    group: 'API',
    meaning:
      'Requests of one owner one API process runs at once while another owner has sent a request within the last 2 s; its further ones wait their turn in arrival order (still counted in `API_MAX_IN_FLIGHT` and `API_MAX_WAIT`). An owner alone is not held: the machine, not the number of requests at once, bounds how fast a flood is served, so this keeps one owner\'s flood from slowing another\'s answers and deliveries ([fair share](delivery.md#fair-share-between-owners)); `0`: no bound',
  },
  API_MAX_WAIT: { group: 'API', meaning: 'A request that took longer than this from its body read to its handler starting gets 503 (`100ms`–`10m`, `off`)' },
  API_BODY_TIMEOUT: { group: 'API', meaning: 'A request body not all received this long after its headers gets 408 and its connection closed (`100ms`–`10m`); a body counts against `API_MAX_IN_FLIGHT` only once read' },
  API_MAX_BODIES_PER_PEER: { group: 'API', meaning: 'Request bodies one client address may be sending at once; beyond it 429 at once, before the body is read; `0`: no bound. Behind a proxy every client shares its address: raise it, or let the proxy buffer bodies' },
  API_MAX_CONNECTIONS_PER_PEER: {
    group: 'API',
    meaning:
      'Open connections one client address (an IPv6 /64 counts as one) may hold on one API process; the next is closed at once, before a byte is read; `0`: no bound. 512 is above the most the bench (256), soak (224) and chaos (466 over both processes at its default rate) clients can hold open from 127.0.0.1. Behind a proxy every client shares its address: set it above the proxy\'s connections to one process',
  },
  API_MAX_CONNECTIONS: { group: 'API', meaning: 'Open connections one API process holds in all; beyond it a new one is closed at once; `0`: no bound. Keep it under the process\'s open-file limit (`ulimit -n`)' },
  RATE_LIMIT_ENABLED: { group: 'API', meaning: 'Rate limits per API key; `false`: none, and no `RateLimit` headers' },
  RATE_LIMITS: {
    group: 'API',
    meaning:
      'Budget per key and window, per scope: `<default\\|scope>=<requests>/<window>`, comma-separated, window 1s–24h in whole seconds, e.g. `default=600/1m,orders:write=60/1m`; unlisted scopes use `default`',
  },
  DELIVERY_RETRY_SCHEDULE: { group: 'Delivery', meaning: 'Waits between attempts (`ms`, `s`, `m`, `h`); the last repeats' },
  DELIVERY_MAX_ATTEMPTS: { group: 'Delivery', meaning: 'Attempts per event and subscription, 5 to 10' },
  DELIVERY_TIMEOUT: { group: 'Delivery', meaning: 'Hard timeout of one POST (100ms–60s)' },
  DELIVERY_JITTER: { group: 'Delivery', meaning: 'Each wait is stretched by up to this fraction at random (0–1)' },
  DELIVERY_BATCH_SIZE: { group: 'Delivery', meaning: 'Most subscriptions one event workflow delivers to itself (1–64); larger fan-outs are split into child workflows of this size' },
  ADMIN_ALERT_URL: { group: 'Delivery', meaning: 'Where failed deliveries and disabled subscriptions are also POSTed (signed); alerts are stored either way' },
  ADMIN_ALERT_SECRET: { group: 'Delivery', meaning: 'Secret signing those alert POSTs (`whsec_…`); required with `ADMIN_ALERT_URL`' },
  ADMIN_ALERTS_PER_OWNER_PER_HOUR: {
    group: 'Delivery',
    meaning:
      "Most alerts of one owner's subscriptions POSTed to `ADMIN_ALERT_URL` per clock hour (1–100000), across all workers; the rest are stored and listed as usual, and that owner's next POST carries how many were not sent (`suppressed`)",
  },
  RELAY_INTERVAL: { group: 'Delivery', meaning: 'How often workers look for events a crash or a Temporal outage left behind' },
  ENDPOINT_DISABLE_AFTER: { group: 'Delivery', meaning: 'A subscription whose every attempt failed this long is disabled (`ms`, `s`, `m`, `h`, `d`; `off`: never)' },
  DELIVERY_MAX_IN_FLIGHT: { group: 'Delivery', meaning: 'POSTs one worker sends at once to one subscription, unless it sets `max_in_flight`; `0`: no bound' },
  OWNER_FAIR_RATE: {
    group: 'Delivery',
    meaning: 'Event workflows per second one owner starts on the default task queue, per API or worker process; an owner past this rate and `OWNER_FAIR_BURST` starts its further ones on `<TEMPORAL_TASK_QUEUE>-bulk` until it has refilled its burst (at 1.5× the rate while there, so an owner at its rate comes back); `0`: everything on the default queue ([fair share](delivery.md#fair-share-between-owners))',
  },
  OWNER_FAIR_BURST: { group: 'Delivery', meaning: 'Event workflows one owner may start at once on the default task queue beyond `OWNER_FAIR_RATE` (its token bucket\'s size)' },
  BULK_LANE_CONCURRENCY: {
    group: 'Delivery',
    meaning: 'Event workflow tasks (each with its round of POSTs) one worker runs at once on the bulk task queue (2–1000), beside 200 on the default one; the rest of a flood waits in Temporal\'s queue. A round holds its task until its slowest POST ends, so a subscriber that never answers holds a slot for `DELIVERY_TIMEOUT` per event: fewer slots bound what a flood costs the worker\'s CPU, but also how fast the flood\'s healthy deliveries go beside such a subscriber (200: 0.73–0.81× of their pace alone; 400: 1.29–1.41×) ([fair share](delivery.md#fair-share-between-owners))',
  },
  BULK_LANE_START_RATE: {
    group: 'Delivery',
    meaning: 'Event workflows per second one owner on the bulk lane starts, per API process, while another owner has started on the default lane within the last 2 s; its further writes are logged at once and their workflows wait, in order, in the process (their dispatch notes kept, due to the relay only after twice their expected wait plus 10 s, so nothing is lost if the process dies). An owner alone is not held ([fair share](delivery.md#fair-share-between-owners)); `0`: nobody is held',
  },
  WORKER_TARGET_CPU: {
    group: 'Delivery',
    meaning: 'The machine\'s CPU use (0–1) past which a worker takes no further workflow task beyond 20 per task queue (up to its 200 below it, `BULK_LANE_CONCURRENCY` on the bulk queue), for a worker sharing a small machine with its database and Temporal: fewer tasks run late and POST again, at about 12 % of throughput on a quiet machine; `0`: fixed slots ([delivery](delivery.md#rounds))',
  },
  SUBSCRIPTION_CACHE_TTL: {
    group: 'Delivery',
    meaning:
      'How long a process reuses what it read of subscriptions (0–10m; `0` or `off`: never). API: a new or changed subscription gets the next event at once from the API process that wrote it, from other API processes within this. Workers: a change to a subscription (pause, delete, URL, secret rotation) applies to attempts that start at least this long after it ([delivery](delivery.md#rounds))',
  },
  SUBSCRIPTION_HOLD_MAX: {
    group: 'Delivery',
    meaning:
      'Longest a delivery is held, counted from when it was held (1s–365d; with RETENTION_DAYS, it, twice a delivery\'s retries and 10 minutes must fit in the retention window). Then it fails as `hold_expired` (paused or draining), one alert is raised, and a pause that old cancels new events until resumed ([delivery](delivery.md#pause-holds-resume-drains))',
    unset: '`72h`, or the whole hours `RETENTION_DAYS` leaves after twice a delivery\'s retries and 10 minutes when fewer (at least 1h)',
  },
  WEBHOOK_INLINE_LIMIT: {
    group: 'Delivery',
    meaning: 'Bytes of a rendered envelope up to which an order\'s `items` are inlined (1024–1048576); above it the delivery carries the summary fields, `data.url` and `data.truncated: true` ([payloads](payloads.md))',
  },
  DELIVERY_SOURCE_ADDRESS: {
    group: 'Delivery',
    meaning:
      "Local IPv4 or IPv6 address every delivery and alert POST leaves from, so receivers can allow-list it (published at `GET /api/webhooks/v1/meta`). Must be an address of the worker's host (the worker stops at start otherwise); only callbacks of its family are reachable then (a name resolves to that family only; a literal of the other is a `network_error`). Loopback or link-local only with `CALLBACK_ALLOW_PRIVATE=true`. The address policy still checks every destination. Set the same value for the API, which publishes it",
    unset: 'the system chooses',
  },
  DELIVERY_PROXY_URL: {
    group: 'Delivery',
    meaning:
      "HTTP proxy (`http://[user:password@]host:port`) every delivery, OAuth 2.0 token request and alert POST goes through, as a CONNECT tunnel for https and http alike (user info is sent as `Proxy-Authorization`). The destination is resolved and checked by the address policy before the CONNECT, and the proxy is asked for the checked IP and port (the name stays in `Host` and TLS SNI), so the proxy cannot reach what the policy refuses. The proxy itself may be on loopback or a private network. One tunnel per POST (no keep-alive through the proxy)",
    unset: 'POSTs go straight to the receiver',
  },
  RETENTION_DAYS: {
    group: 'Retention',
    meaning:
      "Delivery attempts older than this many days, and events older than that plus a delivery's longest retries, are deleted (1–36500, longer than a delivery's retries last); `off` keeps them forever and removes the schedule",
  },
  RETENTION_INTERVAL: { group: 'Retention', meaning: 'How often the `webhook-retention` Temporal Schedule starts a deletion pass (at least `1m`)' },
  RETENTION_BATCH_SIZE: { group: 'Retention', meaning: 'About how many documents one round of a pass removes: it deletes whole 10-second buckets until it has removed this many (10–10000)' },
  RETENTION_BUSY_SHARE: {
    group: 'Retention',
    meaning: 'Share of its time a pass spends deleting (above 0, at most 1): after a round of d ms it rests d × (1 − share) ÷ share, so a large backlog leaves the database to deliveries and the API in between',
  },
  SECRET_ENCRYPTION_KEY: {
    group: 'Secrets at rest',
    meaning:
      '`<key id>:<base64 of 32 random bytes>` (e.g. `k1:$(openssl rand -base64 32)`): signing secrets are stored AES-256-GCM sealed under it (bound to their subscription); at API start, plaintext or older-key secrets are sealed under it',
    unset: 'secrets stored in plaintext; required when `NODE_ENV=production`',
  },
  SECRET_ENCRYPTION_KEYS: { group: 'Secrets at rest', meaning: 'Older keys (comma-separated, same form) that still open what they sealed, for key rotation' },
  METRICS_ENABLED: { group: 'Metrics and tracing', meaning: "Prometheus metrics on the API's `/metrics` and the worker's port" },
  DB_COMMAND_METRICS: {
    group: 'Metrics and tracing',
    meaning: '`true`: every database command is counted into `db_commands_total{command,collection}` on both `/metrics` (driver command monitoring: about 15 % more API CPU per order, measured); for finding where commands go, not for steady production',
  },
  METRICS_TOKEN: { group: 'Metrics and tracing', meaning: 'When set (≥ 16 chars), both `/metrics` need `Authorization: Bearer <token>`' },
  WORKER_METRICS_PORT: { group: 'Metrics and tracing', meaning: "The worker's `/metrics` port (on `HOST`); `0`: none" },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    group: 'Metrics and tracing',
    meaning: 'OTLP/HTTP collector base URL; traces go to `<url>/v1/traces` (the exporter also reads the standard `OTEL_EXPORTER_OTLP_HEADERS` and timeouts)',
    unset: 'no tracing',
  },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: { group: 'Metrics and tracing', meaning: 'Full traces URL, instead of the base URL' },
  OTEL_TRACES_EXPORTER: { group: 'Metrics and tracing', meaning: '`none` turns tracing off', unset: '`otlp`' },
  OTEL_SDK_DISABLED: { group: 'Metrics and tracing', meaning: '`true` turns tracing off' },
  OTEL_SERVICE_NAME: { group: 'Metrics and tracing', meaning: '`service.name` of the spans' },
};
