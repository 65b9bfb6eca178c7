import express, { type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Db } from 'mongodb';
import { pinoHttp } from 'pino-http';
import type { ApiKeyRepository } from '../auth/api-keys';
import type { DeliveryDeps } from '../deliveries/use-cases';
import type { InboxDeps } from '../deliveries/inbox-use-cases';
import { checkReadiness } from '../health/readiness';
import type { Logger } from '../logger';
import { redactRequest } from '../logger-redaction';
import type { ResourceDeps } from '../orders/use-cases';
import type { SubscriptionDeps } from '../subscriptions/use-cases';
import { eventCatalog, signatureSchemes } from '../webhooks/event-catalog';
import { webhookMeta } from '../webhooks/source-addresses';
import { loadContract, type OpenApiDocument } from '../contract/openapi';
import { withClosedResponses } from '../contract/strict-responses';
import { deprecationHeaders, subscribeRoutes, versionDeprecations } from '../webhooks/versions';
import type { ApiMetrics } from '../telemetry/metrics';
import type { Tracer } from '@opentelemetry/api';
import type { IdempotencyStore } from '../idempotency/store';
import { idempotency, idempotentPatchPaths, idempotentPaths } from './idempotency';
import { httpMetrics, metricsEndpoint } from './metrics';
import { httpTracing } from './tracing';
import { loadShedding } from './load-shedding';
import { bodyAdmission } from './body-admission';
import { requestHygiene } from './request-hygiene';
import { memoizeValidatorRoutePatterns } from './validator-route-patterns';
import { errorHandler, notFoundHandler, problem, sendProblem } from './problem';
import { assignRequestId } from './request-id';
import type { Health } from '../contract/types';
import { assertEveryOperationServed, mergeHandlers, type OperationHandlers, routeOperations } from './operations';
import { deliveryHandlers } from './routes/deliveries';
import { inboxHandlers } from './routes/inbox';
import { docsAssets, metaHandlers } from './routes/meta';
import { portalAssets, portalHandlers } from './routes/portal';
import { resourceHandlers } from './routes/resources';
import { subscriptionHandlers } from './routes/subscriptions';
import { apiKeyHandler, type Credentials, ownerOfRequest, portalSessionHandler } from './security';
import { ownerTurns } from './owner-turns';
import type { PortalDeps } from '../portal/use-cases';
import { portalSessionHandlers } from './routes/portal-sessions';
import type { ApiRateLimiter } from '../request-budgets/limiter';

export interface AppDeps {
  db: Db;
  temporal: { ping(timeoutMs?: number): Promise<void> };
  logger: Logger;
  apiKeys: ApiKeyRepository;
  subscriptions: SubscriptionDeps;
  resources: ResourceDeps;
  deliveries: DeliveryDeps;
  /** Pull subscriptions' inboxes. */
  inbox: InboxDeps;
  /** Validate every response against the contract too (tests and development). */
  validateResponses: boolean;
  /** Largest accepted request body; larger ones get 413. */
  bodyLimit?: string;
  /**
   * Admission (absent: no bounds): requests in flight beyond `maxInFlight`, or waiting past `maxWaitMs`, get 503;
   * a body still arriving after `bodyTimeoutMs` (default 10 s) 408; beyond `maxBodiesPerPeer` bodies arriving from one address 429;
   * beyond `perOwner` requests of one owner at once while another owner sends, the next waits its turn.
   */
  shedding?: { maxInFlight: number; maxWaitMs: number; bodyTimeoutMs?: number; maxBodiesPerPeer?: number; perOwner?: number } | undefined;
  /** Served at `GET /metrics`; requests are timed into it. */
  metrics?: ApiMetrics | undefined;
  /** When set, `GET /metrics` requires it as a bearer token. */
  metricsToken?: string | undefined;
  /** Traces requests with it (absent: no tracing, no cost). */
  tracer?: Tracer | undefined;
  /** Configured secrets of no fixed shape (`ADMIN_API_KEY`, `METRICS_TOKEN`) in the forms `knownSecrets` gives: redacted by value from request logs and traces. */
  knownSecrets?: readonly string[] | undefined;
  /** Keeps the responses of requests sent with an Idempotency-Key. */
  idempotency: IdempotencyStore;
  /** Charges each authenticated request to its key's budget (absent: no rate limits). */
  rateLimiter?: ApiRateLimiter | undefined;
  /** Subscriber portal sessions: minted by keys, accepted where the contract lists `portalSession`. */
  portal: PortalDeps;
  /** The address deliveries leave from (DELIVERY_SOURCE_ADDRESS), published at `/api/webhooks/v1/meta`; absent: not fixed. */
  deliverySourceAddress?: string | undefined;
  /** The contract to serve and validate against (absent: openapi/openapi.yaml); tests pass a changed copy, e.g. with a version deprecated. */
  contract?: OpenApiDocument | undefined;
}

