import type { Db } from 'mongodb';
import { type AttemptDoc, AttemptRepository, attemptId } from '../src/deliveries/attempts';
import { EventRepository } from '../src/events/repository';
import { type SubscriptionDoc, SubscriptionRepository } from '../src/subscriptions/repository';
import { FailingStreaks, type FailingSubscription } from '../src/subscriptions/failing-streaks';
import { openHeaders } from '../src/subscriptions/custom-headers';
import { openAuth } from '../src/subscriptions/outgoing-auth';
import { ackDeadlineMs, type OpenedBroker, type OpenedKafka, type OpenedNats, type OpenedRedis, type OpenedSqs, openDestination } from '../src/subscriptions/destination';
import { SecretBox } from '../src/subscriptions/secret-box';
import { retryOverride } from '../src/subscriptions/retry-schedule';
import { type PayloadOptions, renderEnvelope } from '../src/webhooks/envelopes';
import { signatureHeaders } from '../src/webhooks/signature';
import { type WorkerMetrics, statusClass } from '../src/telemetry/metrics';
import type { AttemptInput, AttemptResult, MadeAttempt } from '../workflows/delivery-model';
import type { AttemptLogEntry } from '../workflows/log-entries';
import type { CarriedEvent } from '../workflows/definitions';
import type { EventType } from '../src/contract/types';
import type { Tracer } from '@opentelemetry/api';
import { withTimeout } from '../src/lib/timing';
import { type CachedEvent, createEventCache, DEFAULT_EVENT_READ_TIMEOUT_MS } from './event-cache';
import { InFlight } from './in-flight';
import { type DeliveredRound, deliverRoundWith, type RoundInput } from './deliver-round';
import { Context, log } from '@temporalio/activity';
import { groupCommit } from './group-commit';
import { SubscriptionCache } from './subscription-cache';
import { DeliveryRate } from '../src/deliveries/delivery-rate';
import { poster } from './traced-post';
import type { Publish } from './rabbitmq-publish';
import type { NatsPublish } from './nats-publish';
import type { RedisPublish } from './redis-publish';
import type { SqsSend } from './sqs-send';
import type { BrokerMessage } from './broker-message';
import type { Produce } from './kafka-produce';
import { BrokerPools } from './broker-pools';
import { orderingKey } from '../src/webhooks/ordering-key';
import type { DeliveryProxy, PostRequest, PostResult } from './http-post';
import { createTokenCache, type OAuthClient } from './oauth-token';
import { authorizationSecrets, redactSecrets } from './redact';
import { storableText } from '../src/db/storable-text';
import { InboxRepository } from '../src/deliveries/inbox';
import { pullAttempt } from './pull-inbox';
import { eventGoneAttempt, type HeldDoc, HeldDeliveryRepository, heldId, heldSlot, isHeldDeliveryRun } from '../src/deliveries/held';
import { DEFAULT_HOLD_MAX_MS, holdsAt } from '../src/subscriptions/hold';

/** Grouped attempt-log writes in flight at once: FerretDB inserts a write's documents one by one, and rounds queued behind a single writer. */
const LOG_WRITES_IN_FLIGHT = 3;

