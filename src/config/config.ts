import { z } from 'zod';
import { parseDuration, parseDurationList } from './durations';
import { DEFAULT_RATE_LIMITS, parseRateLimits, type RateLimitPolicies } from './rate-limits';
import type { LogFormat } from '../logger';
import { parseSecretKey, type SecretKey } from '../subscriptions/secret-box';
import type { DeliveryPolicy } from '../../workflows/delivery-model';
import { MAX_BATCH_SIZE } from '../../workflows/search-attributes';
import { DAY_MS, longestDeliverySpanMs } from '../retention/delivery-span';
import { canonicalIp } from '../lib/ip';
import { classifyAddress } from '../webhooks/address-policy';
import { DEFAULT_HOLD_MAX_MS, EXPIRY_GRACE_MS } from '../subscriptions/hold';
import { type DeliveryProxy, parseProxyUrl } from '../webhooks/delivery-proxy';
import type { PayloadOptions } from '../webhooks/envelopes';

/** Thrown when the environment does not describe a valid configuration. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** `true`/`false`/`1`/`0` with a default, as a boolean. */
export const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');
/** A TCP port with a default. */
export const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);
/** A string whose empty value reads as unset. */
export const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v));
/**
 * A duration variable (`500ms`, `5s`, `15m`, `2h`, `5d`) in milliseconds, from `minMs` to `maxMs`;
 * with `off`, the word `off` reads as 0. `range` words the bounds in the error.
 */
const duration = (fallback: string, minMs: number, maxMs: number, range: string, off = false) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => durationMs(v, minMs, maxMs, range, off, ctx));
/** A duration variable as {@link duration} with no default: undefined when unset or empty. */
const optionalDuration = (minMs: number, maxMs: number, range: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => (v === undefined || v.trim() === '' ? undefined : durationMs(v, minMs, maxMs, range, false, ctx)));
function durationMs(v: string, minMs: number, maxMs: number, range: string, off: boolean, ctx: z.RefinementCtx): number {
  if (off && v.trim() === 'off') return 0;
  // A bare 0 needs no unit.
  const ms = v.trim() === '0' ? 0 : parseDuration(v);
  if (ms === undefined || ms < minMs || ms > maxMs) ctx.addIssue({ code: 'custom', message: `must be a duration ${range}${off ? ' or off' : ''}` });
  return ms ?? 0;
}
/**
 * WEBHOOK_INLINE_LIMIT, bytes of a rendered envelope with its bulky parts (an order's items)
 * inline. 4 KiB keeps a delivery to one small request (an order of up to about 60 lines fits; the
 * contract allows 100), well under what receivers' body limits and gateways accept; the floor
 * leaves room for every event's summary fields and link, so only bulky parts are ever left out.
 */
export const DEFAULT_INLINE_LIMIT = 4096;
const MIN_INLINE_LIMIT = 1024;
const MAX_INLINE_LIMIT = 1024 * 1024;

/**
 * The origin of the API URLs events carry (`data.url`): PUBLIC_URL, else the API's own listen
 * address (a wildcard host read as `localhost`), since the worker has no request to take it from.
 */
export function apiOrigin(publicUrl: string | undefined, host: string, port: number): string {
  if (publicUrl) return publicUrl.replace(/\/$/, '');
  const ip = canonicalIp(host);
  const name = ip !== undefined && classifyAddress(ip) === 'unspecified' ? 'localhost' : ip?.includes(':') ? `[${ip}]` : host;
  return `http://${name}:${port}`;
}

