/**
 * A Temporal cluster on this machine, to try the cluster profile on its own: PostgreSQL and two
 * Temporal nodes (frontend, history, matching, worker each) forming one cluster, a balancer on
 * TEMPORAL_PORT in front of both frontends, the Web UI on TEMPORAL_UI_PORT and the namespace with
 * the service's search attributes. Prints the variables the API and worker need.
 *
 *   node --import tsx stack/entry/cluster.ts [--shards 8] [--nodes 2] [--postgres-port 54330]
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger, runUntilSignal } from '../../src/compose/dev-stack';
import { loadStackConfig } from '../config/config';
import { clusterPortsAround, startLocalTemporalCluster } from '../runtime/local-temporal-cluster';

const { values } = parseArgs({
  options: {
    shards: { type: 'string', default: '8' },
    nodes: { type: 'string', default: '2' },
    'postgres-port': { type: 'string', default: '54330' },
  },
});
const config = loadStackConfig();
const logger = createLogger(config.logLevel, 'cluster', config.logFormat);
const ports = clusterPortsAround(config.temporal.embeddedPort, Number(values.nodes));
const started = Date.now();
try {
  const cluster = await startLocalTemporalCluster({
    dataDir: join(config.dataDir, 'temporal-cluster'),
    ownedRoot: config.dataDir,
    cacheDir: config.binaryCacheDir,
    ...(config.temporal.nodePath ? { binaryPath: config.temporal.nodePath } : {}),
    ...(config.mongo.postgresBinDir ? { postgresBinDir: config.mongo.postgresBinDir } : {}),
    postgresPort: Number(values['postgres-port']),
    ...ports,
    uiPort: config.temporal.uiPort,
    namespace: config.temporal.namespace,
    shards: Number(values.shards),
    log: (line) => logger.info(line),
    onLine: (server, line) => process.stdout.write(`[${server}] ${line}\n`),
  });
  process.stdout.write(
    `\nTemporal cluster: ${cluster.nodes.length} nodes (${cluster.nodes.map((n) => n.address).join(', ')}), ${cluster.shards} shards, ` +
      `up in ${((Date.now() - started) / 1000).toFixed(1)}s. Point the API and worker at it with:\n` +
      `  export ${Object.entries(cluster.env).map(([k, v]) => `${k}=${v}`).join(' ')}\n` +
      `Press Ctrl-C to stop.\n\n`,
  );
  await runUntilSignal(logger, () => cluster.stop());
} catch (err) {
  logger.fatal((err as Error).message);
  process.exit(1);
}
