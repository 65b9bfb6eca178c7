import express, { type RequestHandler, Router } from 'express';
import type { Db } from 'mongodb';
import type { Envelope } from '../webhooks/envelopes';
import { type IdempotencyStore, MongoIdempotencyStore } from './idempotency';
import { type SourceOptions, sourceAllowlist } from './sources';
import { verify, type VerifyOptions, WebhookVerificationError } from './verify';

/**
 * A verified delivery: the contract's envelope of the subscription's version (v1 or v2) for one
 * event type. Narrow on `event` to get that type's `data`.
 */
export type ReceivedEvent = Envelope;

/**
 * How repeats are recognised (the sender retries, so one event can arrive more than once): a
 * database (`db`, the default store: {@link MongoIdempotencyStore}), a store of your own, or
 * explicitly none (`dedupe: false`: every delivery is processed, repeats included).
 */
export type Dedupe = { db: Db; store?: never; dedupe?: true } | { store: IdempotencyStore; db?: never; dedupe?: true } | { dedupe: false; db?: never; store?: never };

export type ReceiverOptions = VerifyOptions & Dedupe & ReceiverHandlers & SourceOptions;

interface ReceiverHandlers {
  /** The subscription's secret (`whsec_`) or public key (`whpk_`, an ed25519 subscription), or both during a rotation. */
  secret: string | readonly string[];
  /** Processes a verified, first-seen event, after the 200 was sent. */
  handle: (event: ReceivedEvent) => Promise<void>;
  /** Told about processing failures (the event is released for a redelivery). */
  onError?: (err: unknown, event: ReceivedEvent) => void;
}

/**
 * Express middleware for a webhook endpoint: with `allowedSources`, answers 403 before reading
 * anything from a sender outside them (see {@link SourceOptions}); reads the raw body, answers 401 and processes
 * nothing unless the timestamped signature verifies (see {@link VerifyOptions.scheme}),
 * acknowledges duplicates without reprocessing, and acknowledges at once, processing
 * asynchronously (senders expect an answer within 5 s).
 */
export function webhookReceiver(opts: ReceiverOptions): Router {
  const store: IdempotencyStore | undefined = opts.store ?? (opts.db ? new MongoIdempotencyStore(opts.db) : undefined);
  if (!store && opts.dedupe !== false) throw new TypeError('webhookReceiver needs db (repeats are recognised in MongoDB) or store; dedupe: false processes repeats too');
  if (opts.trustProxy && !opts.allowedSources) throw new TypeError('trustProxy only tells allowedSources where a delivery came from: set allowedSources too');
  // Before the body parser: a refused sender's body is never read.
  const sources: RequestHandler[] = opts.allowedSources ? [sourceAllowlist(opts)] : [];
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
    if (store && !(await store.claim(event.id))) {
      res.status(200).json({ received: true, duplicate: true });
      return;
    }
    res.status(200).json({ received: true });
    setImmediate(() => {
      opts.handle(event).catch(async (err: unknown) => {
        opts.onError?.(err, event);
        await store?.release(event.id);
      });
    });
  };
  // The signature covers the exact bytes sent, so the body must stay raw.
  router.post('/', ...sources, express.raw({ type: () => true, limit: '1mb' }), handler);
  return router;
}
