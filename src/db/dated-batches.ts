import type { Collection } from 'mongodb';

/** What retention needs of a repository whose documents age by one date field. */
export interface DatedBatches {
  /** Up to `limit` of the oldest documents dated before `before`, oldest first (date, then id). */
  oldestBefore(before: Date, limit: number): Promise<Array<{ _id: string; at: unknown }>>;
  /** Deletes the documents dated before `last`, and those of `tied` (dated `last`); how many it deleted. */
  deleteThrough(last: Date, tied: readonly string[]): Promise<number>;
}

/** The retention queries over `field` of `collection`, for its repository to expose (see src/retention/purge.ts). */
export function datedBatches<T extends { _id: string }>(collection: Collection<T>, field: keyof T & string): DatedBatches {
  const dated = collection as unknown as Collection<{ _id: string } & Record<string, unknown>>;
  return {
    async oldestBefore(before, limit) {
      const rows = await dated
        .find({ [field]: { $lt: before } }, { projection: { _id: 1, [field]: 1 } })
        .sort({ [field]: 1, _id: 1 })
        .limit(limit)
        .toArray();
      return rows.map((r) => ({ _id: r._id, at: r[field] }));
    },
    async deleteThrough(last, tied) {
      return (await dated.deleteMany({ $or: [{ [field]: { $lt: last } }, { _id: { $in: [...tied] } }] })).deletedCount;
    },
  };
}

