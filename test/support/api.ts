import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { ActivityDeps } from '../../activities';
import { BrokerPools } from '../../activities/broker-pools';
import { inject } from 'vitest';
import type { Principal } from '../../src/auth/api-keys';
import type { Scope } from '../../src/auth/scopes';
import { createClient, type WebhookServiceClient } from '../../src/client';
import { type Config, loadConfig } from '../../src/config/config';
import { prepareDatabase } from '../../src/db/indexes';
import { createMongo, type Mongo } from '../../src/db/mongo';
import { DispatchNotes } from '../../src/events/dispatch-notes';
import type { EventDispatcher } from '../../src/events/dispatcher';
import type { OutboxFlusher } from '../../src/events/outbox';
import type { RelayDeps } from '../../src/events/relay';
import type { EventRepository } from '../../src/events/repository';
import { createApp, type AppDeps } from '../../src/http/app';
import type { OpenApiDocument } from '../../src/contract/openapi';
import { createLogger } from '../../src/logger';
import { type PortalGrant, PortalSessions } from '../../src/portal/sessions';
import { portalSigningKey } from '../../src/portal/signing-key';
import { createAppDeps } from '../../src/compose/app-deps';
import { relayDeps } from '../../src/compose/shared';
import type { ApiMetrics } from '../../src/telemetry/metrics';
import type { Tracing } from '../../src/telemetry/tracing';
import { TemporalGateway } from '../../src/temporal/connection';
import { NativeConnection, createLaneWorkers } from '../../src/worker/create-worker';

/** The API running in-process on a free port, over the real test database and Temporal. */
export interface TestApi {
  baseUrl: string;
  config: Config;
  deps: AppDeps;
  mongo: Mongo;
  temporal: TemporalGateway;
  dispatcher: EventDispatcher;
  /** The event log the dispatcher writes. */
  events: EventRepository;
  /** The dispatch notes (what the relay would start). */
  notes: DispatchNotes;
  /** What a relay pass over this database needs: `relayOnce(api.relay, opts)`, as the worker's relay runs it. */
  relay: RelayDeps;
  /** A typed client authenticated with a fresh key of `scopes`, owned by `ownerId`. */
  clientWith(scopes: Scope[], ownerId?: string): Promise<{ client: WebhookServiceClient; key: string; principal: Principal }>;
  /** A client with no key at all. */
  anonymous(): WebhookServiceClient;
  /** A portal session token signed with this API's key that expired: an hour-long link handed out yesterday. */
  expiredPortalToken(ownerId: string, opts?: { admin?: boolean }): Promise<string>;
  /** Stops the API and drops its database, unless another test API shares it (`keepDatabase`). */
  close(opts?: { keepDatabase?: boolean }): Promise<void>;
}

/** An outbox that announces, withdraws and flushes nothing: tests that look at stored outboxes as written. */
export const inertOutbox: OutboxFlusher = {
  announce: () => Promise.resolve(),
  announcePlanned: () => Promise.resolve(),
  readdress: () => Promise.resolve(),
  withdraw: () => Promise.resolve(),
  flush: () => Promise.resolve(),
};

/**
 * Starts the app on a private database and task queue (one per test file) with response
 * validation on, so every response in every test is checked against the contract.
 */
