import type { Collection, Db } from 'mongodb';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { IndexSpec, QueryShape } from '../db/query-shapes';

/** A key the service made for itself, stored (sealed) so every process shares it. */
export interface ServiceKeyDoc {
  _id: string;
  key: string;
  created_at: Date;
}

/** The `service_keys` collection: one document per named key, never changed once stored. */
export class ServiceKeyRepository {
  static readonly indexes: readonly IndexSpec[] = [];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'service_keys', method: 'ServiceKeyRepository.storeOnce', equality: ['_id'], index: '_id_' },
    { collection: 'service_keys', method: 'ServiceKeyRepository.find', equality: ['_id'], index: '_id_' },
  ];

  readonly #collection: Collection<ServiceKeyDoc>;

  constructor(db: Db) {
    this.#collection = db.collection<ServiceKeyDoc>('service_keys');
  }

  /** Stores the key unless one with its id is stored already (the first process to start wins). */
  async storeOnce(doc: ServiceKeyDoc): Promise<void> {
    await insertIfAbsent(this.#collection, doc);
  }

  /** The stored key `id`, or undefined. */
  async find(id: string): Promise<ServiceKeyDoc | undefined> {
    return (await this.#collection.findOne({ _id: id })) ?? undefined;
  }
}
