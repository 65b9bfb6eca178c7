// The receiver side of the package: signature verification and the payload types, without the HTTP client.
// Everything here is the service's own code and generated types, re-exported (tsup bundles them into dist/).
import type { webhooks } from '../../../generated/api';

export type { webhooks };
export { verify, WebhookVerificationError, type HeaderSource, type VerifyOptions } from '../../../src/receiver/verify';
export type { Envelope, EnvelopeByVersion, EnvelopeV1, EnvelopeV2, EventData } from '../../../src/webhooks/envelopes';
export type { AlertNotification, EventType, SubscriptionDisabledNotification, SubscriptionVersion } from '../../../src/contract/types';

/**
 * The JSON body the service POSTs for one webhook of the contract, by its name in `webhooks`:
 * `'order.created'` (v1 envelope), `'order.created.v2'`, `'webhook.test'`, `'admin.alert'`, ...
 *
 * @example
 * const event = verify<WebhookPayload<'order.created.v2'>>(rawBody, req.headers, secret);
 */
export type WebhookPayload<Name extends keyof webhooks> = webhooks[Name]['post']['requestBody']['content']['application/json'];
