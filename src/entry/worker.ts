/** Entry point: the Temporal worker alone (`npm run worker`); scale out by running several. */
import { hostname } from 'node:os';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../config/config';
import { ensureIndexes } from '../db/indexes';
import { createMongo } from '../db/mongo';
import { EventDispatcher } from '../events/dispatcher';
import { startRelay } from '../events/relay';
import { createLogger } from '../logger';
import { userAgent } from '../version';
import { NativeConnection, createWorker } from '../worker/create-worker';
import { installWorkerRuntime } from '../worker/runtime-logger';

const config = loadConfig();
const logger = createLogger(config.logLevel, 'worker');
installWorkerRuntime(logger, config.logLevel);
const mongo = createMongo(config.mongo.connectUri, config.mongo.dbName, 'webhook-service-worker');
await ensureIndexes(mongo.db);
const connection = await NativeConnection.connect({ address: config.temporal.connectAddress });
const worker = await createWorker({
  connection,
  namespace: config.temporal.namespace,
  taskQueue: config.temporal.taskQueue,
  deps: {
    db: mongo.db,
    workerIdentity: `worker@${hostname()}:${process.pid}`,
    allowPrivate: config.api.allowPrivateCallbacks,
    timeoutMs: config.delivery.timeoutMs,
    userAgent,
    alertUrl: config.delivery.alertUrl,
    alertSecret: config.delivery.alertSecret,
  },
});

// The relay re-dispatches what a crash or a Temporal outage left behind.
const clientConnection = await Connection.connect({ address: config.temporal.connectAddress });
const client = new Client({ connection: clientConnection, namespace: config.temporal.namespace });
const dispatcher = new EventDispatcher({
  db: mongo.db,
  temporal: () => Promise.resolve(client),
  taskQueue: config.temporal.taskQueue,
  policy: config.delivery.policy,
  logger,
});
const relay = startRelay(dispatcher, config.delivery.relayIntervalMs, logger);

logger.info({ taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace }, 'worker running');
// The worker drains in-flight tasks on SIGINT/SIGTERM by itself (Runtime's shutdown signals).
await worker.run();
await relay.stop();
await Promise.all([connection.close(), clientConnection.close(), mongo.close()]);
logger.info('worker stopped');
