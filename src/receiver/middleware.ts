import express, { type RequestHandler, Router } from 'express';
import type { Envelope } from '../webhooks/envelopes';
import type { IdempotencyStore } from './idempotency';
import { verify, type VerifyOptions, WebhookVerificationError } from './verify';

/**
 * A verified delivery: the contract's envelope of the subscription's version (v1 or v2) for one
 * event type. Narrow on `event` to get that type's `data`.
 */
export type ReceivedEvent = Envelope;

export interface ReceiverOptions extends VerifyOptions {
  /** The subscription's secret, or both during a rotation. */
  secret: string | readonly string[];
  /** Remembers processed ids (default: none, every delivery is processed). */
  store?: IdempotencyStore;
  /** Processes a verified, first-seen event, after the 200 was sent. */
  handle: (event: ReceivedEvent) => Promise<void>;
  /** Told about processing failures (the event is released for a redelivery). */
  onError?: (err: unknown, event: ReceivedEvent) => void;
}

/**
 * Express middleware for a webhook endpoint: reads the raw body, answers 401 and processes
 * nothing when the signature is wrong, acknowledges duplicates without reprocessing, and
 * acknowledges at once, processing asynchronously (senders expect an answer within 5 s).
 */
export function webhookReceiver(opts: ReceiverOptions): Router {
  const router = Router();
  const handler: RequestHandler = async (req, res) => {
    let event: ReceivedEvent;
    try {
      event = verify<ReceivedEvent>(req.body as Buffer, req.headers, opts.secret, opts);
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      res.status(401).type('application/problem+json').json({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: err.message });
      return;
    }
    if (opts.store && !(await opts.store.claim(event.id))) {
      res.status(200).json({ received: true, duplicate: true });
      return;
    }
    res.status(200).json({ received: true });
    setImmediate(() => {
      opts.handle(event).catch(async (err: unknown) => {
        opts.onError?.(err, event);
        await opts.store?.release(event.id);
      });
    });
  };
  // The signature covers the exact bytes sent, so the body must stay raw.
  router.post('/', express.raw({ type: () => true, limit: '1mb' }), handler);
  return router;
}
