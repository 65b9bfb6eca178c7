/** Entry point: the Temporal worker alone (`npm run worker`); scale out by running several. */
import { composeWorker } from '../compose/worker';
import { loadConfig } from '../config/config';
import { createLogger } from '../logger';
import { exitWith, stopRequested } from './shutdown';

const config = loadConfig();
const logger = createLogger(config.logLevel, 'worker', config.logFormat);
const worker = await composeWorker(config, logger, (message) => exitWith(logger)(new Error(message))).catch(exitWith(logger));
await worker.run(stopRequested());
process.exit(0);
