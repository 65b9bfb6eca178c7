/**
 * Seeds the fuzzed service with data Schemathesis can reach: the run keeps
 * CALLBACK_ALLOW_PRIVATE=false, so it can never create a subscription through the API itself.
 * Writes, owned by the bootstrap admin key's owner (`admin`):
 *  - one subscription in each status (active, paused, disabled), for `webhook.test` only;
 *  - one logged, already dispatched `webhook.test` event targeting them (for redeliver);
 * and, owned by another owner (invisible to the admin key), one active subscription to the
 * order events, so the orders Schemathesis creates fan out to a subscriber.
 * All callback URLs are loopback: the worker refuses to deliver to them (`blocked`), so nothing
 * leaves the machine. It prints libFuzzer dictionaries of the admin's ids, which
 * schemathesis.toml mixes into the generated `subscription_id` and `event_id` parameters.
 *
 * The order subscription is kept away from the admin key on purpose: recovering a subscription
 * restarts each failed event one after the other inside the request (recoverFailed in
 * src/deliveries/use-cases.ts), ~85 ms per event here, so after a hundred fuzzed orders a
 * recover call outlasts the request timeout. That is reported; it is not this run's subject.
 *
 * Usage: tsx tools/schemathesis/seed.ts <mongodb uri> <database> <output dir>
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMongo } from '../../src/db/mongo';
import { newId } from '../../src/db/ids';
import { EventRepository } from '../../src/events/repository';
import type { SubscriptionStatus } from '../../src/http/schemas';
import { type SubscriptionDoc, SubscriptionRepository } from '../../src/subscriptions/repository';
import { generateSigningSecret } from '../../src/subscriptions/secrets';

const [uri, dbName, outDir] = process.argv.slice(2);
if (!uri || !dbName || !outDir) {
  console.error('usage: tsx tools/schemathesis/seed.ts <mongodb uri> <database> <output dir>');
  process.exit(2);
}

const owner = 'admin';
const mongo = createMongo(uri, dbName, 'schemathesis-seed');
try {
  const subscriptions = new SubscriptionRepository(mongo.db);
  const now = new Date();
  const seeded: SubscriptionDoc[] = (['active', 'paused', 'disabled'] as SubscriptionStatus[]).map((status, i) => ({
    _id: newId('sub'),
    owner_id: owner,
    url: `http://127.0.0.1:9/fuzz/${status}`,
    events: ['webhook.test'],
    status,
    version: i === 1 ? 2 : 1,
    description: `schemathesis seed (${status})`,
    secrets: [{ secret: generateSigningSecret(), created_at: now }],
    created_at: now,
    updated_at: now,
    ...(status === 'disabled' ? { disabled_reason: 'seeded as disabled' } : {}),
  }));
  for (const doc of seeded) await subscriptions.insert(doc);
  await subscriptions.insert({
    _id: newId('sub'),
    owner_id: 'schemathesis-order-listener',
    url: 'http://127.0.0.1:9/fuzz/orders',
    events: ['order.created', 'order.updated'],
    status: 'active',
    version: 2,
    secrets: [{ secret: generateSigningSecret(), created_at: now }],
    created_at: now,
    updated_at: now,
  });

  const eventId = newId('evt');
  await new EventRepository(mongo.db).insertOnce({
    _id: eventId,
    type: 'webhook.test',
    data: { message: 'schemathesis seed', subscription_id: seeded[0]!._id },
    created_at: now,
    owner_id: owner,
    subscription_ids: seeded.map((s) => s._id),
    // Already dispatched: the relay leaves it alone; only an explicit redeliver starts a delivery.
  });

  mkdirSync(outDir, { recursive: true });
  const dict = (ids: string[]) => `${ids.map((id) => `"${id}"`).join('\n')}\n`;
  writeFileSync(join(outDir, 'subscription-ids.dict'), dict(seeded.map((s) => s._id)));
  writeFileSync(join(outDir, 'event-ids.dict'), dict([eventId]));
  console.log(`seeded subscriptions ${seeded.map((s) => `${s._id} (${s.status})`).join(', ')} and event ${eventId}`);
} finally {
  await mongo.close();
}
