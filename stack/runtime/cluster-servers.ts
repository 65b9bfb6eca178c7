import { join } from 'node:path';
import type { StackConfig } from '../config/config';
import { resolveBinary, temporalNode } from './binaries';
import { CLUSTER_MAX_CONNECTIONS, clusterPortsAround } from './local-temporal-cluster';
import { type LocalServersOptions, planLocalServers, postgresUnit } from './local-servers';
import { assertPortFree, getFreePort } from './ports';
import type { Unit } from './processes';
import type { ServerSet } from './stack';
import {
  type Balancer,
  type ClusterNodePorts,
  findClusterPorts,
  formCluster,
  INTERNAL_PORTS_PER_NODE,
  type RunningTemporalNode,
  setupClusterSchema,
  startClusterNode,
  startClusterUI,
  type TemporalClusterOptions,
} from './temporal-cluster';

/** How many Temporal nodes the cluster profile runs. */
export const CLUSTER_NODES = 2;

/**
 * The cluster profile's ports: the balancer on TEMPORAL_PORT (clients' TEMPORAL_ADDRESS is the
 * same as with the dev server), the nodes around it (clusterPortsAround); when TEMPORAL_PORT is
 * too high for the internal blocks to stay below 32768 (a port from the OS, in tests), the nodes'
 * ports are picked free instead.
 */
export async function clusterProfilePorts(temporalPort: number): Promise<{ balancerPort: number; nodes: ClusterNodePorts[] }> {
  const around = clusterPortsAround(temporalPort, CLUSTER_NODES);
  if (around.nodes.every((n) => n.portBase + INTERNAL_PORTS_PER_NODE <= 32768)) return around;
  const { nodes } = await findClusterPorts(CLUSTER_NODES, getFreePort);
  return { balancerPort: temporalPort, nodes };
}

/**
 * `cluster`: one PostgreSQL on POSTGRES_PORT (data in DATA_DIR/ferretdb/postgres, the same cluster
 * the local profile's FerretDB uses, now with max_connections 300) holding Temporal's two databases
 * and, when the embedded database is FerretDB on PostgreSQL, FerretDB's; the Temporal schema; two
 * Temporal server nodes (`temporal-1`, `temporal-2`, each a part that can be killed and started
 * again); a balancer on TEMPORAL_PORT; the namespace with the search attributes; the Web UI on
 * TEMPORAL_UI_PORT (`temporal-ui`, its own part against the balancer).
 */
