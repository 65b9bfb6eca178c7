// The receiver kit: verify deliveries, drop duplicates, acknowledge fast.
export { verify, WebhookVerificationError, type HeaderSource, type VerifyOptions } from './verify';
export { webhookReceiver, type Dedupe, type ReceivedEvent, type ReceiverOptions } from './middleware';
export { sourceAllowlist, type SourceOptions, type TrustProxy } from './sources';
export { MemoryIdempotencyStore, MongoIdempotencyStore, type IdempotencyStore } from './idempotency';