/**
 * Every environment variable the API and the worker read, with its default. `.env.example` mirrors
 * this; the variables only the development stack reads are in stack/config/config.ts.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: optionalString.pipe(z.enum(['json', 'pretty']).optional()),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port(3000),
  MONGODB_URI: optionalString.pipe(
    z.string().regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://').optional(),
  ),
  MONGODB_DB: z.string().regex(/^[A-Za-z0-9_-]{1,63}$/, 'must be a plain database name').default('webhooks'),
  MONGO_PORT: port(27017),
  TEMPORAL_ADDRESS: optionalString,
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('webhook-deliveries'),
  TEMPORAL_PORT: port(7233),
  TEMPORAL_UI_PORT: port(8233),
  ADMIN_API_KEY: optionalString.pipe(
    z.string().min(24, 'must be at least 24 characters (use a random value)').optional(),
  ),
  CALLBACK_ALLOW_PRIVATE: bool(false),
  API_DELIVERY_WORKER: bool(false),
  MAX_SUBSCRIPTIONS_PER_OWNER: z.coerce.number().int().min(1).max(100_000).default(100),
  PUBLIC_URL: optionalString.pipe(z.string().regex(/^https?:\/\/[^/]+\/?$/, 'must be an http(s) origin like https://hooks.example.com').optional()),
  PORTAL_SESSION_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters (use a random value)').optional()),
  TEMPORAL_UI_URL: optionalString.pipe(z.string().regex(/^https?:\/\/[^/]/, 'must be an http(s):// URL').optional()),
  VALIDATE_RESPONSES: z.enum(['true', 'false', '1', '0']).optional(),
  API_MAX_IN_FLIGHT: z.coerce.number().int().min(0).max(100_000).default(32),
  API_MAX_WAIT: duration('off', 100, 600_000, 'from 100ms to 10m', true),
  API_OWNER_CONCURRENCY: z.coerce.number().int().min(0).max(100_000).default(2),
  API_BODY_TIMEOUT: duration('10s', 100, 600_000, 'from 100ms to 10m'),
  API_MAX_BODIES_PER_PEER: z.coerce.number().int().min(0).max(100_000).default(64),
  API_MAX_CONNECTIONS_PER_PEER: z.coerce.number().int().min(0).max(1_000_000).default(512),
  API_MAX_CONNECTIONS: z.coerce.number().int().min(0).max(1_000_000).default(4096),
  REQUEST_BODY_LIMIT: z.string().regex(/^\d+(b|kb|mb)$/, 'must look like 64kb').default('64kb'),
  RATE_LIMIT_ENABLED: bool(true),
  RATE_LIMITS: z
    .string()
    .default(DEFAULT_RATE_LIMITS)
    .transform((v, ctx) => {
      const policies = parseRateLimits(v);
      if (typeof policies === 'string') ctx.addIssue({ code: 'custom', message: policies });
      return typeof policies === 'string' ? undefined : policies;
    }),
  DELIVERY_RETRY_SCHEDULE: z
    .string()
    .default('1m,5m,15m,30m,60m,120m')
    .transform((v, ctx) => {
      const list = parseDurationList(v);
      if (!list) ctx.addIssue({ code: 'custom', message: 'must be comma-separated durations like 1m,5m,15m' });
      return list ?? [];
    }),
  DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().min(5).max(10).default(7),
  DELIVERY_TIMEOUT: duration('5s', 100, 60_000, 'from 100ms to 60s'),
  DELIVERY_JITTER: z.coerce.number().min(0).max(1).default(0.1),
  DELIVERY_SOURCE_ADDRESS: optionalString.transform((v, ctx) => {
    if (v === undefined) return undefined;
    const address = canonicalIp(v);
    if (address === undefined) {
      ctx.addIssue({ code: 'custom', message: 'must be one IP address of this host (e.g. 203.0.113.7 or 2001:db8::7), without a port, range or zone' });
      return undefined;
    }
    const cls = classifyAddress(address);
    // Neither is one address a receiver could allow-list: the system would pick the source.
    if (cls === 'unspecified' || cls === 'multicast') ctx.addIssue({ code: 'custom', message: `${address} is a ${cls} address, not one deliveries can come from; leave it unset to let the system choose` });
    return address;
  }),
  DELIVERY_PROXY_URL: optionalString.transform((v, ctx) => {
    if (v === undefined) return undefined;
    const proxy = parseProxyUrl(v);
    if (typeof proxy === 'string') ctx.addIssue({ code: 'custom', message: proxy });
    return typeof proxy === 'string' ? undefined : proxy;
  }),
  DELIVERY_BATCH_SIZE: z.coerce.number().int().min(1).max(MAX_BATCH_SIZE).default(50),
  WEBHOOK_INLINE_LIMIT: z.coerce.number().int().min(MIN_INLINE_LIMIT).max(MAX_INLINE_LIMIT).default(DEFAULT_INLINE_LIMIT),
  ADMIN_ALERT_URL: optionalString.pipe(z.string().url('must be an absolute URL').optional()),
  ADMIN_ALERT_SECRET: optionalString.pipe(z.string().regex(/^whsec_(?=.{24,}$)(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'must be whsec_ + padded standard base64, e.g. whsec_ and what openssl rand -base64 32 prints').optional()),
  ADMIN_ALERTS_PER_OWNER_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(20),
  METRICS_ENABLED: bool(true),
  DB_COMMAND_METRICS: bool(false),
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters (use a random value)').optional()),
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString.pipe(z.string().regex(/^https?:\/\/[^/]/, 'must be an http(s):// URL').optional()),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalString.pipe(z.string().regex(/^https?:\/\/[^/]/, 'must be an http(s):// URL').optional()),
  OTEL_TRACES_EXPORTER: optionalString.pipe(z.enum(['otlp', 'none']).optional()),
  OTEL_SDK_DISABLED: bool(false),
  OTEL_SERVICE_NAME: z.string().min(1).default('webhook-service'),
  SECRET_ENCRYPTION_KEY: optionalString.transform((v, ctx) => {
    if (v === undefined) return undefined;
    const key = parseSecretKey(v);
    if (typeof key === 'string') ctx.addIssue({ code: 'custom', message: key });
    return typeof key === 'string' ? undefined : key;
  }),
  SECRET_ENCRYPTION_KEYS: optionalString.transform((v, ctx) => {
    const keys = (v ?? '').split(',').filter((k) => k.trim() !== '').map(parseSecretKey);
    for (const k of keys) if (typeof k === 'string') ctx.addIssue({ code: 'custom', message: `each ${k}` });
    return keys.filter((k): k is SecretKey => typeof k !== 'string');
  }),
  ENDPOINT_DISABLE_AFTER: duration('5d', 1000, Infinity, 'of at least 1s (e.g. 5d, 12h)', true),
  DELIVERY_MAX_IN_FLIGHT: z.coerce.number().int().min(0).max(1000).default(20),
  OWNER_FAIR_RATE: z.coerce.number().min(0).max(100_000).default(10),
  OWNER_FAIR_BURST: z.coerce.number().int().min(1).max(1_000_000).default(10),
  BULK_LANE_CONCURRENCY: z.coerce.number().int().min(2).max(1000).default(400),
  BULK_LANE_START_RATE: z.coerce.number().min(0).max(100_000).default(10),
  WORKER_TARGET_CPU: z.coerce.number().min(0).max(1).default(0),
  SUBSCRIPTION_CACHE_TTL: duration('1s', 0, 600_000, 'from 0 to 10m', true),
  SUBSCRIPTION_HOLD_MAX: optionalDuration(1000, 365 * 86_400_000, 'from 1s to 365d'),
  RELAY_INTERVAL: duration('5s', 100, Infinity, 'of at least 100ms'),
  RETENTION_DAYS: z
    .string()
    .trim()
    .default('30')
    .transform((v, ctx) => {
      if (v === 'off') return undefined;
      const days = /^\d+$/.test(v) ? Number(v) : NaN;
      if (!(days >= 1 && days <= 36_500)) ctx.addIssue({ code: 'custom', message: 'must be a whole number of days from 1 to 36500, or off' });
      return days;
    }),
  RETENTION_INTERVAL: duration('1h', 60_000, Infinity, 'of at least 1m'),
  RETENTION_BATCH_SIZE: z.coerce.number().int().min(10).max(10_000).default(1000),
  RETENTION_BUSY_SHARE: z.coerce.number().gt(0, 'must be above 0').max(1).default(0.2),
});

export type Env = z.infer<typeof envSchema>;

// Alert POSTs are signed like deliveries, so a URL without a secret is a configuration error.
const refinedEnvSchema = envSchema.superRefine((e, ctx) => {
  // Signing secrets at rest in plaintext are readable by anyone who can read the database.
  if (e.NODE_ENV === 'production' && !e.SECRET_ENCRYPTION_KEY) {
    ctx.addIssue({ code: 'custom', path: ['SECRET_ENCRYPTION_KEY'], message: 'is required when NODE_ENV=production (<key id>:<base64 of 32 random bytes>)' });
  }
  // Links handed out (portal sessions, events' data.url) must name the public origin, never a guess.
  if (e.NODE_ENV === 'production' && !e.PUBLIC_URL) {
    ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'is required when NODE_ENV=production (the origin clients reach the API at, like https://hooks.example.com)' });
  }
  if (e.ADMIN_ALERT_URL && !e.ADMIN_ALERT_SECRET) {
    ctx.addIssue({ code: 'custom', path: ['ADMIN_ALERT_SECRET'], message: 'is required when ADMIN_ALERT_URL is set' });
  }
  // Packets from a loopback or link-local source cannot leave the host or link, and the address policy refuses every destination they could reach.
  const sourceClass = e.DELIVERY_SOURCE_ADDRESS === undefined ? undefined : classifyAddress(e.DELIVERY_SOURCE_ADDRESS);
  if ((sourceClass === 'loopback' || sourceClass === 'link-local') && !e.CALLBACK_ALLOW_PRIVATE) {
    ctx.addIssue({ code: 'custom', path: ['DELIVERY_SOURCE_ADDRESS'], message: `${e.DELIVERY_SOURCE_ADDRESS} is a ${sourceClass} address: deliveries from it reach only ${sourceClass} callbacks, which need CALLBACK_ALLOW_PRIVATE=true (local development and tests only)` });
  }
  // A delivery still retrying (on the service's schedule or a subscription's own) must find its event and keep its attempts.
  const spanMs = longestDeliverySpanMs({ scheduleMs: e.DELIVERY_RETRY_SCHEDULE, maxAttempts: e.DELIVERY_MAX_ATTEMPTS, jitterRatio: e.DELIVERY_JITTER });
  if (e.RETENTION_DAYS !== undefined && e.RETENTION_DAYS * DAY_MS <= spanMs) {
    ctx.addIssue({ code: 'custom', path: ['RETENTION_DAYS'], message: `must be longer than a delivery's retries last (${Math.ceil(spanMs / DAY_MS)} days with DELIVERY_RETRY_SCHEDULE and DELIVERY_MAX_ATTEMPTS, or a subscription's own retry schedule)` });
  } else if (e.RETENTION_DAYS !== undefined && e.SUBSCRIPTION_HOLD_MAX === undefined && holdMaxMs(e) === undefined) {
    ctx.addIssue({ code: 'custom', path: ['RETENTION_DAYS'], message: `must leave room for a held delivery: longer than twice a delivery's retries (2 × ${Math.ceil(spanMs / HOUR_MS)}h), the hold sweep's grace and an hour of SUBSCRIPTION_HOLD_MAX, or events would be deleted before their held deliveries are sent` });
  } else if (e.RETENTION_DAYS !== undefined && e.SUBSCRIPTION_HOLD_MAX !== undefined && e.SUBSCRIPTION_HOLD_MAX >= holdRoomMs(e.RETENTION_DAYS, spanMs)) {
    // A held delivery may be held after its retries ran, up to the hold limit (the sweep's grace on top), and its drained run retries from attempt 1 again.
    const hours = Math.floor(holdRoomMs(e.RETENTION_DAYS, spanMs) / HOUR_MS);
    ctx.addIssue({
      code: 'custom',
      path: ['SUBSCRIPTION_HOLD_MAX'],
      message:
        hours > 0
          ? `must be shorter than RETENTION_DAYS (${e.RETENTION_DAYS} days) less twice a delivery's retries (2 × ${Math.ceil(spanMs / HOUR_MS)}h) and the hold sweep's grace: at most ${hours}h, or events would be deleted before their held deliveries are sent`
          : `cannot fit: RETENTION_DAYS (${e.RETENTION_DAYS} days) must be longer than twice a delivery's retries (2 × ${Math.ceil(spanMs / HOUR_MS)}h) plus SUBSCRIPTION_HOLD_MAX, or events would be deleted before their held deliveries are sent`,
    });
  }
});

const HOUR_MS = 3_600_000;

/** What retention leaves a hold: a held delivery may be held after its retries ran, and its drained run retries from attempt 1 again. */
function holdRoomMs(retentionDays: number, spanMs: number): number {
  return retentionDays * DAY_MS - 2 * spanMs - EXPIRY_GRACE_MS;
}