export async function planClusterServers(config: StackConfig, opts: LocalServersOptions): Promise<ServerSet> {
  // Checked here, not in the schema: the API and worker inherit LOCAL_STACK with the cluster's TEMPORAL_ADDRESS.
  if (config.temporal.address) throw new Error('LOCAL_STACK=cluster starts its own Temporal cluster: unset TEMPORAL_ADDRESS, or keep LOCAL_STACK=local to use the Temporal at TEMPORAL_ADDRESS');
  const ports = await clusterProfilePorts(config.temporal.embeddedPort);
  await assertPortFree(ports.balancerPort, 'TEMPORAL_PORT', 'Temporal cluster frontend (balancer)');
  for (const [i, node] of ports.nodes.entries()) {
    await assertPortFree(node.frontendPort, 'TEMPORAL_PORT', `Temporal node ${i + 1} frontend`);
    // Its internal block too: a node that cannot bind one of them exits at start with a Go stack trace.
    for (let p = node.portBase; p < node.portBase + INTERNAL_PORTS_PER_NODE; p++) await assertPortFree(p, 'TEMPORAL_PORT', `Temporal node ${i + 1} internal (membership, history, matching, worker)`);
  }
  if (!opts.headless) await assertPortFree(config.temporal.uiPort, 'TEMPORAL_UI_PORT', 'Temporal Web UI');

  // The database half as the local profile plans it, on a PostgreSQL with room for Temporal too.
  const db = await planLocalServers(config, { ...opts, only: 'database', postgresMaxConnections: CLUSTER_MAX_CONNECTIONS });
  const units: Unit[] = [...db.units];
  let postgres = units.find((u) => u.name === 'postgres');
  if (!postgres) {
    // mongod, SQLite or MONGODB_URI: PostgreSQL for Temporal alone, where FerretDB's would be.
    postgres = (await postgresUnit(config, join(config.dataDir, 'ferretdb', 'postgres'), { ...opts, postgresMaxConnections: CLUSTER_MAX_CONNECTIONS })).unit;
    units.unshift(postgres);
  }
  const binary = (await resolveBinary(temporalNode, { cacheDir: config.binaryCacheDir, explicitPath: config.temporal.nodePath, log: opts.log })).path;

  // The nodes wait for PostgreSQL's first start (units start in parallel), then for the schema.
  const postgresUp = deferred();
  const startPostgres = postgres.start;
  postgres.start = async () => {
    try {
      const started = await startPostgres();
      postgresUp.resolve();
      return started;
    } catch (err) {
      postgresUp.reject(err as Error);
      throw err;
    }
  };
  const database = { host: '127.0.0.1', port: config.mongo.postgresPort, user: 'postgres' };
  let schema: Promise<void> | undefined;

  const uiPort = opts.headless ? undefined : config.temporal.uiPort;
  const clusterOpts: TemporalClusterOptions = {
    binary,
    database,
    shards: config.temporal.shards,
    nodes: ports.nodes,
    balancerPort: ports.balancerPort,
    ...(uiPort ? { uiPort } : {}),
    namespace: config.temporal.namespace,
    // One task-queue partition, as the dev server runs (temporal-dev-server.ts says why).
    dynamicConfig: { 'matching.numTaskqueueReadPartitions': 1, 'matching.numTaskqueueWritePartitions': 1 },
    onLine: (node, line) => opts.serverOutput?.(node, line),
  };
  // The first start of every node forms the cluster once: rings, shard count, balancer, namespace.
  const firstStarts = ports.nodes.map(() => deferred<RunningTemporalNode>());
  let formed: Promise<Balancer | undefined> | undefined;
  let balancer: Balancer | undefined;
  const form = async () => {
    const nodes = await Promise.all(firstStarts.map((d) => d.promise));
    const result = await formCluster(clusterOpts, nodes);
    balancer = result.balancer;
    opts.log(`Temporal cluster: ${nodes.length} nodes, ${config.temporal.shards} shards, namespace ${config.temporal.namespace}${result.setup.namespaceCreated ? ' (created)' : ''}`);
    return balancer;
  };

  for (const [i] of ports.nodes.entries()) {
    units.push({
      name: `temporal-${i + 1}`,
      start: async () => {
        let node: RunningTemporalNode | undefined;
        try {
          await postgresUp.promise;
          schema ??= setupClusterSchema(binary, database);
          await schema;
          // On an empty database the first node to start writes the cluster metadata; two at once
          // race for it and the loser exits ("Failed to apply cluster metadata"): the others wait.
          if (i > 0) await firstStarts[0]!.promise;
          node = await startClusterNode(clusterOpts, i);
          firstStarts[i]!.resolve(node);
          formed ??= form();
          await formed;
        } catch (err) {
          firstStarts[i]!.reject(err as Error);
          await node?.stop();
          throw err;
        }
        return { process: node.process, stop: node.stop };
      },
    });
  }
  if (uiPort) {
    // Its own part against the balancer: it serves while either node is down.
    units.push({
      name: 'temporal-ui',
      start: async () => {
        await Promise.all(firstStarts.map((d) => d.promise));
        await formed;
        const ui = await startClusterUI(clusterOpts);
        return { process: ui, stop: () => ui.stop() };
      },
    });
  }
  const address = `127.0.0.1:${ports.balancerPort}`;
  const uiUrl = uiPort ? (config.api.portal.temporalUiUrl ?? `http://localhost:${uiPort}`) : undefined;
  return {
    env: {
      MONGODB_URI: db.mongoUri,
      TEMPORAL_ADDRESS: address,
      ...(uiUrl ? { TEMPORAL_UI_URL: uiUrl } : {}),
    },
    units,
    database: `${db.mongoDescription}; PostgreSQL on port ${config.mongo.postgresPort} holds Temporal's databases too`,
    temporal: `${address} (namespace ${config.temporal.namespace}): balancer over ${ports.nodes.length} Temporal nodes (${ports.nodes.map((n) => n.frontendPort).join(', ')}), ${config.temporal.shards} shards, on PostgreSQL`,
    ...(uiPort ? { temporalUiUrl: `http://localhost:${uiPort}` } : {}),
    close: async () => {
      await balancer?.close();
    },
  };
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (err: Error) => void;
}

function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A rejection nobody awaits yet (a node that never started) must not crash the process.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
