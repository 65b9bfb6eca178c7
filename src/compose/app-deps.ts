import type { Tracer } from '@opentelemetry/api';
import type { Db } from 'mongodb';
import { AlertRepository } from '../alerts/repository';
import { ApiKeyRepository } from '../auth/api-keys';
import type { Config } from '../config/config';
import { AttemptRepository } from '../deliveries/attempts';
import type { OutboxFlusher } from '../events/outbox';
import type { AppDeps } from '../http/app';
import type { Logger } from '../logger';
import { knownSecrets } from '../logger-redaction';
import type { ApiMetrics } from '../telemetry/metrics';
import { OrderRepository, ProductRepository, UserRepository } from '../orders/repository';
import { FanoutCache } from '../subscriptions/fanout-cache';
import { SubscriptionRepository } from '../subscriptions/repository';
import { IdempotencyStore } from '../idempotency/store';
import { mongoRateLimiter } from '../request-budgets/limiter';
import type { TemporalGateway } from '../temporal/connection';
import { checkCallbackUrl } from '../webhooks/callback-url';
import { eventCatalog, eventScopes } from '../webhooks/event-catalog';
import { loadContract } from '../contract/openapi';
import { deliverySettings, eventDispatch, inventoryDeps, ownerAdmission, ownerLanes, secretBox } from './shared';
import { PortalRevocations } from '../portal/revocations';
import { PortalSessions } from '../portal/sessions';
import { portalSigningKey } from '../portal/signing-key';
import { pendingAttemptReader } from '../temporal/pending-attempts';
import { deliveryWaker } from '../temporal/wake-delivery';
import { drainStarter } from '../temporal/start-drain';
import { HeldDeliveryRepository } from '../deliveries/held';
import { InboxRepository } from '../deliveries/inbox';

/** The API's dependencies: repositories and use-case dependencies over one database. */
export function createAppDeps(input: {
  db: Db;
  temporal: TemporalGateway;
  logger: Logger;
  config: Pick<Config, 'api' | 'delivery' | 'temporal'> & Partial<Pick<Config, 'metrics' | 'secretKeys'>>;
  /** Overrides the dispatcher as the orders' outbox flusher (tests). */
  outbox?: OutboxFlusher;
  /** The API's metrics, served at /metrics (absent: no /metrics). */
  metrics?: ApiMetrics;
  /** Traces requests (absent: no tracing). */
  tracer?: Tracer;
}): AppDeps {
  const { db, config } = input;
  const allowPrivate = config.api.allowPrivateCallbacks;
  const temporalClient = () => input.temporal.client();
  // This process's subscription writes drop the fan-out cache: it reads its own writes at once.
  const fanout = new FanoutCache(new SubscriptionRepository(db), { ttlMs: config.api.subscriptionCacheTtlMs });
  const subscriptions = new SubscriptionRepository(db, { onFanoutChange: () => fanout.invalidate() });
  const lanes = ownerLanes(config);
  const { dispatcher, events } = eventDispatch(db, {
    fanout,
    temporal: temporalClient,
    settings: { ...deliverySettings(config), eagerStart: input.temporal.native },
    lanes,
    admission: ownerAdmission(config, lanes, input.logger),
    logger: input.logger,
    metrics: input.metrics,
  });
  const box = secretBox(config);
  const revocations = new PortalRevocations(db);
  const orders = new OrderRepository(db);
  const outbox = input.outbox ?? dispatcher;
  const apiKeys = new ApiKeyRepository(db);
  const scopesOfEvents = eventScopes(eventCatalog(loadContract()));
  return {
    db,
    temporal: input.temporal,
    logger: input.logger,
    apiKeys,
    subscriptions: {
      subscriptions,
      secrets: box,
      checkUrl: (raw, schemes) => checkCallbackUrl(raw, { allowPrivate, ...(schemes ? { schemes } : {}) }),
      eventScopes: scopesOfEvents,
      maxPerOwner: config.api.maxSubscriptionsPerOwner,
      retryDefaults: { scheduleMs: config.delivery.policy.scheduleMs, maxAttempts: config.delivery.policy.maxAttempts },
      held: new HeldDeliveryRepository(db),
      startDrain: drainStarter(temporalClient, deliverySettings(config)),
      drainDeferred: (subscriptionId, err) => input.logger.warn({ err, subscriptionId }, 'drain start deferred to the hold sweep'),
    },
    resources: {
      users: new UserRepository(db),
      products: new ProductRepository(db),
      orders,
      inventory: inventoryDeps(db, orders, outbox, input.logger),
      logger: input.logger,
      outbox,
    },
    deliveries: {
      subscriptions,
      attempts: new AttemptRepository(db),
      alerts: new AlertRepository(db),
      events,
      dispatcher,
      eventScopes: scopesOfEvents,
      publicUrl: config.api.portal.publicUrl,
      pendingAttempt: pendingAttemptReader(temporalClient),
    },
    inbox: { subscriptions, inbox: new InboxRepository(db), eventScopes: scopesOfEvents, wake: deliveryWaker(temporalClient) },
    deliverySourceAddress: config.delivery.sourceAddress,
    validateResponses: config.api.validateResponses,
    bodyLimit: config.api.bodyLimit,
    shedding: config.api.shedding,
    metrics: input.metrics,
    metricsToken: config.metrics?.token,
    knownSecrets: knownSecrets([config.api.adminApiKey, config.metrics?.token]),
    tracer: input.tracer,
    idempotency: new IdempotencyStore(db, box),
    rateLimiter: config.api.rateLimit.enabled ? mongoRateLimiter(db, config.api.rateLimit.policies, input.logger) : undefined,
    portal: {
      sessions: new PortalSessions(() => portalSigningKey(db, config.api.portal.sessionSecret, box), {
        revokedBefore: (owner) => revocations.revokedBefore(owner),
        keyScopes: (keyId) => apiKeys.currentScopes(keyId),
      }),
      revocations,
      logger: input.logger,
      publicUrl: config.api.portal.publicUrl,
      temporalUiUrl: config.api.portal.temporalUiUrl,
      temporalNamespace: config.temporal.namespace,
    },
  };
}
