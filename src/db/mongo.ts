import type { Tracer } from '@opentelemetry/api';
import { type Db, MongoClient } from 'mongodb';
import { countDbCommands, type DbCommandCounter } from '../telemetry/db-commands';
import { traceMongoCommands } from '../telemetry/mongo-spans';

export interface Mongo {
  client: MongoClient;
  db: Db;
  close(): Promise<void>;
}

/**
 * Creates a client without waiting for the server: the driver connects on first use and
 * reconnects by itself, so a database outage degrades readiness instead of killing the process.
 * `commands`: every command sent is counted there (`db_commands_total`).
 */
export function createMongo(uri: string, dbName: string, appName: string, tracer?: Tracer, commands?: DbCommandCounter): Mongo {
  // Command monitoring costs an event per command: only when spans or counts are wanted.
  const monitorCommands = tracer !== undefined || commands !== undefined;
  const client = new MongoClient(uri, { appName, serverSelectionTimeoutMS: 5000, connectTimeoutMS: 5000, monitorCommands });
  if (tracer) traceMongoCommands(client, tracer);
  if (commands) countDbCommands(client, commands);
  return { client, db: client.db(dbName), close: () => client.close() };
}
