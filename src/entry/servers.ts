/**
 * Entry point for `npm run servers`: only the embedded Temporal and MongoDB-wire servers,
 * for running `npm run api` and `npm run worker` (or several of each) by hand.
 */
import { startStack } from '../runtime/stack';
import { loadConfig } from '../config/config';
import { createLogger } from '../logger';
import { runUntilSignal } from './shutdown';

const config = loadConfig();
const logger = createLogger(config.logLevel, 'servers', config.logFormat);
try {
  const stack = await startStack({
    config,
    apis: 0,
    workers: 0,
    log: (line) => logger.info(line),
    serverOutput: (server, line) => process.stdout.write(`[${server}] ${line}\n`),
  });
  const { env, temporalUiUrl } = stack.servers;
  process.stdout.write(
    `\nEmbedded servers are running. Point the API and worker at them with:\n` +
      `  export MONGODB_URI=${env.MONGODB_URI ?? config.mongo.connectUri} TEMPORAL_ADDRESS=${env.TEMPORAL_ADDRESS ?? config.temporal.connectAddress}\n` +
      (temporalUiUrl ? `Temporal UI: ${temporalUiUrl}\n` : '') +
      `Press Ctrl-C to stop.\n\n`,
  );
  await runUntilSignal(logger, () => stack.stop());
} catch (err) {
  logger.fatal((err as Error).message);
  process.exit(1);
}
