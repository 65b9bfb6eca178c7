/** One index key direction: ascending or descending. */
export type Direction = 1 | -1;

/** An index a repository's queries need, created by `ensureIndexes` (src/db/indexes.ts). */
export interface IndexSpec {
  collection: string;
  /** The index name as stored: existing data directories already have it under this name. */
  name: string;
  /** Keys in order (object order is the index order). */
  key: Readonly<Record<string, Direction>>;
  unique?: boolean;
}

/**
 * What one repository method asks the database: the fields it compares by equality (`x: v`; a
 * `x: {$in: [...]}` is listed here too for the index, but FerretDB v1 pushes only a plain
 * top-level equality down, so such a read is filtered in FerretDB over what the rest selects), and the sort. Checked against the declared indexes by
 * test/unit/db/query-shapes.test.ts: the equality fields then the sort must be a prefix of one.
 * An insert is listed with the unique key it relies on (`_id`, or a unique index's keys).
 */
export interface QueryShape {
  collection: string;
  /** `Repository.method`, as the code names it. */
  method: string;
  equality: readonly string[];
  /** Equality fields only some calls add (an optional filter); the index need not cover them. */
  optional?: readonly string[];
  /** Fields bounded otherwise ($lt, $gte, $ne, $exists, $or...): documentation only. */
  range?: readonly string[];
  sort?: Readonly<Record<string, Direction>>;
  /** The index expected to serve it; `_id_` is the one every collection has. */
  index?: string;
  /** Why no declared index serves it fully: a known gap, stated instead of an index. */
  unindexed?: string;
}

/** The index MongoDB keeps on `_id` of every collection. */
export function idIndex(collection: string): IndexSpec {
  return { collection, name: '_id_', key: { _id: 1 }, unique: true };
}

/** What a repository declares: the indexes its queries need, and the shapes of those queries. */
export interface StorageDeclarations {
  readonly indexes: readonly IndexSpec[];
  readonly queryShapes: readonly QueryShape[];
}

/**
 * Whether `index` serves `shape`: a unique index whose every key the shape binds by equality
 * (at most one document per value), or an index starting with exactly the equality fields
 * (in any order) followed by the sort keys, all in their directions or all reversed. With
 * neither equality nor sort, a bounded field must lead the index (a filterless read needs none).
 */
export function serves(index: IndexSpec, shape: QueryShape): boolean {
  if (index.collection !== shape.collection) return false;
  const keys = Object.entries(index.key);
  const equality = new Set(shape.equality);
  if (index.unique && keys.every(([field]) => equality.has(field))) return true;
  const head = keys.slice(0, equality.size);
  if (head.length !== equality.size || !head.every(([field]) => equality.has(field))) return false;
  const sort = Object.entries(shape.sort ?? {}).filter(([field]) => !equality.has(field));
  if (equality.size === 0 && sort.length === 0) return !shape.range?.length || shape.range.includes(keys[0]![0]);
  const tail = keys.slice(equality.size, equality.size + sort.length);
  if (tail.length !== sort.length) return false;
  const same = sort.every(([field, dir], i) => tail[i]![0] === field && tail[i]![1] === dir);
  const reversed = sort.every(([field, dir], i) => tail[i]![0] === field && tail[i]![1] === -dir);
  return same || reversed;
}
