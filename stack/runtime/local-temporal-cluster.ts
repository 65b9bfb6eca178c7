import { join } from 'node:path';
import { resolveBinary, temporalNode } from './binaries';
import { type RunningPostgres, startLocalPostgres } from './local-postgres';
import { requirePostgres } from './postgres';
import { assertPortFree } from './ports';
import { type ClusterDatabase, type ClusterNodePorts, type RunningTemporalCluster, startTemporalCluster } from './temporal-cluster';

/** PostgreSQL's `max_connections` for a cluster: 100 (its default) is too few for two nodes, FerretDB and tests. */
export const CLUSTER_MAX_CONNECTIONS = 300;

export interface LocalTemporalClusterOptions {
  /** The cluster's PostgreSQL data lives in `<dataDir>/postgres` (initdb on first start). */
  dataDir: string;
  /** A directory this process made for its data (see startLocalPostgres). */
  ownedRoot?: string;
  /** Where built binaries are cached (config.binaryCacheDir). */
  cacheDir: string;
  /** An existing temporal-node binary instead of the cached build. */
  binaryPath?: string;
  postgresBinDir?: string;
  postgresPort: number;
  /** An existing PostgreSQL to use instead of starting one (e.g. the one FerretDB uses). */
  database?: ClusterDatabase;
  nodes: ClusterNodePorts[];
  balancerPort?: number;
  uiPort?: number;
  namespace: string;
  shards?: number;
  /** No fsync in PostgreSQL (tests). */
  fast?: boolean;
  dynamicConfig?: Record<string, unknown>;
  log: (line: string) => void;
  onLine?: (server: string, line: string) => void;
}

export interface LocalTemporalCluster extends RunningTemporalCluster {
  /** Set when this call started the cluster's PostgreSQL. */
  postgres: RunningPostgres | undefined;
}

/**
 * Provisions and starts a Temporal cluster on this machine: PostgreSQL (found or, as root with
 * apt-get, installed; run as the `postgres` user when root; data under `dataDir`), the node
 * binary (built with Go on first use, then cached), the schema, the nodes and the namespace.
 */
export async function startLocalTemporalCluster(opts: LocalTemporalClusterOptions): Promise<LocalTemporalCluster> {
  for (const [i, node] of opts.nodes.entries()) await assertPortFree(node.frontendPort, 'the cluster node ports', `Temporal node ${i + 1} frontend`);
  if (opts.balancerPort !== undefined) await assertPortFree(opts.balancerPort, 'TEMPORAL_PORT', 'Temporal cluster frontend (balancer)');
  if (opts.uiPort) await assertPortFree(opts.uiPort, 'TEMPORAL_UI_PORT', 'Temporal Web UI');
  const binary = (await resolveBinary(temporalNode, { cacheDir: opts.cacheDir, explicitPath: opts.binaryPath, log: opts.log })).path;
  let postgres: RunningPostgres | undefined;
  let database = opts.database;
  if (!database) {
    await assertPortFree(opts.postgresPort, 'the cluster PostgreSQL port', "Temporal cluster's PostgreSQL");
    const install = requirePostgres(opts.postgresBinDir, opts.log);
    postgres = await startLocalPostgres({
      install,
      port: opts.postgresPort,
      dataDir: join(opts.dataDir, 'postgres'),
      ...(opts.ownedRoot ? { ownedRoot: opts.ownedRoot } : {}),
      fast: opts.fast ?? false,
      maxConnections: CLUSTER_MAX_CONNECTIONS,
      onLine: (line) => opts.onLine?.('postgres', line),
    });
    database = { host: '127.0.0.1', port: opts.postgresPort, user: 'postgres' };
  }
  try {
    const cluster = await startTemporalCluster({
      binary,
      database,
      nodes: opts.nodes,
      namespace: opts.namespace,
      ...(opts.shards !== undefined ? { shards: opts.shards } : {}),
      ...(opts.balancerPort !== undefined ? { balancerPort: opts.balancerPort } : {}),
      ...(opts.uiPort ? { uiPort: opts.uiPort } : {}),
      ...(opts.dynamicConfig ? { dynamicConfig: opts.dynamicConfig } : {}),
      ...(opts.onLine ? { onLine: opts.onLine } : {}),
    });
    return {
      ...cluster,
      postgres,
      stop: async () => {
        await cluster.stop();
        await postgres?.stop();
      },
    };
  } catch (err) {
    await postgres?.stop();
    throw err;
  }
}

/**
 * The cluster profile's fixed ports around TEMPORAL_PORT (`p`): the balancer takes `p` itself, so
 * clients' TEMPORAL_ADDRESS is what it is with the dev server; the nodes' frontends `p+1`, `p+2`…;
 * each node's internal block from `p+10`, ten apart (all below 32768).
 */
export function clusterPortsAround(temporalPort: number, nodeCount = 2): { balancerPort: number; nodes: ClusterNodePorts[] } {
  const nodes = Array.from({ length: nodeCount }, (_, i) => ({ frontendPort: temporalPort + 1 + i, portBase: temporalPort + 10 * (i + 1) }));
  return { balancerPort: temporalPort, nodes };
}
