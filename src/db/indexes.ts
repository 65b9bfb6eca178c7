import { type Db, MongoServerError } from 'mongodb';
import { alertBudgetStorage } from '../alerts/admin-budget';
import { AlertRepository, OperationalNotices } from '../alerts/repository';
import { ApiKeyRepository } from '../auth/api-keys';
import { AttemptRepository } from '../deliveries/attempts';
import { HeldDeliveryRepository } from '../deliveries/held';
import { InboxRepository } from '../deliveries/inbox';
import { DispatchNotes } from '../events/dispatch-notes';
import { EventRepository } from '../events/repository';
import { OrderingMarks } from '../events/ordering-marks';
import { IdempotencyStore } from '../idempotency/store';
import { PortalRevocations } from '../portal/revocations';
import { ServiceKeyRepository } from '../portal/service-keys';
import { rateLimitStorage } from '../request-budgets/limiter';
import { deliveryRateStorage } from '../deliveries/delivery-rate';
import { StockIntents, StockLedger } from '../inventory/repository';
import { OrderRepository, ProductRepository, UserRepository } from '../orders/repository';
import { TransitionClaims } from '../orders/transition-claims';
import { SubscriptionRepository } from '../subscriptions/repository';
import type { IndexSpec, StorageDeclarations } from './query-shapes';
import { Timeline } from './timeline';

/** Every owner of service data, each declaring its indexes and query shapes beside its queries. */
export const storageOwners: readonly StorageDeclarations[] = [
  ApiKeyRepository,
  SubscriptionRepository,
  OrderRepository,
  TransitionClaims,
  ProductRepository,
  StockLedger,
  StockIntents,
  UserRepository,
  rateLimitStorage,
  deliveryRateStorage,
  AttemptRepository,
  InboxRepository,
  HeldDeliveryRepository,
  EventRepository,
  DispatchNotes,
  OrderingMarks,
  AlertRepository,
  alertBudgetStorage,
  OperationalNotices,
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

/**
 * Indexes earlier versions made that no query uses any more: dropped at start, since every index
 * costs each write (and on the embedded FerretDB, its GIN companion too).
 */
export const retiredIndexes: ReadonlyArray<{ collection: string; name: string }> = [
  { collection: 'attempts', name: 'subscription_newest' },
  { collection: 'attempts', name: 'started_at' },
  { collection: 'events', name: 'created_at' },
  { collection: 'orders', name: 'user_newest' },
];

/** Drops the retired indexes that exist; idempotent. */
export async function dropRetiredIndexes(db: Db): Promise<void> {
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const { collection, name } of retiredIndexes) {
    if (!existing.has(collection)) continue;
    const names = (await db.collection(collection).indexes()).map((i) => i.name);
    if (!names.includes(name)) continue;
    // Another process starting at the same moment may drop it first (IndexNotFound, code 27).
    await db.collection(collection).dropIndex(name).catch((err: unknown) => {
      if (!(err instanceof MongoServerError && err.code === 27)) throw err;
    });
  }
}

/** The mongosh command that creates one declared index (what an operator runs when the service may not). */
export function indexCommand(index: IndexSpec): string {
  return `db.getCollection(${JSON.stringify(index.collection)}).createIndex(${JSON.stringify(index.key)}, ${JSON.stringify({ name: index.name, ...(index.unique ? { unique: true } : {}) })})`;
}

/** Preparing the database failed; the message says why and, when it is a permission, what to run instead. */
export class DatabaseSetupError extends Error {
  override readonly name = 'DatabaseSetupError';
}

/** MongoDB's Unauthorized (13) and Atlas's AtlasError (8000) for a user without the privilege. */
const unauthorizedCodes = new Set([13, 8000]);

/** What every process does to its database at start; throws {@link DatabaseSetupError} saying what went wrong. */
export async function prepareDatabase(db: Db): Promise<void> {
  try {
    await ensureIndexes(db);
    await dropRetiredIndexes(db);
  } catch (err) {
    throw databaseSetupError(db.databaseName, err);
  }
}

export function databaseSetupError(dbName: string, err: unknown): DatabaseSetupError {
  const reason = err instanceof Error ? err.message : String(err);
  if (err instanceof MongoServerError && typeof err.code === 'number' && unauthorizedCodes.has(err.code)) {
    return new DatabaseSetupError(
      `Not allowed to create the indexes of database ${dbName} (${reason}). Give the service's MongoDB user the readWrite role on ${dbName}, ` +
        `or create them once with mongosh (use ${dbName}):\n${declaredIndexes().map((i) => `  ${indexCommand(i)}`).join('\n')}`,
      { cause: err },
    );
  }
  if (err instanceof MongoServerError) {
    return new DatabaseSetupError(`Creating or dropping the indexes of database ${dbName} failed: ${reason}`, { cause: err });
  }
  return new DatabaseSetupError(`MongoDB did not answer while preparing database ${dbName} (${reason}); check MONGODB_URI and that the server is up.`, { cause: err });
}
