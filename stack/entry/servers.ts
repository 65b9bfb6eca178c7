/**
 * Entry point for `npm run servers`: only the embedded servers of the LOCAL_STACK profile (the
 * Temporal dev server or the two-node cluster, and the MongoDB-wire database), for running
 * `npm run api` and `npm run worker` (or several of each) by hand.
 */
import { createLogger, runUntilSignal } from '../../src/compose/dev-stack';
import { loadStackConfig } from '../config/config';
import { startStack } from '../runtime/stack';

const config = loadStackConfig();
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
  // Every variable the profile hands its own API and worker (the cluster's UI link too).
  const vars = { MONGODB_URI: config.mongo.connectUri, TEMPORAL_ADDRESS: config.temporal.connectAddress, ...env };
  process.stdout.write(
    `\nEmbedded servers (LOCAL_STACK=${config.localStack}) are running:\n  Temporal  ${stack.servers.temporal}\n  Database  ${stack.servers.database}\n` +
      `Point the API and worker at them with:\n` +
      `  export ${Object.entries(vars).map(([k, v]) => `${k}=${v}`).join(' ')}\n` +
      (temporalUiUrl ? `Temporal UI: ${temporalUiUrl}\n` : '') +
      `Press Ctrl-C to stop.\n\n`,
  );
  await runUntilSignal(logger, () => stack.stop());
} catch (err) {
  logger.fatal((err as Error).message);
  process.exit(1);
}