export async function startTestApi(
  env: Record<string, string> = {},
  opts: { outbox?: OutboxFlusher; metrics?: ApiMetrics; tracing?: Tracing; contract?: OpenApiDocument } = {},
): Promise<TestApi> {
  const config = loadConfig({
    CALLBACK_ALLOW_PRIVATE: 'true',
    VALIDATE_RESPONSES: 'true',
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    MONGODB_URI: inject('mongoUri'),
    MONGODB_DB: `test_${randomUUID().slice(0, 8)}`,
    TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    // A change to a subscription applies at once: tests change one and deliver right after (subscription-cache.test.ts covers the TTL).
    SUBSCRIPTION_CACHE_TTL: '0',
    ...env,
  });
  const { tracing, contract, ...rest } = opts;
  const mongo = createMongo(config.mongo.connectUri, config.mongo.dbName, 'api-test', tracing?.tracer, rest.metrics?.dbCommands);
  await prepareDatabase(mongo.db);
  const temporal = new TemporalGateway(config.temporal.connectAddress, config.temporal.namespace, { traced: tracing !== undefined });
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', 'test');
  const deps = createAppDeps({ db: mongo.db, temporal, logger, config, ...rest, ...(tracing ? { tracer: tracing.tracer } : {}) });
  const server: Server = createApp({ ...deps, contract }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { dispatcher, events } = deps.deliveries;
  // Its own instance for the relay and the tests: only the dispatcher batches removals, so both see the same notes.
  const notes = new DispatchNotes(mongo.db);
  return {
    baseUrl,
    config,
    deps,
    mongo,
    temporal,
    dispatcher,
    events,
    notes,
    relay: relayDeps(mongo.db, { dispatcher, events, notes }, logger),
    async clientWith(scopes, ownerId = 'owner-a') {
      const { key, principal } = await deps.apiKeys.create({ ownerId, name: 'test', scopes });
      return { client: createClient({ baseUrl, apiKey: key }), key, principal };
    },
    anonymous: () => createClient({ baseUrl }),
    async expiredPortalToken(ownerId, opts = {}) {
      const issuedYesterday = new PortalSessions(() => portalSigningKey(mongo.db, config.api.portal.sessionSecret, deps.subscriptions.secrets), { now: () => new Date(Date.now() - 86_400_000) });
      const grants: PortalGrant[] = ['webhooks:read', 'webhooks:write', ...(opts.admin ? (['alerts:read'] as const) : [])];
      return (await issuedYesterday.issue({ ownerId, keyId: 'key_expired', grants, admin: opts.admin ?? false, expiresInSeconds: 3600 })).token;
    },
    async close({ keepDatabase = false } = {}) {
      await new Promise((r) => server.close(r));
      await dispatcher.drain();
      if (!keepDatabase) await mongo.db.dropDatabase();
      await Promise.all([mongo.close(), temporal.close()]);
    },
  };
}

export interface TestWorker {
  stop(): Promise<void>;
}

/** Runs the real worker in-process on the test API's database and task queue (both lanes); `overrides` replace its activities' dependencies (e.g. a flaky database). */
export async function startTestWorker(api: TestApi, overrides: Partial<ActivityDeps> = {}, tracing?: Tracing): Promise<TestWorker> {
  const connection = await NativeConnection.connect({ address: api.config.temporal.connectAddress });
  // As the worker process does: one set of broker connections, closed once the worker stopped.
  const brokers = overrides.brokers ?? new BrokerPools();
  const workers = await createLaneWorkers({
    connection,
    namespace: api.config.temporal.namespace,
    taskQueue: api.config.temporal.taskQueue,
    bulkConcurrency: api.config.delivery.fairShare.bulkConcurrency,
    targetCpu: api.config.delivery.workerTargetCpu,
    tracing,
    deps: {
      db: api.mongo.db,
      workerIdentity: 'test-worker',
      allowPrivate: true,
      timeoutMs: api.config.delivery.timeoutMs,
      sourceAddress: api.config.delivery.sourceAddress,
      proxy: api.config.delivery.proxy,
      // Links point at this test API, which listens on a free port rather than PORT.
      payloads: { ...api.config.delivery.payloads, apiUrl: api.config.api.portal.publicUrl ?? api.baseUrl },
      userAgent: 'WebhookService/test',
      alertUrl: api.config.delivery.alertUrl,
      alertSecret: api.config.delivery.alertSecret,
      alertsPerOwnerPerHour: api.config.delivery.alertsPerOwnerPerHour,
      disableAfterMs: api.config.delivery.disableAfterMs,
      maxInFlight: api.config.delivery.maxInFlight,
      subscriptionCacheTtlMs: api.config.delivery.subscriptionCacheTtlMs,
      holdMaxMs: api.config.delivery.holdMaxMs,
      secretBox: api.deps.subscriptions.secrets,
      ...overrides,
      brokers,
    },
  });
  const running = Promise.all(workers.map((w) => w.run()));
  return {
    async stop() {
      for (const w of workers) w.shutdown();
      await running;
      await brokers.close();
      await connection.close();
    },
  };
}
