import { type Db, MongoClient } from 'mongodb';

export interface Mongo {
  client: MongoClient;
  db: Db;
  close(): Promise<void>;
}

/**
 * Creates a client without waiting for the server: the driver connects on first use and
 * reconnects by itself, so a database outage degrades readiness instead of killing the process.
 */
export function createMongo(uri: string, dbName: string, appName: string): Mongo {
  const client = new MongoClient(uri, { appName, serverSelectionTimeoutMS: 5000, connectTimeoutMS: 5000 });
  return { client, db: client.db(dbName), close: () => client.close() };
}