/** What the attempt activities touch; tests inject their own. */
export interface AttemptActivityDeps {
  db: Db;
  /** Allow loopback/private callback targets (local development and tests only). */
  allowPrivate: boolean;
  /** Hard timeout of one POST, in ms. */
  timeoutMs: number;
  /** Local address every POST leaves from (DELIVERY_SOURCE_ADDRESS); absent: the system chooses. */
  sourceAddress?: string | undefined;
  /** HTTP CONNECT proxy every POST (and token request) goes through (DELIVERY_PROXY_URL); absent: none. */
  proxy?: DeliveryProxy | undefined;
  userAgent: string;
  /** The origin of `data.url` (PUBLIC_URL) and WEBHOOK_INLINE_LIMIT: each body is rendered with them at delivery time. */
  payloads: PayloadOptions;
  now?: () => Date;
  /** Sends one POST; postWebhook unless a test injects its own. */
  post?: (req: PostRequest) => Promise<PostResult>;
  /** This worker's broker connections, which its owner closes once the worker stopped (absent: pools of their own, never closed but when idle). */
  brokers?: BrokerPools | undefined;
  /** Publishes to a RabbitMQ destination; `brokers` unless a test injects its own. */
  publish?: Publish;
  /** Publishes to a NATS JetStream destination; `brokers` unless a test injects its own. */
  publishNats?: NatsPublish;
  /** Adds to a Redis Streams destination; `brokers` unless a test injects its own. */
  publishRedis?: RedisPublish;
  /** Produces to a Kafka destination; `brokers` unless a test injects its own. */
  produce?: Produce;
  /** Sends to an SQS destination; `brokers` unless a test injects its own. */
  sendSqs?: SqsSend;
  /** Most events kept in the per-worker event cache (default 4096). */
  eventCacheEntries?: number;
  /** Counts logged attempts and finished deliveries (absent: not counted). */
  metrics?: WorkerMetrics | undefined;
  /** Traces each POST and sends `traceparent` (absent: no tracing). */
  tracer?: Tracer | undefined;
  /** Opens the stored signing secrets (absent: they are stored in plaintext). */
  secretBox?: SecretBox | undefined;
  /** A subscription whose every attempt failed for this long is reported for disabling (absent or 0: never). */
  disableAfterMs?: number | undefined;
  /** POSTs this worker sends to one subscription at once, unless it sets `max_in_flight` (absent or 0: no bound). */
  maxInFlight?: number | undefined;
  /**
   * The bulk lane's task queue: its rounds wait up to `timeoutMs` (at most 30 s) for a max_in_flight slot instead of
   * putting the attempt off, so a flood queues in Temporal rather than waking again and again.
   */
  bulkTaskQueue?: string | undefined;
  /** How long a read subscription is used for later rounds (SUBSCRIPTION_CACHE_TTL; absent or 0: each round reads). */
  subscriptionCacheTtlMs?: number | undefined;
  /** Longest a paused subscription holds deliveries, from its pause (SUBSCRIPTION_HOLD_MAX; absent: its default). */
  holdMaxMs?: number | undefined;
}

export type { AttemptInput, AttemptResult, MadeAttempt } from '../workflows/delivery-model';
export type { AttemptLogEntry } from '../workflows/log-entries';
export type { DeliveredRound, RoundInput } from './deliver-round';

/** The event of a round as its workflow's input carries it (see CarriedEvent), with the workflow's subscriptions. */
export interface RoundEvent extends CarriedEvent {
  id: string;
  type: string;
  subscriptionIds: string[];
}

/** The workflow whose round this activity runs (a pull report wakes it); undefined when called outside an activity (tests). */
function runningWorkflow(): string | undefined {
  try {
    return Context.current().info.workflowExecution?.workflowId;
  } catch {
    return undefined;
  }
}

/** Longest a bulk-lane round waits for a max_in_flight slot: with a POST's longest timeout (60 s) it stays within the local activity's 2 minutes. */
const MAX_SLOT_WAIT_MS = 30_000;

/** Whether this activity runs for a workflow on `bulkTaskQueue`; false outside an activity (tests). */
function onBulkLane(bulkTaskQueue: string | undefined): boolean {
  if (bulkTaskQueue === undefined) return false;
  try {
    return Context.current().info.taskQueue === bulkTaskQueue;
  } catch {
    return false;
  }
}

/** A carried event as the cache holds a read one. */
function fromCarried(e: RoundEvent): CachedEvent {
  return {
    _id: e.id,
    type: e.type as EventType,
    data: e.data,
    created_at: new Date(e.createdAt),
    subscription_ids: e.subscriptionIds,
    ...(e.ownerId !== undefined ? { owner_id: e.ownerId } : {}),
    ...(e.dataOwner !== undefined ? { data_owner: e.dataOwner } : {}),
  };
}

/** What logging a round found: subscriptions whose every attempt failed for longer than allowed, still active. */
export interface RecordedRound {
  failing: FailingSubscription[];
}

/** The log document of an entry. */
export function toAttemptDoc(entry: AttemptLogEntry): AttemptDoc {
  const r = entry.result;
  return {
    _id: attemptId(entry.series, entry.attempt),
    event_id: entry.eventId,
    subscription_id: entry.subscriptionId,
    series: entry.series,
    attempt: entry.attempt,
    started_at: new Date(r.startedAt),
    duration_ms: r.durationMs,
    outcome: r.outcome,
    // Receiver text as the database can hold it: results logged before they were cleaned pass here too.
    ...('statusCode' in r ? { status_code: r.statusCode, response_excerpt: storableText(r.responseExcerpt) } : { error: storableText(r.error) }),
    url: storableText(r.url),
    ...(entry.nextAttemptAt !== undefined ? { next_attempt_at: new Date(entry.nextAttemptAt) } : {}),
    state: entry.state,
    ...(entry.maxAttempts !== undefined ? { max_attempts: entry.maxAttempts } : {}),
    ...(entry.waitReason ? { wait_reason: entry.waitReason } : {}),
    ...(entry.held ? { held: entry.held.map((h) => ({ reason: h.reason, from: new Date(h.from), until: new Date(h.until), times: h.times })) } : {}),
  };
}

