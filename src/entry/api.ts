/** Entry point: the HTTP API alone (`npm run api`); scale out by running several. */
import { composeApi } from '../compose/api';
import { loadConfig } from '../config/config';
import { createLogger } from '../logger';
import { exitWith, runUntilSignal } from './shutdown';

const config = loadConfig();
const logger = createLogger(config.logLevel, 'api', config.logFormat);
// Fails fast (and the supervisor restarts us) when the database is unreachable at start.
const api = await composeApi(config, logger).catch(exitWith(logger));
await api.listen().catch(exitWith(logger));
await runUntilSignal(logger, () => api.stop());
