import { type Db, MongoBulkWriteError, MongoServerError } from 'mongodb';

type Doc = { _id: string } & Record<string, unknown>;

/** Thrown where a test crashes the process: nothing after it runs. */
export class Crash extends Error {}

const matches = (doc: Doc, filter: Record<string, unknown>) => Object.entries(filter).every(([k, v]) => (v instanceof Date ? (doc[k] as Date)?.getTime() === v.getTime() : doc[k] === v));
const duplicate = () => new MongoServerError({ message: 'E11000 duplicate key', code: 11000 });

/**
 * A fake Db over in-memory collections: the equality reads and the writes the held repository
 * makes. `before(op)` runs before each command (`<collection>.<method>`): it may crash there, or
 * make another writer's commands land there.
 */
export function fakeDb() {
  const data = new Map<string, Map<string, Doc>>();
  const hooks: { before: (op: string) => Promise<void> | void } = { before: () => {} };
  const ops: string[] = [];
  const of = (name: string) => data.get(name) ?? data.set(name, new Map()).get(name)!;
  const run = async (name: string, op: string) => {
    ops.push(`${name}.${op}`);
    await hooks.before(`${name}.${op}`);
  };
  const collection = (name: string) => {
    const docs = of(name);
    const found = (filter: Record<string, unknown>) => [...docs.values()].filter((d) => matches(d, filter)).map((d) => structuredClone(d));
    return {
      collectionName: name,
      find: (filter: Record<string, unknown>) => ({ toArray: async () => (await run(name, 'find'), found(filter)) }),
      findOne: async (filter: Record<string, unknown>) => (await run(name, 'findOne'), found(filter)[0] ?? null),
      countDocuments: async (filter: Record<string, unknown>) => (await run(name, 'countDocuments'), found(filter).length),
      insertOne: async (doc: Doc) => {
        await run(name, 'insertOne');
        if (docs.has(doc._id)) throw duplicate();
        docs.set(doc._id, structuredClone(doc));
        return { acknowledged: true, insertedId: doc._id };
      },
      insertMany: async (many: Doc[]) => {
        await run(name, 'insertMany');
        // As FerretDB v1: the batch stops at its first duplicate, and nothing is said of the rest.
        const index = many.findIndex((d) => docs.has(d._id));
        for (const d of index < 0 ? many : many.slice(0, index)) docs.set(d._id, structuredClone(d));
        if (index >= 0) throw new MongoBulkWriteError({ message: 'dup', code: 11000, writeErrors: [{ code: 11000, index, errmsg: 'E11000' }] as never }, { insertedCount: index } as never);
        return { acknowledged: true, insertedCount: many.length };
      },
      // As FerretDB v1: the document is read, then written whole (`updateOne.write`), so another writer may land between.
      updateOne: async (filter: { _id: string }, update: { $min: Record<string, Date> }, opts: { upsert?: boolean }) => {
        await run(name, 'updateOne');
        const read = docs.get(filter._id);
        const doc = read ? structuredClone(read) : opts.upsert ? { _id: filter._id } : undefined;
        for (const [k, v] of Object.entries(update.$min ?? {})) if (doc && (doc[k] === undefined || v < (doc[k] as Date))) doc[k] = v;
        await run(name, 'updateOne.write');
        if (doc) docs.set(doc._id, doc);
        return { matchedCount: doc ? 1 : 0 };
      },
      deleteOne: async (filter: Record<string, unknown>) => {
        await run(name, 'deleteOne');
        const d = found(filter)[0];
        if (d) docs.delete(d._id);
        return { deletedCount: d ? 1 : 0 };
      },
      deleteMany: async (filter: Record<string, unknown>) => {
        await run(name, 'deleteMany');
        const gone = found(filter);
        for (const d of gone) docs.delete(d._id);
        return { deletedCount: gone.length };
      },
    };
  };
  const db = { collection } as unknown as Db;
  return { db, data, hooks, ops, of };
}