/**
 * SUBSCRIPTION_HOLD_MAX, or when unset 72 hours, cut to the whole hours retention leaves a hold;
 * undefined when unset and retention leaves less than an hour.
 */
function holdMaxMs(e: Env): number | undefined {
  if (e.SUBSCRIPTION_HOLD_MAX !== undefined) return e.SUBSCRIPTION_HOLD_MAX;
  if (e.RETENTION_DAYS === undefined) return DEFAULT_HOLD_MAX_MS;
  const spanMs = longestDeliverySpanMs({ scheduleMs: e.DELIVERY_RETRY_SCHEDULE, maxAttempts: e.DELIVERY_MAX_ATTEMPTS, jitterRatio: e.DELIVERY_JITTER });
  // Strictly inside the room: a hold exactly as long would reach the deletion.
  const fits = Math.floor((holdRoomMs(e.RETENTION_DAYS, spanMs) - 1) / HOUR_MS) * HOUR_MS;
  return fits >= HOUR_MS ? Math.min(DEFAULT_HOLD_MAX_MS, fits) : undefined;
}

/** The validated configuration every entry point works from. */
export interface Config {
  env: Env['NODE_ENV'];
  logLevel: Env['LOG_LEVEL'];
  /** LOG_FORMAT, or pretty when stdout is a terminal and JSON otherwise. */
  logFormat: LogFormat;
  http: { host: string; port: number };
  mongo: {
    /** Set when an external MongoDB is configured; otherwise `npm start` starts an embedded one. */
    uri: string | undefined;
    /** Where processes connect: MONGODB_URI, or the embedded server's loopback address (MONGO_PORT). */
    connectUri: string;
    dbName: string;
    embeddedPort: number;
  };
  temporal: {
    /** Set when an external Temporal is configured; otherwise `npm start` starts the dev server. */
    address: string | undefined;
    /** Where processes connect: TEMPORAL_ADDRESS, or the embedded dev server (TEMPORAL_PORT). */
    connectAddress: string;
    namespace: string;
    taskQueue: string;
    embeddedPort: number;
    uiPort: number;
  };
  api: {
    /** Bootstrap admin key; stored hashed at API start. */
    adminApiKey: string | undefined;
    /** Allow callback URLs on loopback/private networks (local development and tests only). */
    allowPrivateCallbacks: boolean;
    /** Also run a delivery worker in the API process, so its workflow starts hand their first task to it (eager start). */
    deliveryWorker: boolean;
    /** Most subscriptions one owner may have (MAX_SUBSCRIPTIONS_PER_OWNER). */
    maxSubscriptionsPerOwner: number;
    /** How long another process's subscription change may go unseen by this one's fan-out (SUBSCRIPTION_CACHE_TTL; 0: no cache). */
    subscriptionCacheTtlMs: number;
    /** Validate responses against the contract (default: on outside production). */
    validateResponses: boolean;
    bodyLimit: string;
    /**
     * Admission: beyond `maxInFlight` requests at once (0: no bound), or past `maxWaitMs` before the handler (0: none), 503;
     * a body not all read within `bodyTimeoutMs` 408; beyond `maxBodiesPerPeer` bodies arriving from one address (0: no bound) 429;
     * beyond `perOwner` requests of one owner at once while another owner sends (0: no bound), the next waits its turn.
     */
    shedding: { maxInFlight: number; maxWaitMs: number; bodyTimeoutMs: number; maxBodiesPerPeer: number; perOwner: number };
    /** Open connections per client address (IPv6 /64) and in all, checked before a byte is read (0: no bound); the excess is closed at once. */
    connections: { maxPerPeer: number; maxConnections: number };
    /** Requests each API key may make per window, per scope; off: no limit and no RateLimit headers. */
    rateLimit: { enabled: boolean; policies: RateLimitPolicies };
    portal: {
      /** Origin of portal links (PUBLIC_URL, required in production); unset: the address the request reached, never its Host header (events' links fall back to HOST:PORT instead, see `delivery.payloads`). */
      publicUrl: string | undefined;
      /** Signs portal session tokens (PORTAL_SESSION_SECRET); a random key kept in the database when unset. */
      sessionSecret: string | undefined;
      /** The Temporal UI that administrator sessions link to: TEMPORAL_UI_URL, or the embedded dev server's. */
      temporalUiUrl: string | undefined;
    };
  };
  metrics: {
    /** Off: no /metrics anywhere and nothing counted. */
    enabled: boolean;
    /** When set, `GET /metrics` on the API requires `Authorization: Bearer <token>`. */
    token: string | undefined;
    /** Port of the worker's `/metrics` (on HOST); 0: none. */
    workerPort: number;
    /** Count every database command into `db_commands_total` (driver command monitoring, which costs CPU on every command). */
    dbCommands: boolean;
  };
  tracing: TracingConfig;
  /** Keys sealing signing secrets at rest: the current one seals, every one opens. */
  secretKeys: { current: SecretKey | undefined; previous: SecretKey[] };
  delivery: {
    policy: DeliveryPolicy;
    /** Most subscriptions one event workflow delivers to itself; larger fan-outs are split into parts of this size. */
    batchSize: number;
    timeoutMs: number;
    alertUrl: string | undefined;
    alertSecret: string | undefined;
    /** Most alerts of one owner POSTed to alertUrl per clock hour; the rest are stored and counted in the next POST. */
    alertsPerOwnerPerHour: number;
    /** How often the relay looks for events a crash or an outage left behind. */
    relayIntervalMs: number;
    /** A subscription whose every delivery failed for this long is disabled; 0: never. */
    disableAfterMs: number;
    /** POSTs one worker runs at once to one subscription, unless the subscription sets its own; 0: no bound. */
    maxInFlight: number;
    /** Each process's token bucket per owner (OWNER_FAIR_RATE/s, OWNER_FAIR_BURST): an owner past it starts its event workflows on the bulk task queue. */
    fairShare: { ratePerSecond: number; burst: number; bulkConcurrency: number; bulkStartsPerSecond: number };
    /** The machine's CPU use (0–1) past which a worker takes no further workflow task beyond its minimum (WORKER_TARGET_CPU); 0: fixed slots. */
    workerTargetCpu: number;
    /** A change to a subscription applies to attempts that start at least this long after it (SUBSCRIPTION_CACHE_TTL); 0: at once. */
    subscriptionCacheTtlMs: number;
    /** Longest a paused subscription's deliveries are held, from its pause (SUBSCRIPTION_HOLD_MAX); then they fail as `hold_expired`. */
    holdMaxMs: number;
    /** Local address every outgoing POST is bound to (DELIVERY_SOURCE_ADDRESS), so receivers can allow-list it; unset: the system chooses. */
    sourceAddress: string | undefined;
    /** HTTP CONNECT proxy every delivery, token request and alert POST goes through (DELIVERY_PROXY_URL); unset: straight out. */
    proxy: DeliveryProxy | undefined;
    /** What deliveries link to and how large they grow: `data.url`'s origin (see {@link apiOrigin}) and WEBHOOK_INLINE_LIMIT. */
    payloads: PayloadOptions;
  };
  /** Deletion of old attempts and events by the `webhook-retention` Temporal Schedule. */
  retention: {
    /** Attempts and events older than this many days are deleted; undefined (RETENTION_DAYS=off): kept forever, no schedule. */
    days: number | undefined;
    /** How often the schedule starts a pass. */
    intervalMs: number;
    /** Documents one find-and-delete round handles at most. */
    batchSize: number;
    /** Share of its time a pass spends deleting: it rests between rounds for the rest. */
    busyShare: number;
  };
}

