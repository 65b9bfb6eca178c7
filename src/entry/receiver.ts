/**
 * Example receiver (`npm run receiver`): verifies each delivery with the receiver kit, drops
 * duplicates through MongoDB's unique index, and prints what arrived. Point a subscription
 * at http://127.0.0.1:4000/webhooks and set RECEIVER_SECRET to its secret (for an ed25519
 * subscription, its `whpk_` public key; the `secret` of the creation answer is either).
 */
import express from 'express';
import { z } from 'zod';
import { createMongo } from '../db/mongo';
import { createLogger } from '../logger';
import { webhookReceiver } from '../receiver';
import { runUntilSignal } from './shutdown';

const env = z
  .object({
    RECEIVER_PORT: z.coerce.number().int().min(1).max(65535).default(4000),
    RECEIVER_SECRET: z.string().regex(/^(whsec_|whpk_)/, 'must be the subscription secret (whsec_...) or an ed25519 subscription\'s public key (whpk_...)'),
    RECEIVER_PREVIOUS_SECRET: z.string().regex(/^(whsec_|whpk_)/).optional(),
    MONGODB_URI: z.string().default('mongodb://127.0.0.1:27017/'),
  })
  .safeParse(process.env);
if (!env.success) {
  console.error(`Invalid receiver configuration:\n${env.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  process.exit(1);
}
const { RECEIVER_PORT, RECEIVER_SECRET, RECEIVER_PREVIOUS_SECRET, MONGODB_URI } = env.data;
const logger = createLogger('info', 'receiver');
const mongo = createMongo(MONGODB_URI, 'webhook_receiver', 'webhook-receiver-example');

const app = express();
app.use(
  '/webhooks',
  webhookReceiver({
    secret: RECEIVER_PREVIOUS_SECRET ? [RECEIVER_SECRET, RECEIVER_PREVIOUS_SECRET] : RECEIVER_SECRET,
    db: mongo.db,
    handle: (event) => {
      // A real receiver would enqueue the work here; the example prints the verified envelope.
      console.log(`verified ${event.event} ${event.id}: ${JSON.stringify(event)}`);
      return Promise.resolve();
    },
    onError: (err, event) => logger.error({ err, eventId: event.id }, 'processing failed'),
  }),
);
const server = app.listen(RECEIVER_PORT, '127.0.0.1', () => {
  logger.info(`example receiver listening on http://127.0.0.1:${RECEIVER_PORT}/webhooks`);
});
await runUntilSignal(logger, async () => {
  await new Promise((r) => server.close(r));
  await mongo.close();
});
