import type { Db } from 'mongodb';
import { AlertRepository } from '../alerts/repository';
import { ApiKeyRepository } from '../auth/api-keys';
import { AttemptRepository } from '../deliveries/attempts';
import { DispatchNotes } from '../events/dispatch-notes';
import { EventRepository } from '../events/repository';
import { IdempotencyStore } from '../idempotency/store';
import { PortalRevocations } from '../portal/revocations';
import { ServiceKeyRepository } from '../portal/service-keys';
import { rateLimitStorage } from '../rate-limit/limiter';
import { OrderRepository, ProductRepository, StockRepository, UserRepository } from '../resources/repository';
import { SubscriptionRepository } from '../subscriptions/repository';
import type { IndexSpec, StorageDeclarations } from './query-shapes';
import { Timeline } from './timeline';

/** Every owner of service data, each declaring its indexes and query shapes beside its queries. */
export const storageOwners: readonly StorageDeclarations[] = [
  ApiKeyRepository,
  SubscriptionRepository,
  OrderRepository,
  ProductRepository,
  StockRepository,
  UserRepository,
  rateLimitStorage,
  AttemptRepository,
  EventRepository,
  DispatchNotes,
  AlertRepository,
  IdempotencyStore,
  PortalRevocations,
  ServiceKeyRepository,
  Timeline,
];

/** The union of the declared indexes. */
export function declaredIndexes(): IndexSpec[] {
  return storageOwners.flatMap((owner) => owner.indexes);
}

/**
 * Creates the indexes the repositories declare; idempotent, run by each process at start.
 * Only index kinds FerretDB v1 supports (single and compound, unique).
 */
export async function ensureIndexes(db: Db): Promise<void> {
  await Promise.all(
    declaredIndexes().map((index) =>
      db.collection(index.collection).createIndex({ ...index.key }, { name: index.name, ...(index.unique ? { unique: true } : {}) }),
    ),
  );
}

/** What every process does to its database at start. */
export async function prepareDatabase(db: Db): Promise<void> {
  await ensureIndexes(db);
}
