/** Sent as the User-Agent of every delivery, so receivers can recognise and allow-list us. */
export const userAgent = 'WebhookService/1.0.0 (+https://github.com/webhook-service)';
