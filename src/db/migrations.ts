import type { Db } from 'mongodb';
import type { DispatchNote } from '../events/dispatcher';
import type { OutboxEvent } from '../events/outbox';
import { orderKey } from '../resources/repository';
import { insertIfAbsent } from './insert-if-absent';

/** A one-time change to stored data; `run` must be safe to re-run after a crash part-way. */
interface Migration {
  id: string;
  run(db: Db): Promise<void>;
}

interface MigrationDoc {
  _id: string;
  applied_at: Date;
}

/** An order as stored before string keys: the number was the `_id`, and there was no `id`. */
interface LegacyOrderDoc {
  _id: number | string;
  id?: number;
  outbox?: OutboxEvent[];
  [field: string]: unknown;
}

/** An event as logged before dispatch notes. */
interface LegacyEventDoc {
  _id: string;
  dispatch_state?: 'pending' | 'dispatched';
}

const migrations: Migration[] = [
  {
    // Orders moved to string `_id`s and the relay to dispatch notes (FerretDB v1 scans for
    // integer ids and unindexed fields): rekey old orders and give undispatched events notes.
    id: '2026-11-orders-string-keys-and-dispatch-notes',
    async run(db) {
      const orders = db.collection<LegacyOrderDoc>('orders');
      const notes = db.collection<DispatchNote>('dispatch_notes');
      for (const doc of await orders.find({ id: { $exists: false } }).toArray()) {
        if (typeof doc._id !== 'number') continue;
        const key = orderKey(doc._id);
        // Notes first, as the API does before a write: a crash here leaves the events findable.
        for (const event of doc.outbox ?? []) {
          await notes.updateOne({ _id: event.id }, { $set: { source: { collection: 'orders', id: doc._id }, created_at: new Date() } }, { upsert: true });
        }
        // Copy, then delete the original: re-running after a crash between the two finishes the move.
        await insertIfAbsent(orders, { ...doc, _id: key, id: doc._id });
        await orders.deleteOne({ _id: doc._id });
      }
      // Before notes, events carried dispatch_state until their workflow had started.
      const pending = await db.collection<LegacyEventDoc>('events').find({ dispatch_state: 'pending' }, { projection: { _id: 1 } }).toArray();
      for (const event of pending) await notes.updateOne({ _id: event._id }, { $setOnInsert: { created_at: new Date() } }, { upsert: true });
    },
  },
];

/**
 * Runs the migrations not yet recorded in `migrations`, in order, and records each. Every
 * process runs this at start; running it concurrently is safe (each step is idempotent).
 * Returns the ids it applied.
 */
export async function runMigrations(db: Db): Promise<string[]> {
  const done = db.collection<MigrationDoc>('migrations');
  const applied: string[] = [];
  for (const m of migrations) {
    if (await done.findOne({ _id: m.id })) continue;
    await m.run(db);
    await insertIfAbsent(done, { _id: m.id, applied_at: new Date() });
    applied.push(m.id);
  }
  return applied;
}