/**
 * Request lines (pino-http, all at info) with the request's id. Below info none is ever written,
 * yet pino-http would still build a request-bound child logger, serialising the request, per
 * request: then only the id is assigned.
 */
function requestLogging(logger: Logger, known: readonly string[]): RequestHandler {
  if (!logger.isLevelEnabled('info')) {
    return (req, res, next) => {
      req.id ??= assignRequestId(req, res);
      next();
    };
  }
  // Credentials sent anywhere (a query parameter, an X-API-Key header) are redacted from request lines, not only Authorization.
  return pinoHttp({
    logger,
    genReqId: assignRequestId,
    serializers: { req: (req: Parameters<typeof redactRequest>[0]) => redactRequest(req, known) },
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/metrics' },
  });
}

/**
 * Builds the Express app; entry points and tests inject real or fake dependencies. Every route
 * is a contract operation registered by its operationId, and every operation has a handler.
 */
export function createApp(deps: AppDeps): Express {
  const contract = deps.contract ?? loadContract();
  // Read at start: a contract whose deprecation markers are inconsistent stops the process here.
  const deprecations = versionDeprecations(contract);
  const app = express();
  app.disable('x-powered-by');
  // Every answer is fresh JSON no client revalidates: hashing each body for an ETag is wasted work.
  app.disable('etag');
  if (deps.metrics) app.use(httpMetrics(deps.metrics));
  const known = deps.knownSecrets ?? [];
  const tracing = deps.tracer ? httpTracing(deps.tracer, known) : undefined;
  if (tracing) app.use(tracing.start);
  app.use(requestLogging(deps.logger, known));
  // Scrapers get their own token, not an API key; before the validator like the probes.
  const scrape = deps.metrics ? metricsEndpoint(deps.metrics, deps.metricsToken) : undefined;
  const metricsOperation: OperationHandlers = {
    getMetrics: (_input, req, res, next) =>
      scrape ? scrape(req, res, next) : sendProblem(res, problem(404, 'Metrics Disabled', 'This process serves no metrics (METRICS_ENABLED=false).')),
  };
  app.use(routeOperations(contract, metricsOperation));
  // Slow or piled-up bodies are bounded per peer and in time, before anything reads them.
  const bodies = bodyAdmission({ timeoutMs: deps.shedding?.bodyTimeoutMs ?? 10_000, maxPerPeer: deps.shedding?.maxBodiesPerPeer ?? 0, metrics: deps.metrics });
  app.use(bodies.admit);
  const shedding = loadShedding({ maxInFlight: deps.shedding?.maxInFlight ?? 0, maxWaitMs: deps.shedding?.maxWaitMs ?? 0, metrics: deps.metrics });
  // A deprecated version's subscribe path says so on every response, errors included (RFC 9745, RFC 8594).
  for (const { path, operationId, version } of subscribeRoutes) {
    const deprecation = deprecations.get(version);
    if (!deprecation) continue;
    const headers = deprecationHeaders(deprecation, operationId);
    app.all(path, (_req, res, next) => {
      res.set(headers);
      next();
    });
  }

  // The spec writes POST /api/orders/ with a trailing slash; accept the bare form as the same operation.
  app.use((req, _res, next) => {
    if (req.url === '/api/orders' || req.url.startsWith('/api/orders?')) req.url = req.url.replace('/api/orders', '/api/orders/');
    next();
  });
  app.use(express.json({ limit: deps.bodyLimit ?? '64kb', type: ['application/json', 'application/*+json'] }));
  // Too deep to walk safely, or holding U+0000 the database cannot store: 400 before anything reads it.
  app.use(requestHygiene);
  // Overload: a request takes a place once its body is in, so slow senders hold none; the excess is refused before the key or the database are touched.
  app.use(shedding.admit);
  if (tracing) app.use(tracing.resume);
  app.use(docsAssets());
  // The portal page and its bundle are static files that need no key: outside the validator like the docs.
  app.use(portalAssets());
  const alive: Health = { status: 'ok' };
  const outsideValidator: OperationHandlers = {
    ...portalHandlers(),
    // Liveness: the process is up and its event loop turns; no dependency is touched.
    getHealth: (_input, _req, res) => {
      res.json(alive);
    },
    // Readiness: 503 names the dependency that is down, so orchestrators stop routing here.
    getReadiness: async (_input, _req, res) => {
      const readiness = await checkReadiness({ ...deps, admission: deps.shedding?.maxInFlight ? () => (shedding.saturated() ? 'saturated' : 'open') : undefined });
      res.status(readiness.status === 'ready' ? 200 : 503).json(readiness);
    },
  };
  app.use(routeOperations(contract, outsideValidator));

  const credentials: Credentials = { keys: deps.apiKeys, portal: deps.portal.sessions, limiter: deps.rateLimiter };
  memoizeValidatorRoutePatterns();
  app.use(
    OpenApiValidator.middleware({
      // The validator resolves and annotates the document it is given: hand it a copy.
      apiSpec: (deps.validateResponses ? withClosedResponses(contract) : structuredClone(contract)) as unknown as string,
      validateRequests: { allErrors: true },
      validateResponses: deps.validateResponses ? { onError: undefined } : false,
      validateSecurity: { handlers: { apiKey: apiKeyHandler(credentials), portalSession: portalSessionHandler(credentials) } },
      validateFormats: true,
      ignorePaths: /^\/docs\/assets\//,
      // Match the rewritten URL (bare /api/orders → /api/orders/ above), not req.originalUrl.
      useRequestUrl: true,
    }),
  );

  // One owner's many requests at once wait their turn while another owner sends, so its flood does not slow the others.
  app.use(ownerTurns({ perOwner: deps.shedding?.perOwner ?? 0, ownerOf: ownerOfRequest, metrics: deps.metrics }));
  // Authentication, the rate limit and the owner's turn may have waited: check again before any handler works.
  app.use(shedding.stillWanted);
  // After the validator: a key is only claimed by a valid, authenticated request.
  app.post(idempotentPaths, idempotency(deps.idempotency, deps.logger));
  app.patch(idempotentPatchPaths, idempotency(deps.idempotency, deps.logger));
  const operations = mergeHandlers(
    metaHandlers(contract, eventCatalog(contract), webhookMeta(deps.deliverySourceAddress), signatureSchemes(contract)),
    subscriptionHandlers(deps.subscriptions, deprecations),
    resourceHandlers(deps.resources),
    deliveryHandlers(deps.deliveries),
    inboxHandlers(deps.inbox),
    portalSessionHandlers(deps.portal),
  );
  assertEveryOperationServed(contract, metricsOperation, outsideValidator, operations);
  app.use(routeOperations(contract, operations));

  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger, known));
  return app;
}