/**
 * Parses and validates the environment once, failing fast with the variable's name.
 * Entry points call this; nothing else reads `process.env`.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env, isTerminal = process.stdout.isTTY === true): Config {
  const parsed = refinedEnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (isTerminal ? 'pretty' : 'json'),
    http: { host: e.HOST, port: e.PORT },
    mongo: {
      uri: e.MONGODB_URI,
      connectUri: e.MONGODB_URI ?? `mongodb://127.0.0.1:${e.MONGO_PORT}/`,
      dbName: e.MONGODB_DB,
      embeddedPort: e.MONGO_PORT,
    },
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      connectAddress: e.TEMPORAL_ADDRESS ?? `127.0.0.1:${e.TEMPORAL_PORT}`,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      embeddedPort: e.TEMPORAL_PORT,
      uiPort: e.TEMPORAL_UI_PORT,
    },
    api: {
      adminApiKey: e.ADMIN_API_KEY,
      allowPrivateCallbacks: e.CALLBACK_ALLOW_PRIVATE,
      deliveryWorker: e.API_DELIVERY_WORKER,
      maxSubscriptionsPerOwner: e.MAX_SUBSCRIPTIONS_PER_OWNER,
      subscriptionCacheTtlMs: e.SUBSCRIPTION_CACHE_TTL,
      validateResponses:
        e.VALIDATE_RESPONSES === undefined ? e.NODE_ENV !== 'production' : ['true', '1'].includes(e.VALIDATE_RESPONSES),
      bodyLimit: e.REQUEST_BODY_LIMIT,
      shedding: { maxInFlight: e.API_MAX_IN_FLIGHT, maxWaitMs: e.API_MAX_WAIT, bodyTimeoutMs: e.API_BODY_TIMEOUT, maxBodiesPerPeer: e.API_MAX_BODIES_PER_PEER, perOwner: e.API_OWNER_CONCURRENCY },
      connections: { maxPerPeer: e.API_MAX_CONNECTIONS_PER_PEER, maxConnections: e.API_MAX_CONNECTIONS },
      rateLimit: { enabled: e.RATE_LIMIT_ENABLED, policies: e.RATE_LIMITS! },
      portal: {
        publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
        sessionSecret: e.PORTAL_SESSION_SECRET,
        temporalUiUrl: e.TEMPORAL_UI_URL?.replace(/\/$/, '') ?? (e.TEMPORAL_ADDRESS ? undefined : `http://localhost:${e.TEMPORAL_UI_PORT}`),
      },
    },
    metrics: { enabled: e.METRICS_ENABLED, token: e.METRICS_TOKEN, workerPort: e.METRICS_ENABLED ? e.WORKER_METRICS_PORT : 0, dbCommands: e.METRICS_ENABLED && e.DB_COMMAND_METRICS },
    tracing: tracingConfig(e),
    secretKeys: { current: e.SECRET_ENCRYPTION_KEY, previous: e.SECRET_ENCRYPTION_KEYS },
    delivery: {
      policy: { scheduleMs: e.DELIVERY_RETRY_SCHEDULE, maxAttempts: e.DELIVERY_MAX_ATTEMPTS, jitterRatio: e.DELIVERY_JITTER },
      batchSize: e.DELIVERY_BATCH_SIZE,
      timeoutMs: e.DELIVERY_TIMEOUT,
      alertUrl: e.ADMIN_ALERT_URL,
      alertSecret: e.ADMIN_ALERT_SECRET,
      alertsPerOwnerPerHour: e.ADMIN_ALERTS_PER_OWNER_PER_HOUR,
      relayIntervalMs: e.RELAY_INTERVAL,
      disableAfterMs: e.ENDPOINT_DISABLE_AFTER,
      maxInFlight: e.DELIVERY_MAX_IN_FLIGHT,
      fairShare: { ratePerSecond: e.OWNER_FAIR_RATE, burst: e.OWNER_FAIR_BURST, bulkConcurrency: e.BULK_LANE_CONCURRENCY, bulkStartsPerSecond: e.BULK_LANE_START_RATE },
      workerTargetCpu: e.WORKER_TARGET_CPU,
      subscriptionCacheTtlMs: e.SUBSCRIPTION_CACHE_TTL,
      holdMaxMs: holdMaxMs(e) ?? DEFAULT_HOLD_MAX_MS,
      sourceAddress: e.DELIVERY_SOURCE_ADDRESS,
      proxy: e.DELIVERY_PROXY_URL,
      payloads: { apiUrl: apiOrigin(e.PUBLIC_URL, e.HOST, e.PORT), inlineLimit: e.WEBHOOK_INLINE_LIMIT },
    },
    retention: { days: e.RETENTION_DAYS, intervalMs: e.RETENTION_INTERVAL, batchSize: e.RETENTION_BATCH_SIZE, busyShare: e.RETENTION_BUSY_SHARE },
  };
}

/** Where traces go: nowhere unless an OTLP endpoint is configured (the standard OTEL_* variables). */
export type TracingConfig = { enabled: false } | { enabled: true; serviceName: string; url: string };

function tracingConfig(e: Env): TracingConfig {
  const exporter = e.OTEL_TRACES_EXPORTER ?? 'otlp';
  const url = e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (e.OTEL_EXPORTER_OTLP_ENDPOINT ? `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, '')}/v1/traces` : undefined);
  if (e.OTEL_SDK_DISABLED || exporter !== 'otlp' || !url) return { enabled: false };
  return { enabled: true, serviceName: e.OTEL_SERVICE_NAME, url };
}

