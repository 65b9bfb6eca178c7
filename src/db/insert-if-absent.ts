import { type Collection, type Document, MongoServerError, type OptionalUnlessRequiredId } from 'mongodb';

/**
 * Inserts `doc` unless a document with its `_id` exists; true when this call inserted it.
 * A plain insert with the duplicate-key error ignored, not an upsert with `$setOnInsert`:
 * FerretDB v1 silently drops empty arrays from `$setOnInsert`.
 */
export async function insertIfAbsent<T extends Document>(collection: Collection<T>, doc: OptionalUnlessRequiredId<T>): Promise<boolean> {
  try {
    await collection.insertOne(doc);
    return true;
  } catch (err) {
    if (err instanceof MongoServerError && err.code === 11000) return false;
    throw err;
  }
}
