import { spawn } from 'node:child_process';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { Connection } from '@temporalio/client';
import { ensureTemporalSetup, searchAttributes, type SetupResult } from '../../src/compose/dev-stack';
import { isPortFree } from './ports';
import { ManagedProcess, waitUntilReady } from './processes';

/** Where the cluster keeps its data: a PostgreSQL server, reached as its superuser on loopback. */
export interface ClusterDatabase {
  host: string;
  port: number;
  user: string;
  password?: string;
}

/** One node's ports. */
export interface ClusterNodePorts {
  /** Frontend gRPC: clients may connect to each node's frontend directly. */
  frontendPort: number;
  /**
   * First of the node's 7 internal ports (ringpop membership and internal gRPC of history,
   * matching and worker). All below 32768: PostgreSQL stores membership ports as smallint.
   */
  portBase: number;
}

/** How many ports from `portBase` one node takes (see stack/runtime/temporal-node/main.go). */
export const INTERNAL_PORTS_PER_NODE = 7;

export interface TemporalClusterOptions {
  /** The temporal-node binary (binaries.ts `temporalNode`). */
  binary: string;
  database: ClusterDatabase;
  /** History shards, fixed when the database is first set up; 8 unless given. */
  shards?: number;
  /** One entry per node; the cluster profile runs two. */
  nodes: ClusterNodePorts[];
  /**
   * A loopback TCP balancer on this port that forwards each connection to a live frontend:
   * clients take one address (the SDKs take only one) and keep working while a node is down.
   */
  balancerPort?: number;
  /** The Temporal Web UI, a process of its own against the balancer (or the first node's frontend). */
  uiPort?: number;
  /** Created, with the service's search attributes, before start resolves. */
  namespace: string;
  /** Extra dynamic config for every node, e.g. `{ 'matching.numTaskqueueReadPartitions': 1 }`. */
  dynamicConfig?: Record<string, unknown>;
  /** Receives each node's output lines. */
  onLine?: (node: string, line: string) => void;
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  readyTimeoutMs?: number;
}

/** One running node. */
export interface RunningTemporalNode {
  name: string;
  /** This node's frontend, `host:port`. */
  address: string;
  /** This node's history service as the membership ring names it (its shards are owned under it). */
  historyAddress: string;
  process: ManagedProcess;
  /** Starts the node again on the same ports after a stop or kill. */
  restart: () => Promise<void>;
  stop: () => Promise<void>;
}

export interface RunningTemporalCluster {
  nodes: RunningTemporalNode[];
  /** Where clients connect: the balancer when there is one, else the first node's frontend. */
  address: string;
  uiUrl: string | undefined;
  namespace: string;
  shards: number;
  setup: SetupResult;
  /** The variables an API or worker process needs to use this cluster. */
  env: Record<string, string>;
  stop: () => Promise<void>;
}

/** What the admin service reports (the node binary's `describe` subcommand). */
export interface ClusterDescription {
  clusterName: string;
  serverVersion: string;
  historyShardCount: number;
  persistenceStore: string;
  visibilityStore: string;
  currentHost: string;
  reachableMembers: string[];
  /** Ring role (frontend, history, matching, worker) → member addresses. */
  rings: Record<string, string[]>;
  /** Each history member's address → the shards it owns now. */
  historyShards: Record<string, number[]>;
}

const ROLES = ['frontend', 'history', 'matching', 'worker'] as const;

/** A node's history service address: the second port of its block (main.go's offHistoryGRPC). */
export function historyAddress(node: ClusterNodePorts): string {
  return `127.0.0.1:${node.portBase + 1}`;
}

/** Command-line arguments for `temporal-node start` (the schema is set up once, beforehand). */
export function temporalNodeArgs(opts: TemporalClusterOptions, index: number): string[] {
  const node = opts.nodes[index];
  if (!node) throw new Error(`no node ${index}`);
  const first = opts.nodes[0]!;
  const args = [
    'start',
    ...databaseArgs(opts.database),
    '--shards',
    String(opts.shards ?? 8),
    '--ip',
    '127.0.0.1',
    '--frontend-port',
    String(node.frontendPort),
    '--port-base',
    String(node.portBase),
    // Every node records the same address in the cluster metadata, so none rewrites it.
    '--cluster-address',
    `127.0.0.1:${first.frontendPort}`,
    '--log-level',
    opts.logLevel ?? 'warn',
  ];
  for (const [key, value] of Object.entries(opts.dynamicConfig ?? {})) args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  return args;
}

