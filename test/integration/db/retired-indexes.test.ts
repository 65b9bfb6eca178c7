import { type Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { prepareDatabase, retiredIndexes } from '../../../src/db/indexes';

let client: MongoClient;
let db: Db;
beforeAll(() => {
  client = new MongoClient(inject('mongoUri'));
  db = client.db(`retired_${Date.now()}`);
});
afterAll(async () => {
  await db.dropDatabase();
  await client.close();
});

describe('indexes earlier versions made', () => {
  it('are dropped at start, by processes starting together, and the declared ones stay', async () => {
    // As a database of the previous version has them.
    await db.collection('attempts').createIndex({ subscription_id: 1, started_at: -1 }, { name: 'subscription_newest' });
    await db.collection('attempts').createIndex({ started_at: 1 }, { name: 'started_at' });
    await db.collection('events').createIndex({ created_at: 1 }, { name: 'created_at' });
    await db.collection('orders').createIndex({ user_id: 1, date: -1 }, { name: 'user_newest' });

    await Promise.all([prepareDatabase(db), prepareDatabase(db)]);

    for (const collection of ['attempts', 'events', 'orders']) {
      const names = (await db.collection(collection).indexes()).map((i) => i.name);
      for (const retired of retiredIndexes.filter((r) => r.collection === collection)) expect(names, collection).not.toContain(retired.name);
      expect(names, collection).toContain('timeline');
    }
    await prepareDatabase(db);
  });
});
