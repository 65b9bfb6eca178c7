/** Entry point: the Temporal worker alone (`npm run worker`); scale out by running several. */
import { hostname } from 'node:os';
import { loadConfig } from '../config/config';
import { createMongo } from '../db/mongo';
import { createLogger } from '../logger';
import { installWorkerRuntime } from '../worker/runtime-logger';
import { NativeConnection, createWorker } from '../worker/create-worker';

const config = loadConfig();
const logger = createLogger(config.logLevel, 'worker');
installWorkerRuntime(logger, config.logLevel);
const mongo = createMongo(config.mongo.connectUri, config.mongo.dbName, 'webhook-service-worker');
const connection = await NativeConnection.connect({ address: config.temporal.connectAddress });
const worker = await createWorker({
  connection,
  namespace: config.temporal.namespace,
  taskQueue: config.temporal.taskQueue,
  deps: { db: mongo.db, workerIdentity: `worker@${hostname()}:${process.pid}` },
});
logger.info({ taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace }, 'worker running');
// The worker drains in-flight tasks on SIGINT/SIGTERM by itself (Runtime's shutdown signals).
await worker.run();
await Promise.all([connection.close(), mongo.close()]);
logger.info('worker stopped');