function databaseArgs(db: ClusterDatabase): string[] {
  return ['--db-host', db.host, '--db-port', String(db.port), '--db-user', db.user];
}

/** The password goes by environment, not argv (where `ps` shows it). */
function databaseEnv(db: ClusterDatabase): NodeJS.ProcessEnv {
  return { ...process.env, TEMPORAL_DB_PASSWORD: db.password ?? '' };
}

/** Runs the node binary once to completion; its stdout, or an error with its output. */
function runOnce(binary: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString();
      if (code === 0) resolve(stdout);
      else reject(new Error(`temporal-node ${args[0]} failed (${code ?? signal}):\n${(Buffer.concat(err).toString() + stdout).trim().split('\n').slice(0, 25).join('\n')}`));
    });
  });
}

/**
 * Creates the cluster's two databases and applies the server's embedded schema (what
 * temporal-sql-tool's create-database, setup-schema and update-schema do); safe to repeat.
 */
export async function setupClusterSchema(binary: string, database: ClusterDatabase): Promise<void> {
  await runOnce(binary, ['setup-schema', ...databaseArgs(database)], databaseEnv(database), 120_000);
}

/** Asks a frontend's admin service for the cluster's shard count and ring members. */
export async function describeCluster(binary: string, address: string): Promise<ClusterDescription> {
  return JSON.parse(await runOnce(binary, ['describe', '--address', address, '--timeout', '5s'], process.env, 15_000)) as ClusterDescription;
}

/** True when every ring of the cluster seen from `address` has `members` members. */
export async function clusterFormed(binary: string, address: string, members: number): Promise<boolean> {
  const d = await describeCluster(binary, address).catch(() => undefined);
  return d !== undefined && ROLES.every((role) => (d.rings[role]?.length ?? 0) === members);
}

async function frontendServing(address: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: 1000 });
  try {
    await connection.workflowService.getSystemInfo({});
    return true;
  } finally {
    await connection.close();
  }
}

/**
 * Starts a Temporal cluster of `opts.nodes.length` nodes (frontend, history, matching and worker
 * services each) on one PostgreSQL: sets up the schema, starts the first node then the others (they find
 * each other through the database's cluster_membership table, then gossip over ringpop), waits
 * until every ring has every node, and creates the namespace with the service's search attributes.
 */
