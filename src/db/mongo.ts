import type { Tracer } from '@opentelemetry/api';
import { type Db, MongoClient } from 'mongodb';
import { traceMongoCommands } from '../telemetry/mongo-spans';

export interface Mongo {
  client: MongoClient;
  db: Db;
  close(): Promise<void>;
}

/**
 * Creates a client without waiting for the server: the driver connects on first use and
 * reconnects by itself, so a database outage degrades readiness instead of killing the process.
 */
export function createMongo(uri: string, dbName: string, appName: string, tracer?: Tracer): Mongo {
  // Command monitoring costs an event per command: only when its spans are wanted.
  const client = new MongoClient(uri, { appName, serverSelectionTimeoutMS: 5000, connectTimeoutMS: 5000, monitorCommands: tracer !== undefined });
  if (tracer) traceMongoCommands(client, tracer);
  return { client, db: client.db(dbName), close: () => client.close() };
}