/** The record of `input`'s delivery held for the paused subscription by the run `origin`. */
function heldDoc(event: CachedEvent, input: AttemptInput, origin: string, at: Date): HeldDoc {
  return {
    _id: heldId(input.subscriptionId, event._id, origin),
    subscription_id: input.subscriptionId,
    event_id: event._id,
    event_type: event.type,
    emitted_at: event.created_at,
    held_at: at,
    origin,
    attempt: input.attempt,
    slot: heldSlot(input.subscriptionId, event.created_at).id,
  };
}

/** Builds the activities of one attempt: the signed POST, and the log of settled attempts. */
export function createAttemptActivities(deps: AttemptActivityDeps) {
  const eventLog = new EventRepository(deps.db);
  // Logged events never change: the deliveries of one event read it once per worker.
  const events = createEventCache((id) => eventLog.find(id), deps.eventCacheEntries);
  const subscriptions = new SubscriptionRepository(deps.db);
  const attempts = new AttemptRepository(deps.db);
  const inbox = new InboxRepository(deps.db);
  // Rounds of many workflows logging at once share one insert.
  const recordMany = groupCommit((docs: AttemptDoc[]) => attempts.recordMany(docs), LOG_WRITES_IN_FLIGHT);
  const heldDeliveries = new HeldDeliveryRepository(deps.db);
  // Held deliveries of concurrent rounds go in one write too, as their log entries do.
  const holdMany = groupCommit((docs: HeldDoc[]) => heldDeliveries.hold(docs).then(() => new Set<number>()), LOG_WRITES_IN_FLIGHT);
  const holdMaxMs = deps.holdMaxMs ?? DEFAULT_HOLD_MAX_MS;
  const now = () => deps.now?.() ?? new Date();
  const box = deps.secretBox ?? new SecretBox(undefined);
  const post = poster(deps);
  // Each kind's pool is made on its first delivery: a worker that only POSTs never opens (or loads) a broker client.
  const brokers = deps.brokers ?? new BrokerPools();
  const publish: Publish = deps.publish ?? brokers.publish;
  const publishNats: NatsPublish = deps.publishNats ?? brokers.publishNats;
  const publishRedis: RedisPublish = deps.publishRedis ?? brokers.publishRedis;
  const produce: Produce = deps.produce ?? brokers.produce;
  const sendSqs: SqsSend = deps.sendSqs ?? brokers.sendSqs;
  const inFlight = new InFlight();
  // Shared by every worker through the database; touched only for subscriptions that set rate_limit.
  const rates = new DeliveryRate(deps.db, () => now().getTime());
  const streaks = new FailingStreaks(subscriptions, deps.disableAfterMs ?? 0, now);
  const subscriptionCache = new SubscriptionCache(deps.subscriptionCacheTtlMs ?? 0, () => now().getTime());
  // Reads in flight by subscription: rounds that miss the cache while one is read wait for that read.
  const reading = new Map<string, Promise<SubscriptionDoc | undefined>>();
  // OAuth 2.0 tokens of the subscriptions that use them, kept per worker until shortly before they expire.
  const tokens = createTokenCache({ post, timeoutMs: deps.timeoutMs, allowPrivate: deps.allowPrivate, sourceAddress: deps.sourceAddress, proxy: deps.proxy, userAgent: deps.userAgent });

  /**
   * The subscriptions of a round as they are now, or as read less than SUBSCRIPTION_CACHE_TTL ago;
   * the rest read together per event: when they are most of the event's fan-out, its owner's
   * subscriptions to the type in one read.
   */
  async function readSubscriptions(inputs: readonly AttemptInput[], roundEvents: ReadonlyMap<string, CachedEvent | undefined>, drained: boolean): Promise<Map<string, SubscriptionDoc>> {
    const found = new Map<string, SubscriptionDoc>();
    const byEvent = new Map<string, string[]>();
    const joined: Array<Promise<void>> = [];
    for (const i of inputs) {
      const cached = subscriptionCache.get(i.subscriptionId);
      // A paused one too (SubscriptionCache's rule), except in a drain's delivery: it runs only once resumed, and held again it would go behind the drain's cursor.
      if (cached && !(drained && cached.doc?.status === 'paused')) {
        if (cached.doc) found.set(i.subscriptionId, cached.doc);
        continue;
      }
      const inFlight = reading.get(i.subscriptionId);
      if (inFlight) {
        joined.push(inFlight.then((doc) => void (doc && found.set(i.subscriptionId, doc))));
        continue;
      }
      const ids = byEvent.get(i.eventId);
      if (ids) ids.push(i.subscriptionId);
      else byEvent.set(i.eventId, [i.subscriptionId]);
    }
    const reads = [...byEvent].map(([eventId, ids]) => {
      const read = readForEvent(eventId, ids, roundEvents.get(eventId));
      if (subscriptionCache.enabled) for (const id of ids) share(id, read);
      return read;
    });
    // Awaited together: a failed read or wait rejects this round once, and leaves nothing unhandled.
    const [parts] = await Promise.all([Promise.all(reads), Promise.all(joined)]);
    for (const part of parts) for (const [id, doc] of part) found.set(id, doc);
    return found;
  }

  /** Reads the subscriptions `ids` of one event's round and keeps what it found in the cache. */
  async function readForEvent(eventId: string, ids: string[], event: CachedEvent | undefined): Promise<Map<string, SubscriptionDoc>> {
    const owner = event?.data_owner ?? event?.owner_id;
    // A retry round of a few out of a large fan-out reads them by id rather than the owner's whole set.
    const likely = event && owner !== undefined && ids.length * 2 >= event.subscription_ids.length ? { ownerId: owner, type: event.type } : undefined;
    const readAt = now().getTime();
    const read = await withTimeout(subscriptions.findRoundForDelivery(ids, likely), DEFAULT_EVENT_READ_TIMEOUT_MS, `reading the subscriptions of event ${eventId}`);
    for (const id of ids) {
      const doc = read.get(id);
      // Only a fresh read tells the streaks what is stored: a cached copy predates the streak writes since.
      if (doc) streaks.seen(doc);
      subscriptionCache.set(id, doc, readAt);
    }
    return read;
  }

  /** Lets rounds that miss the cache while `read` runs wait for it for `id` instead of reading too. */
  function share(id: string, read: Promise<Map<string, SubscriptionDoc>>): void {
    const doc = read.then((found) => found.get(id));
    reading.set(id, doc);
    const done = () => {
      if (reading.get(id) === doc) reading.delete(id);
    };
    // Handles a failed read here too: the rounds waiting on it get its error, and nobody else must.
    doc.then(done, done);
  }

  /** One attempt's POST, ready to send, from the round's reads; or why none is made. */
  function prepare(event: CachedEvent | undefined, sub: SubscriptionDoc | undefined, input: AttemptInput, origin: string | undefined, runner: string | undefined): (() => Promise<AttemptResult>) | AttemptResult {
    if (!event) return { outcome: 'skipped', reason: 'event not found' };
    if (!sub) return { outcome: 'skipped', reason: 'subscription deleted' };
    if (sub.status !== 'active') return { outcome: 'skipped', reason: `subscription ${sub.status}` };
    // Opened here, with the reads: a secret that cannot be opened fails the round before any POST.
    const stored = sub.secrets.map((s) => ({ ...s, secret: box.open(s.secret, sub._id) }));
    // Absent on most subscriptions: nothing opened, nothing copied.
    const custom = sub.headers?.length ? openHeaders(box, sub._id, sub.headers) : undefined;
    const auth = sub.auth ? openAuth(box, sub._id, sub.auth) : undefined;
    const destination = sub.destination ? openDestination(box, sub._id, sub.destination) : undefined;
    const limit = sub.max_in_flight ?? deps.maxInFlight ?? 0;
    // Read with the subscription for this attempt: the workflow settles the attempt by it.
    const retry = sub.retry ? { retry: retryOverride(sub.retry) } : {};
    // Credentials a receiver may echo back: never kept in the readable excerpt.
    const credentials = [
      ...Object.values(custom ?? {}),
      ...(auth?.type === 'static' ? authorizationSecrets(auth.authorization) : auth ? [auth.clientSecret] : []),
      ...(destination?.type === 'rabbitmq' ? [destination.password] : []),
      ...(destination?.type === 'nats' || destination?.type === 'redis' ? [destination.password, destination.token].filter((c) => c !== undefined) : []),
      ...(destination?.type === 'kafka' && destination.sasl ? [destination.sasl.password] : []),
      ...(destination?.type === 'sqs' ? [destination.accessKeyId, destination.secretAccessKey] : []),
    ];
    const cleaned = (r: PostResult, tokens: readonly string[] = []): PostResult => {
      const secrets = [...credentials, ...tokens.flatMap((t) => authorizationSecrets(`Bearer ${t}`))];
      return 'statusCode' in r ? { ...r, responseExcerpt: storableText(redactSecrets(r.responseExcerpt, secrets)) } : { ...r, error: storableText(redactSecrets(r.error, secrets)) };
    };
    // An ordered subscription is told each event's key: what its events are in order by.
    const ordered = sub.ordering === 'per_key' ? { 'webhook-ordering-key': orderingKey(event) } : undefined;
    /** The envelope and its headers as signed at `at`. */
    const render = (at: Date) => {
      const secrets = stored.filter((s) => !s.expires_at || s.expires_at > at).map((s) => s.secret);
      // Rendered per attempt (url and size limit applied here, never stored): what is signed is what is sent.
      const body = renderEnvelope(sub.version, { id: event._id, type: event.type, data: event.data, created_at: event.created_at }, deps.payloads);
      // The subscription's own headers first: what the service sets (and signs) always wins.
      const signed = signatureHeaders({ id: event._id, timestamp: Math.floor(at.getTime() / 1000), body, secrets });
      return { body, signed, headers: { ...custom, 'Content-Type': 'application/json', 'User-Agent': deps.userAgent, ...ordered, ...signed } };
    };
    // The consumer reads at its own pace: max_in_flight and rate_limit are for what the service sends.
    if (destination?.type === 'pull') {
      return () => {
        const at = now();
        // Without the custom headers: their values are sealed credentials, and the inbox keeps messages in the clear.
        const message = () => {
          const { body, signed } = render(at);
          return { body, headers: { 'Content-Type': 'application/json', ...signed } };
        };
        // Run beside other subscribers' POSTs: a failure here defers this attempt rather than retry the round (and re-send them).
        return pullAttempt(inbox, { subscriptionId: sub._id, eventId: event._id, attempt: input.attempt, origin, runner, url: sub.url, retry, now: at, render: message, ackDeadlineMs: ackDeadlineMs(destination) }).catch(
          (err: unknown): AttemptResult => ({ outcome: 'deferred', reason: `pull inbox unavailable: ${String(err)}`, waitMs: 1000, hold: 'pull_outcome' }),
        );
      };
    }
    const send = async (): Promise<MadeAttempt> => {
      const at = now();
      const { body, signed, headers } = render(at);
      if (destination) {
        // The same body and signature headers, as message headers; content type and id go where each broker carries them.
        const message: BrokerMessage = {
          subscriptionId: sub._id,
          url: sub.url,
          messageId: event._id,
          body,
          headers: { ...custom, ...ordered, ...signed },
          timeoutMs: deps.timeoutMs,
          allowPrivate: deps.allowPrivate,
          sourceAddress: deps.sourceAddress,
          proxied: deps.proxy !== undefined,
        };
        return { ...cleaned(await publishTo(destination, message, event)), url: sub.url, ...retry };
      }
      const request = (h: Record<string, string>) => post({ url: sub.url, body, headers: h, timeoutMs: deps.timeoutMs, allowPrivate: deps.allowPrivate, sourceAddress: deps.sourceAddress, proxy: deps.proxy });
      if (!auth) return { ...cleaned(await request(headers)), url: sub.url, ...retry };
      if (auth.type === 'static') return { ...cleaned(await request({ ...headers, Authorization: auth.authorization })), url: sub.url, ...retry };
      const sent: string[] = [];
      const result = await withToken(auth, at.getTime(), (token) => {
        sent.push(token);
        return request({ ...headers, Authorization: `Bearer ${token}` });
      });
      return { ...cleaned(result, sent), url: sub.url, ...retry };
    };
    const rate = sub.rate_limit;
    return async () => {
      // Taken (or handed over by a release) in the same tick as the POST starts: no other round can slip in between.
      if (!(await inFlight.takeWithin(sub._id, limit, onBulkLane(deps.bulkTaskQueue) ? Math.min(deps.timeoutMs, MAX_SLOT_WAIT_MS) : 0))) {
        return { outcome: 'deferred', reason: `${limit} POSTs to this subscription in flight (max_in_flight)` };
      }
      try {
        if (rate !== undefined) {
          // A limiter that cannot answer puts the attempt off rather than fail the round: other POSTs of it may have gone already.
          const slot = await rates.take(sub._id, rate).catch((err: unknown) => ({ taken: false as const, waitMs: 1000, error: String(err) }));
          if (!slot.taken) {
            const reason = 'error' in slot ? `rate limiter unavailable: ${slot.error}` : `${rate} deliveries per second to this subscription (rate_limit)`;
            return { outcome: 'deferred', reason, waitMs: slot.waitMs };
          }
        }
        return await send();
      } finally {
        inFlight.release(sub._id);
      }
    };
  }

  /** Publishes one attempt's message to a broker destination, by its kind. */
  function publishTo(destination: OpenedBroker | OpenedKafka | OpenedNats | OpenedRedis | OpenedSqs, message: BrokerMessage, event: Parameters<typeof orderingKey>[0]): Promise<PostResult> {
    switch (destination.type) {
      case 'kafka':
        // Keyed by the event's resource: one order's events go to one partition, in order.
        return produce({ ...message, brokers: destination.brokers, sasl: destination.sasl, topic: destination.topic, key: orderingKey(event) });
      case 'rabbitmq':
        return publish({ ...message, username: destination.username, password: destination.password, exchange: destination.exchange, routingKey: destination.routingKey });
      case 'nats':
        return publishNats({ ...message, subject: destination.subject, credentials: { username: destination.username, password: destination.password, token: destination.token } });
      case 'redis':
        return publishRedis({ ...message, stream: destination.stream, maxlen: destination.maxlen, credentials: { username: destination.username, password: destination.password } });
      case 'sqs':
        // A FIFO queue groups by the event's resource, as Kafka keys by it.
        return sendSqs({ ...message, region: destination.region, accessKeyId: destination.accessKeyId, secretAccessKey: destination.secretAccessKey, groupId: orderingKey(event) });
    }
  }

  /**
   * One POST with an OAuth 2.0 token: fetched (or kept) first, and on a 401 from the receiver
   * replaced once and the POST sent once more. A token endpoint's failure is the attempt's error,
   * a network error retried like any other. The attempt's time covers the token requests.
   */
  async function withToken(client: OAuthClient, startedAt: number, send: (token: string) => Promise<PostResult>): Promise<PostResult> {
    const t0 = performance.now();
    const timed = (r: PostResult): PostResult => ({ ...r, startedAt, durationMs: Math.round(performance.now() - t0) });
    const first = await tokens.get(client);
    if (!first.ok) return timed({ startedAt, durationMs: 0, outcome: 'network_error', error: first.error });
    const result = await send(first.token);
    if (!('statusCode' in result) || result.statusCode !== 401) return timed(result);
    const fresh = await tokens.refresh(client, first.token);
    if (!fresh.ok) return timed({ startedAt, durationMs: 0, outcome: 'network_error', error: `${fresh.error} (refreshing after the receiver's 401)` });
    return timed(await send(fresh.token));
  }

  /** Counts attempts as they are logged: each once, however often the log write is retried. */
  async function countAttempts(logged: readonly AttemptLogEntry[]): Promise<void> {
    const m = deps.metrics;
    if (!m) return;
    for (const { result, state, eventId, firstOfEvent } of logged) {
      m.attempts.inc({ outcome: result.outcome, status_class: statusClass('statusCode' in result ? result.statusCode : undefined) });
      m.attemptDuration.observe({ outcome: result.outcome }, result.durationMs / 1000);
      if (state !== 'retrying') m.deliveriesFinished.inc({ state });
      if (state === 'failed') m.deliveriesExhausted.inc();
      // How long the event waited for its first attempt; a redelivery's attempt 1 says nothing of that.
      if (firstOfEvent) {
        const event = await events.get(eventId).catch(() => undefined);
        if (event) m.firstAttemptLag.observe(Math.max(0, result.startedAt - event.created_at.getTime()) / 1000);
      }
    }
  }

  /**
   * One round of attempts, concurrently: each reads its subscription as it is now, or as read
   * less than SUBSCRIPTION_CACHE_TTL ago (a changed URL or rotated secret applies to attempts
   * starting that long after the change), renders its envelope version, signs and
   * POSTs. HTTP outcomes are values for the workflow to settle. Every read happens before any
   * POST, so an infrastructure failure (the database) throws before anything was sent and a
   * retry of the activity sends nothing twice.
   */
  async function postAttempts(inputs: AttemptInput[], carried?: RoundEvent, origin?: string): Promise<AttemptResult[]> {
    // The event the workflow's input carries is not read; it is kept for this worker's later needs of it (metrics).
    const given = carried ? fromCarried(carried) : undefined;
    if (given) events.put(given);
    const ids = [...new Set(inputs.map((i) => i.eventId))];
    const roundEvents = new Map(await Promise.all(ids.map(async (id) => [id, id === given?._id ? given : await events.get(id)] as const)));
    const runner = runningWorkflow();
    const subs = await readSubscriptions(inputs, roundEvents, isHeldDeliveryRun(origin ?? runner));
    const held: HeldDoc[] = [];
    const at = now();
    const prepared = inputs.map((input) => {
      const event = roundEvents.get(input.eventId);
      const sub = subs.get(input.subscriptionId);
      if (!event || !sub || !holdsAt(sub, at.getTime(), holdMaxMs)) return prepare(event, sub, input, origin, runner);
      held.push(heldDoc(event, input, origin ?? runner ?? '', at));
      return { outcome: 'held', reason: `subscription paused: held since ${sub.paused_at!.toISOString()}, sent on resume` } satisfies AttemptResult;
    });
    // Before any POST, like the reads: a failed write fails the round, and its retry sends nothing twice.
    if (held.length > 0) await holdMany(held);
    await logEventGone(inputs, roundEvents, subs, origin ?? runner, at);
    return Promise.all(prepared.map((p) => (typeof p === 'function' ? p() : Promise.resolve(p))));
  }

  /**
   * A drained delivery whose event retention deleted while it was held is logged as a failed
   * attempt saying so (the round still answers `skipped`, which ends it): never a silent cancel.
   */
  async function logEventGone(inputs: AttemptInput[], roundEvents: Map<string, CachedEvent | undefined>, subs: Map<string, SubscriptionDoc>, origin: string | undefined, at: Date): Promise<void> {
    const docs = inputs.filter((i) => !roundEvents.get(i.eventId)).flatMap((i) => eventGoneAttempt(origin, i, subs.get(i.subscriptionId)?.url ?? '', at) ?? []);
    if (docs.length === 0) return;
    log.warn('held delivery drained after its event was deleted; logged as failed', { origin, events: docs.map((d) => d.event_id) });
    await recordMany(docs);
  }

  /**
   * Logs settled attempts in one write, shared with the other rounds logging at that moment; each
   * entry's id derives from its series and attempt number, so a retried call (or a replayed
   * workflow) writes none twice. Then updates each subscription's failure streak and reports
   * those failing for longer than allowed.
   */
  async function recordAttempts(entries: AttemptLogEntry[]): Promise<RecordedRound> {
    if (entries.length === 0) return { failing: [] };
    // Entries already logged by an earlier try are fine (not counted again); anything else throws, for Temporal to retry.
    const earlier = await recordMany(entries.map(toAttemptDoc));
    await countAttempts(entries.filter((_, i) => !earlier.has(i)));
    const failing = await streaks.track(entries.map((e) => ({ subscriptionId: e.subscriptionId, delivered: e.result.outcome === 'delivered', startedAt: e.result.startedAt })));
    return { failing };
  }

  return {
    postAttempts,
    recordAttempts,
    /** A round in one local activity: postAttempts, the delivery rules with the workflow's randoms, recordAttempts (see deliverRoundWith). */
    deliverRound(round: RoundInput): Promise<DeliveredRound> {
      return deliverRoundWith(round, {
        post: postAttempts,
        record: recordAttempts,
        now: () => now().getTime(),
        logFailed: (err) => {
          log.warn('attempt log write failed after the POSTs; the workflow logs the round apart', { eventId: round.eventId, error: String(err) });
        },
      });
    },
  };
}

export type AttemptActivities = ReturnType<typeof createAttemptActivities>;
