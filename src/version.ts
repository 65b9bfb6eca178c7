/** The service's version (the contract's `info.version`). */
export const serviceVersion = '1.3.0';

/** Sent as the User-Agent of every delivery, so receivers can recognise and allow-list us. */
export const userAgent = `WebhookService/${serviceVersion} (+https://github.com/webhook-service)`;
