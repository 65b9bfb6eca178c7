import type { Db } from 'mongodb';

/**
 * Creates the indexes every query relies on; idempotent, run by each process at start.
 * Only index kinds FerretDB v1 supports (single and compound, unique).
 */
export async function ensureIndexes(db: Db): Promise<void> {
  await Promise.all([
    db.collection('api_keys').createIndex({ hash: 1 }, { unique: true, name: 'hash_unique' }),
    db.collection('subscriptions').createIndex({ owner_id: 1, _id: -1 }, { name: 'owner_newest' }),
    db.collection('subscriptions').createIndex({ events: 1, status: 1 }, { name: 'fanout' }),
    db.collection('orders').createIndex({ user_id: 1, date: -1 }, { name: 'user_newest' }),
    db.collection('products').createIndex({ category: 1 }, { name: 'category' }),
    db.collection('products').createIndex({ sku: 1 }, { unique: true, name: 'sku_unique' }),
    db.collection('stock').createIndex({ product_id: 1 }, { unique: true, name: 'product_unique' }),
    // rate-limiter-flexible's upsert counts on it to keep one counter per key (see src/rate-limit).
    db.collection('rate_limits').createIndex({ key: 1 }, { unique: true, name: 'key_unique' }),
    // A subscription's attempts, newest first (listing, statistics).
    db.collection('attempts').createIndex({ subscription_id: 1, started_at: -1 }, { name: 'subscription_newest' }),
    // Retention finds what has aged past its cutoff by these dates.
    db.collection('attempts').createIndex({ started_at: 1 }, { name: 'started_at' }),
    db.collection('events').createIndex({ created_at: 1 }, { name: 'created_at' }),
  ]);
}

/** What every process does to its database at start. */
export async function prepareDatabase(db: Db): Promise<void> {
  await ensureIndexes(db);
}
