import type { Collection, Db } from 'mongodb';
import { insertIfAbsent } from '../db/insert-if-absent';

/** Remembers processed event ids, so a repeated delivery is acknowledged but not reprocessed. */
export interface IdempotencyStore {
  /** True the first time `eventId` is claimed, false for every repeat. */
  claim(eventId: string): Promise<boolean>;
  /** Forgets a claim whose processing failed, so a retry processes it again. */
  release(eventId: string): Promise<void>;
}

/** In-process store; for tests and single-process receivers. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly seen = new Set<string>();
  claim(eventId: string): Promise<boolean> {
    if (this.seen.has(eventId)) return Promise.resolve(false);
    this.seen.add(eventId);
    return Promise.resolve(true);
  }
  release(eventId: string): Promise<void> {
    this.seen.delete(eventId);
    return Promise.resolve();
  }
}

/** The default store: the event id is the document `_id`, so MongoDB's unique index decides. */
export class MongoIdempotencyStore implements IdempotencyStore {
  private readonly collection: Collection<{ _id: string; received_at: Date }>;

  constructor(db: Db, collectionName = 'received_webhooks') {
    this.collection = db.collection(collectionName);
  }

  claim(eventId: string): Promise<boolean> {
    return insertIfAbsent(this.collection, { _id: eventId, received_at: new Date() });
  }

  async release(eventId: string): Promise<void> {
    await this.collection.deleteOne({ _id: eventId });
  }
}
