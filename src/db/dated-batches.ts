import type { Collection } from 'mongodb';
import type { QueryShape } from './query-shapes';

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

/** The shapes of `datedBatches` queries on `field` of `collection`, listed by the repository exposing them as `owner.aged`. */
export function datedBatchShapes(collection: string, owner: string, field: string, index: string): QueryShape[] {
  return [
    {
      collection,
      method: `${owner}.aged.oldestBefore`,
      equality: [],
      range: [field],
      sort: { [field]: 1, _id: 1 },
      unindexed: `the ${index} index orders by ${field}; the _id tie-break is sorted in memory over every match`,
    },
    { collection, method: `${owner}.aged.deleteThrough`, equality: [], range: [field, '_id'], index },
  ];
}