export async function startTemporalCluster(opts: TemporalClusterOptions): Promise<RunningTemporalCluster> {
  if (opts.nodes.length === 0) throw new Error('a cluster needs at least one node');
  for (const node of opts.nodes) {
    if (node.portBase < 1 || node.portBase + INTERNAL_PORTS_PER_NODE > 32768) {
      throw new Error(`port base ${node.portBase}: the internal ports must be below 32768 (PostgreSQL stores membership ports as smallint)`);
    }
  }
  const timeoutMs = opts.readyTimeoutMs ?? 120_000;
  await setupClusterSchema(opts.binary, opts.database);

  const nodes: RunningTemporalNode[] = [];
  let balancer: Balancer | undefined;
  let ui: ManagedProcess | undefined;
  const stopAll = async () => {
    await ui?.stop();
    await balancer?.close();
    await Promise.all(nodes.map((n) => n.stop()));
  };
  try {
    // The first node writes the cluster metadata of an empty database; two at once race for it
    // and the loser exits ("Failed to apply cluster metadata"), so the others start after it.
    nodes.push(await startClusterNode(opts, 0, timeoutMs));
    const started = await Promise.allSettled(opts.nodes.slice(1).map((_, i) => startClusterNode(opts, i + 1, timeoutMs)));
    for (const r of started) if (r.status === 'fulfilled') nodes.push(r.value);
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;

    const formed = await formCluster(opts, nodes, timeoutMs);
    balancer = formed.balancer;
    const { address, setup } = formed;
    if (opts.uiPort) ui = await startClusterUI(opts, timeoutMs);
    const uiUrl = opts.uiPort ? `http://localhost:${opts.uiPort}` : undefined;
    return {
      nodes,
      address,
      uiUrl,
      namespace: opts.namespace,
      shards: opts.shards ?? 8,
      setup,
      env: clusterEnv(address, opts.namespace, uiUrl),
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** What {@link formCluster} leaves running and found. */
export interface FormedCluster {
  balancer: Balancer | undefined;
  /** Where clients connect: the balancer when there is one, else the first node's frontend. */
  address: string;
  setup: SetupResult;
}

/**
 * The steps after every node's frontend serves: waits until every ring has every node, refuses a
 * database set up with another shard count, starts the balancer and creates the namespace with the
 * service's search attributes, usable through every node. The cluster profile of the stack
 * launcher runs it once its node parts are up; {@link startTemporalCluster} right after its nodes.
 */
export async function formCluster(opts: TemporalClusterOptions, nodes: Array<Pick<RunningTemporalNode, 'address' | 'process'>>, timeoutMs = opts.readyTimeoutMs ?? 120_000): Promise<FormedCluster> {
  const first = nodes[0]!;
  await waitUntilReady(first.process, () => clusterFormed(opts.binary, first.address, nodes.length), timeoutMs, 500).catch(async (err: unknown) => {
    const seen = await describeCluster(opts.binary, first.address).catch((e: unknown) => String(e));
    throw new Error(`the nodes did not form one cluster: ${(err as Error).message.split('\n')[0]}; last seen: ${JSON.stringify(seen)}`);
  });
  // The server keeps the shard count of the database's first start and ignores another (with
  // a warning in its log): say so instead of running with a count nobody asked for.
  const { historyShardCount } = await describeCluster(opts.binary, first.address);
  if (historyShardCount !== (opts.shards ?? 8)) {
    throw new Error(
      `This cluster's database was set up with ${historyShardCount} history shards, and a shard count is fixed for good at the first start: ` +
        `ask for ${historyShardCount}, or start from an empty data directory (a new database) to have ${opts.shards ?? 8}.`,
    );
  }
  const balancer = opts.balancerPort !== undefined ? await startBalancer(opts.balancerPort, opts.nodes.map((n) => n.frontendPort)) : undefined;
  try {
    const address = balancer ? `127.0.0.1:${opts.balancerPort}` : first.address;
    // The namespace and search attributes, as the worker makes sure of them at start; through
    // each frontend, so that every node's namespace cache has them before a client arrives.
    const setup = await withConnection(first.address, (c) => ensureTemporalSetup(c, { namespace: opts.namespace, namespaceReadyTimeoutMs: timeoutMs }));
    for (const node of nodes) {
      await waitUntilReady(node.process, () => searchAttributesUsable(node.address, opts.namespace), timeoutMs, 250);
    }
    return { balancer, address, setup };
  } catch (err) {
    await balancer?.close();
    throw err;
  }
}

/**
 * The variables a process (API, worker, bench) needs to use a running cluster: the address (set,
 * it also stops the process starting an embedded dev server), the namespace, and the UI to link.
 */
export function clusterEnv(address: string, namespace: string, uiUrl: string | undefined): Record<string, string> {
  return { TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace, ...(uiUrl ? { TEMPORAL_UI_URL: uiUrl } : {}) };
}

async function withConnection<T>(address: string, fn: (c: Connection) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({ address, connectTimeout: 5000 });
  try {
    return await fn(connection);
  } finally {
    await connection.close();
  }
}

/**
 * True once `address`'s frontend accepts the service's search attributes in a query: each node
 * caches namespaces (refreshed every 2 s), and until then refuses a start request naming them.
 */
export async function searchAttributesUsable(address: string, namespace: string): Promise<boolean> {
  const query = Object.keys(searchAttributes)
    .map((name) => `${name} = 'probe'`)
    .join(' AND ');
  return withConnection(address, async (c) => {
    await c.workflowService.countWorkflowExecutions({ namespace, query });
    return true;
  });
}

/** Starts node `index` of `opts.nodes` (schema already set up) and waits until its frontend serves. */
export async function startClusterNode(opts: TemporalClusterOptions, index: number, timeoutMs = opts.readyTimeoutMs ?? 120_000): Promise<RunningTemporalNode> {
  const name = `temporal-${index + 1}`;
  const address = `127.0.0.1:${opts.nodes[index]!.frontendPort}`;
  const spawnNode = async (): Promise<ManagedProcess> => {
    const proc = new ManagedProcess({
      name,
      command: opts.binary,
      args: temporalNodeArgs(opts, index),
      env: databaseEnv(opts.database),
      ...(opts.onLine ? { onLine: (line: string) => opts.onLine!(name, line) } : {}),
    });
    try {
      await waitUntilReady(proc, () => frontendServing(address), timeoutMs, 500);
    } catch (err) {
      await proc.stop();
      throw err;
    }
    return proc;
  };
  const node: RunningTemporalNode = {
    name,
    address,
    historyAddress: historyAddress(opts.nodes[index]!),
    process: await spawnNode(),
    restart: async () => {
      await node.process.stop(15_000);
      node.process = await spawnNode();
    },
    stop: () => node.process.stop(15_000),
  };
  return node;
}

/** Command-line arguments for `temporal-node ui`: on `opts.uiPort`, against the balancer (or the first node's frontend). */
export function temporalUiArgs(opts: TemporalClusterOptions): string[] {
  return ['ui', '--ip', '127.0.0.1', '--port', String(opts.uiPort), '--frontend-address', `127.0.0.1:${opts.balancerPort ?? opts.nodes[0]!.frontendPort}`];
}

/**
 * Starts the Temporal Web UI on `opts.uiPort` as a process of its own, against the balancer (or
 * the first node's frontend), so it keeps serving while any one node is down; resolves once it answers.
 */
export async function startClusterUI(opts: TemporalClusterOptions, timeoutMs = opts.readyTimeoutMs ?? 120_000): Promise<ManagedProcess> {
  if (!opts.uiPort) throw new Error('no uiPort for the Temporal Web UI');
  const proc = new ManagedProcess({
    name: 'temporal-ui',
    command: opts.binary,
    args: temporalUiArgs(opts),
    ...(opts.onLine ? { onLine: (line: string) => opts.onLine!('temporal-ui', line) } : {}),
  });
  const url = `http://127.0.0.1:${opts.uiPort}/`;
  try {
    await waitUntilReady(proc, async () => (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok, timeoutMs, 250);
  } catch (err) {
    await proc.stop();
    throw err;
  }
  return proc;
}

/**
 * Free ports for a cluster on loopback: frontends, balancer and UI anywhere, each node's internal
 * block below 32768 (Linux hands out ephemeral ports from 32768 up, so these rarely collide).
 */
export async function findClusterPorts(nodeCount: number, pickFree: () => Promise<number>): Promise<{ nodes: ClusterNodePorts[]; balancerPort: number; uiPort: number }> {
  const nodes: ClusterNodePorts[] = [];
  for (let i = 0; i < nodeCount; i++) {
    nodes.push({ frontendPort: await pickFree(), portBase: await freeLowBlock(nodes.map((n) => n.portBase)) });
  }
  return { nodes, balancerPort: await pickFree(), uiPort: await pickFree() };
}

async function freeLowBlock(taken: number[]): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const base = 20_000 + Math.floor(Math.random() * 1_200) * 10;
    if (taken.some((t) => Math.abs(t - base) < INTERNAL_PORTS_PER_NODE)) continue;
    let free = true;
    for (let p = base; p < base + INTERNAL_PORTS_PER_NODE && free; p++) free = await isPortFree(p);
    if (free) return base;
  }
  throw new Error('no free block of ports below 32768 for a Temporal node');
}

/** A loopback TCP balancer: each connection goes to the next frontend that accepts it. */
export interface Balancer {
  port: number;
  close: () => Promise<void>;
}

/**
 * Forwards each accepted connection to the frontends in turn, skipping one that refuses: what a
 * load balancer in front of a cluster's frontends does. gRPC keeps a connection open, so a client
 * stays on one frontend until that connection breaks, then reconnects through here to another.
 */
export async function startBalancer(port: number, frontendPorts: number[], host = '127.0.0.1'): Promise<Balancer> {
  let next = 0;
  const sockets = new Set<Socket>();
  const connectUpstream = (client: Socket, tried: number) => {
    if (tried >= frontendPorts.length) {
      client.destroy();
      return;
    }
    const target = frontendPorts[next++ % frontendPorts.length]!;
    const upstream = createConnection({ host, port: target });
    upstream.once('error', () => {
      upstream.destroy();
      if (!client.destroyed) connectUpstream(client, tried + 1);
    });
    upstream.once('connect', () => {
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.removeAllListeners('error');
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  };
  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    connectUpstream(client, 0);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host }, () => resolve());
  });
  return {
    port,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
