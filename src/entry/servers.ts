/**
 * Entry point for `npm run servers`: only the embedded Temporal and MongoDB-wire servers,
 * for running `npm run api` and `npm run worker` (or several of each) by hand.
 */
import { startLocalServers } from '../runtime/local-servers';
import { loadConfig } from '../config/config';
import { createLogger } from '../logger';
import { runUntilSignal } from './shutdown';

const config = loadConfig();
const logger = createLogger(config.logLevel, 'servers', config.logFormat);
try {
  const servers = await startLocalServers(config, {
    log: (line) => logger.info(line),
    serverOutput: (server, line) => process.stdout.write(`[${server}] ${line}\n`),
  });
  process.stdout.write(
    `\nEmbedded servers are running. Point the API and worker at them with:\n` +
      `  export MONGODB_URI=${servers.mongoUri} TEMPORAL_ADDRESS=${servers.temporalAddress}\n` +
      (servers.temporalUiUrl ? `Temporal UI: ${servers.temporalUiUrl}\n` : '') +
      `Press Ctrl-C to stop.\n\n`,
  );
  await runUntilSignal(logger, () => servers.stop());
} catch (err) {
  logger.fatal((err as Error).message);
  process.exit(1);
}
