/**
 * The one module through which the harness, the bench, the soak and the chaos run reach past the
 * service's public surfaces (HTTP API, metrics, Temporal client). Everything else drives the
 * service over HTTP or reads what it wrote through these: when a refactor moves one of them, this
 * file is the only one to follow it. ESLint holds the line (eslint.config.js, stack/ and bench/).
 */

// Starting the stack and its clients: the launcher, the configuration, the Temporal client.
export { type Config, envSchema, loadConfig } from '../../src/config/config';
export { parseDuration } from '../../src/config/durations';
export { describeRateLimits } from '../../src/config/rate-limits';
export { TemporalGateway } from '../../src/temporal/connection';

// Seeding: the schema, demo data, an API key, sealed secrets, and the soak's bulk documents in the service's shapes.
export { ADMIN_OWNER, ApiKeyRepository } from '../../src/auth/api-keys';
export { prepareDatabase } from '../../src/db/indexes';
export { createMongo } from '../../src/db/mongo';
export { newId } from '../../src/db/ids';
export { seedDemoData } from '../../src/seed/seed';
export { demoProducts } from '../../src/seed/demo-data';
export { SecretBox } from '../../src/subscriptions/secret-box';
export { generateSigningSecret } from '../../src/subscriptions/secrets';
export type { SubscriptionDoc } from '../../src/subscriptions/repository';
export { newOutboxEvent } from '../../src/events/outbox';
export { createdEventData, orderTotal } from '../../src/orders/rules';
export { type AttemptLogEntry, toAttemptDoc } from '../../activities/attempt';

// Accounting: what became of each order, event and delivery, read from the database and Temporal.
export { type CounterDoc, type OrderDoc, OrderRepository, orderKey, type UserDoc } from '../../src/orders/repository';
export { type EventDoc, EventRepository } from '../../src/events/repository';
export type { DispatchNote } from '../../src/events/dispatch-notes';
export { type AttemptDoc, type AttemptFilter, AttemptRepository } from '../../src/deliveries/attempts';
export { drainWorkflowId, eventWorkflowId, heldDeliveryWorkflowId, seriesId } from '../../workflows/ids';
export type { HeldDoc } from '../../src/deliveries/held';
export { retentionScheduleId } from '../../src/retention/schedule';
export type { RetentionResult } from '../../workflows/retention';
export { eventSearchAttributes } from '../../workflows/search-attributes';

// The in-process baseline: what one delivery costs without the service around it.
export { postWebhook } from '../../activities/http-post';
export { renderEnvelope } from '../../src/webhooks/envelopes';
export { signatureHeaders } from '../../src/webhooks/signature';
