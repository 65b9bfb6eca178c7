import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { rmSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadStackConfig } from '../../../stack/config/config';
import { eventWorkflowStartOptions } from '../../../src/events/start-options';
import { resolveBinary, temporalCli, temporalNode } from '../../../stack/runtime/binaries';
import { type LocalTemporalCluster, startLocalTemporalCluster } from '../../../stack/runtime/local-temporal-cluster';
import { getFreePort } from '../../../stack/runtime/ports';
import { type ClusterNodePorts, clusterFormed, describeCluster, findClusterPorts, searchAttributesUsable, setupClusterSchema, startBalancer } from '../../../stack/runtime/temporal-cluster';
import { searchAttributes } from '../../../src/temporal/search-attributes';
import { ensureTemporalSetup } from '../../../src/temporal/setup';
import { workflowsPath } from '../../../src/worker/create-worker';
import type { eventWorkflow } from '../../../workflows/event';
import { deliveryStateKey, eventIdKey } from '../../../workflows/search-attributes';
import { eventOutcome } from '../../support/event-workflows';
import { tempDir } from '../../support/servers';
import { waitFor } from '../../support/wait';
import { workerEntryProcess } from '../../support/worker-process';
import { fakeActivities, http } from '../workflows/support/fake-activities';

// Two Temporal nodes on one PostgreSQL, from an empty data directory, as the cluster profile
// starts them: one cluster, the configured shards, the worker's setup, workflows through
// either frontend, and one node killed while the other carries on.

const SHARDS = 8;
const policy = { scheduleMs: [1000], maxAttempts: 2, jitterRatio: 0 };
const cacheDir = loadStackConfig({ BINARY_CACHE_DIR: process.env.BINARY_CACHE_DIR }).binaryCacheDir;
let dir: string;
let cluster: LocalTemporalCluster;
let nodeBinary: string;
let cliBinary: string;
let bundle: WorkflowBundleWithSourceMap;
const startup: { ms: number; load: number[] } = { ms: 0, load: [] };
let ports: { nodes: ClusterNodePorts[]; balancerPort: number; uiPort: number };
let postgresPort: number;

/** The cluster on `dir`, with the ports of the first start. */
function startCluster(shards: number): Promise<LocalTemporalCluster> {
  return startLocalTemporalCluster({
    dataDir: dir,
    ownedRoot: dir,
    cacheDir,
    postgresPort,
    nodes: ports.nodes,
    balancerPort: ports.balancerPort,
    uiPort: ports.uiPort,
    namespace: 'webhooks',
    shards,
    fast: true,
    log: () => {},
  });
}

beforeAll(async () => {
  dir = tempDir('cluster');
  nodeBinary = (await resolveBinary(temporalNode, { cacheDir })).path;
  cliBinary = (await resolveBinary(temporalCli, { cacheDir })).path;
  ports = await findClusterPorts(2, getFreePort);
  postgresPort = await getFreePort();
  const started = Date.now();
  cluster = await startCluster(SHARDS);
  startup.ms = Date.now() - started;
  startup.load = loadavg();
  // Measured, not asserted: printed for bench/README and the report.
  console.log(`cluster of 2 nodes up from an empty data directory in ${startup.ms} ms (load average ${startup.load.map((l) => l.toFixed(2)).join(' ')})`);
  bundle = await bundleWorkflowCode({ workflowsPath, logger: { log: () => {}, info: () => {}, warn: () => {}, error: () => {}, debug: () => {}, trace: () => {} } });
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * `temporal operator cluster describe --detail`, by the CLI the project builds, as JSON; run
 * asynchronously, since the balancer it may go through lives in this process.
 */
async function cliDescribe(address: string): Promise<{ historyShardCount: number; persistenceStore: string; visibilityStore: string }> {
  const { stdout } = await promisify(execFile)(cliBinary, ['operator', 'cluster', 'describe', '--address', address, '--detail', '-o', 'json'], { timeout: 30_000 });
  return JSON.parse(stdout) as never;
}

/** Runs one event workflow to completion with the worker and the client on `address`. */
async function runEventWorkflow(address: string, namespace: string): Promise<{ state: string; eventId: string; searchEventId: unknown; searchState: unknown }> {
  const connection = await Connection.connect({ address });
  const native = await NativeConnection.connect({ address });
  try {
    const client = new Client({ connection, namespace });
    const taskQueue = `cluster-${randomUUID()}`;
    const { activities } = fakeActivities({ attempt: () => http(200) });
    const worker = await Worker.create({ connection: native, namespace, taskQueue, workflowBundle: bundle, activities });
    const run = { eventId: `evt_${randomUUID()}`, eventType: 'order.created', subscriptionIds: ['sub_1'] };
    return await worker.runUntil(async () => {
      const handle = await client.workflow.start<typeof eventWorkflow>('eventWorkflow', eventWorkflowStartOptions(run, { taskQueue, policy, batchSize: 50 }));
      const outcome = await eventOutcome(client, handle.workflowId);
      const described = await handle.describe();
      return { state: outcome.state, eventId: outcome.eventId, searchEventId: described.typedSearchAttributes.get(eventIdKey), searchState: described.typedSearchAttributes.get(deliveryStateKey) };
    });
  } finally {
    await native.close();
    await connection.close();
  }
}

const expectedAttributes = Object.fromEntries(Object.entries(searchAttributes).map(([name, type]) => [name, type === 'Keyword' ? 2 : 7]));

describe('a two-node Temporal cluster on PostgreSQL', () => {
  it('is one cluster: the configured shard count, and both nodes in every ring', async () => {
    expect(cluster.nodes).toHaveLength(2);
    expect(await cliDescribe(cluster.address)).toMatchObject({ historyShardCount: SHARDS, persistenceStore: 'postgres12', visibilityStore: 'postgres12' });
    for (const node of cluster.nodes) {
      const d = await describeCluster(nodeBinary, node.address);
      expect(d.historyShardCount).toBe(SHARDS);
      for (const role of ['frontend', 'history', 'matching', 'worker']) expect(d.rings[role], role).toHaveLength(2);
      expect(d.rings.frontend).toEqual(cluster.nodes.map((n) => n.address).sort());
    }
    expect(cluster.env).toEqual({ TEMPORAL_ADDRESS: cluster.address, TEMPORAL_NAMESPACE: 'webhooks', TEMPORAL_UI_URL: cluster.uiUrl });
    expect(cluster.setup).toEqual({ namespaceCreated: true, added: Object.keys(searchAttributes) });
  });

  it("the worker's setup registers a new namespace and its search attributes through one node; the other sees them", async () => {
    const namespace = `setup-${randomUUID().slice(0, 8)}`;
    const [first, second] = cluster.nodes as [LocalTemporalCluster['nodes'][0], LocalTemporalCluster['nodes'][0]];
    const viaSecond = await Connection.connect({ address: second.address });
    const viaFirst = await Connection.connect({ address: first.address });
    try {
      expect(await ensureTemporalSetup(viaSecond, { namespace })).toEqual({ namespaceCreated: true, added: Object.keys(searchAttributes) });
      expect(await ensureTemporalSetup(viaSecond, { namespace })).toEqual({ namespaceCreated: false, added: [] });
      let seen: Record<string, number> = {};
      await waitFor(async () => {
        const { customAttributes } = await viaFirst.operatorService.listSearchAttributes({ namespace });
        seen = Object.fromEntries(Object.entries(customAttributes ?? {}).map(([k, v]) => [k, Number(v)]));
        return Object.keys(expectedAttributes).every((k) => k in seen);
      }, 60_000, 500);
      expect(seen).toMatchObject(expectedAttributes);
      // Listed is not yet usable: the other node refuses them in a start request until its
      // namespace cache refreshes (every 2 s). Measured, then a workflow that sets them runs there.
      const setUpAt = Date.now();
      await waitFor(() => searchAttributesUsable(first.address, namespace).catch(() => false), 30_000, 100);
      console.log(`search attributes usable through the other node ${Date.now() - setUpAt} ms after setup returned`);
      await expect(runEventWorkflow(first.address, namespace)).resolves.toMatchObject({ state: 'delivered' });
    } finally {
      await viaSecond.close();
      await viaFirst.close();
    }
  });

  it('the worker entry point, given only the cluster’s env, sets up a new namespace and polls', async () => {
    const namespace = `worker-${randomUUID().slice(0, 8)}`;
    const lines: string[] = [];
    const worker = workerEntryProcess(
      {
        ...cluster.env,
        TEMPORAL_NAMESPACE: namespace,
        MONGODB_URI: inject('mongoUri'),
        MONGODB_DB: 'cluster_test',
        TEMPORAL_TASK_QUEUE: `cluster-${randomUUID()}`,
        WORKER_METRICS_PORT: '0',
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
      },
      { onLine: (line) => lines.push(line) },
    );
    try {
      await waitFor(() => lines.some((l) => l.includes('worker polling')), 150_000, 200);
      expect(lines.find((l) => l.includes('temporal namespace set up'))).toContain('"namespaceCreated":true');
      const connection = await Connection.connect({ address: cluster.nodes[1]!.address });
      try {
        const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
        expect(Object.fromEntries(Object.entries(customAttributes ?? {}).map(([k, v]) => [k, Number(v)]))).toMatchObject(expectedAttributes);
      } finally {
        await connection.close();
      }
    } finally {
      await worker.stop();
    }
  }, 180_000);

  it('runs an event workflow to completion through each node’s frontend, and through the balancer', async () => {
    for (const address of [...cluster.nodes.map((n) => n.address), cluster.address]) {
      const result = await runEventWorkflow(address, 'webhooks');
      expect(result, address).toMatchObject({ state: 'delivered', searchState: 'delivered' });
      expect(result.searchEventId).toBe(result.eventId);
    }
  });

  it('serves the Web UI against the cluster, its workflow list filtered by the service’s search attributes', async () => {
    const page = await fetch(cluster.uiUrl!);
    expect(page.status).toBe(200);
    const api = await fetch(`${cluster.uiUrl!}/api/v1/namespaces/webhooks`);
    expect(api.status).toBe(200);
    expect(await api.json()).toMatchObject({ namespaceInfo: { name: 'webhooks' } });
    // The three event workflows of the test before; visibility records lag their workflows a little.
    const query = encodeURIComponent(`WebhookDeliveryState = 'delivered'`);
    let listed = 0;
    await waitFor(async () => {
      const list = await fetch(`${cluster.uiUrl!}/api/v1/namespaces/webhooks/workflows?query=${query}`);
      expect(list.status).toBe(200);
      listed = ((await list.json()) as { executions?: unknown[] }).executions?.length ?? 0;
      return listed >= 3;
    }, 30_000, 500);
    expect(listed).toBeGreaterThanOrEqual(3);
  });

  it('carries on when a node is killed: its shards move and workflows complete through the other; it rejoins', async () => {
    const [first, second] = cluster.nodes as [LocalTemporalCluster['nodes'][0], LocalTemporalCluster['nodes'][0]];
    const allShards = Array.from({ length: SHARDS }, (_, i) => i + 1);
    // Together the nodes own every shard; the ring decides how they split (with random ports, one may own them all).
    const before = await describeCluster(nodeBinary, second.address);
    // A member owning no shard is listed with null.
    const owned = (node: { historyAddress: string }): number[] => (before.historyShards[node.historyAddress] as number[] | null) ?? [];
    expect([...owned(first), ...owned(second)].sort((a, b) => a - b)).toEqual(allShards);
    // The node killed is one that owns shards, so some must move.
    const [victim, survivor] = owned(first).length > 0 ? [first, second] : [second, first];
    expect(owned(victim).length, victim.name).toBeGreaterThan(0);

    // A worker behind a balancer of its own, whose first connection goes to the node about to die,
    // and deliveries in flight: each first attempt fails, its retry waits on a durable timer.
    const balancer = await startBalancer(await getFreePort(), [victim, survivor].map((n) => Number(n.address.split(':')[1])));
    const native = await NativeConnection.connect({ address: `127.0.0.1:${balancer.port}` });
    const client = new Client({ connection: await Connection.connect({ address: survivor.address }), namespace: 'webhooks' });
    const taskQueue = `cluster-kill-${randomUUID()}`;
    const tried = new Set<string>();
    const { activities } = fakeActivities({ attempt: (input) => (tried.has(input.eventId) ? http(200) : (tried.add(input.eventId), http(500))) });
    const worker = await Worker.create({ connection: native, namespace: 'webhooks', taskQueue, workflowBundle: bundle, activities });
    const running = worker.run();
    const inFlight: string[] = [];
    for (let i = 0; i < 4; i++) {
      const run = { eventId: `evt_${randomUUID()}`, eventType: 'order.created', subscriptionIds: ['sub_1'] };
      inFlight.push((await client.workflow.start<typeof eventWorkflow>('eventWorkflow', eventWorkflowStartOptions(run, { taskQueue, policy: { ...policy, scheduleMs: [4000] }, batchSize: 50 }))).workflowId);
    }
    await victim.process.kill();
    // Ringpop notices the dead node and the survivor takes over its shards.
    let after = before;
    await waitFor(async () => {
      after = (await describeCluster(nodeBinary, survivor.address).catch(() => undefined)) ?? before;
      return after.rings.history?.length === 1 && (after.historyShards[survivor.historyAddress]?.length ?? 0) === SHARDS;
    }, 90_000, 500);
    expect(after.historyShards).toEqual({ [survivor.historyAddress]: allShards });
    expect((await cliDescribe(survivor.address)).historyShardCount).toBe(SHARDS);
    // The deliveries in flight complete on the survivor, through the worker that lost its frontend.
    try {
      for (const id of inFlight) await expect(eventOutcome(client, id)).resolves.toMatchObject({ state: 'delivered' });
      expect(tried.size).toBe(inFlight.length);
    } finally {
      worker.shutdown();
      await running;
      await native.close();
      await client.connection.close();
      await balancer.close();
    }
    // Every shard now lives on the survivor, the killed node's among them.
    for (let i = 0; i < 3; i++) await expect(runEventWorkflow(survivor.address, 'webhooks')).resolves.toMatchObject({ state: 'delivered' });
    await expect(runEventWorkflow(cluster.address, 'webhooks')).resolves.toMatchObject({ state: 'delivered' });

    await victim.restart();
    await waitFor(() => clusterFormed(nodeBinary, survivor.address, 2), 90_000, 500);
    await expect(runEventWorkflow(victim.address, 'webhooks')).resolves.toMatchObject({ state: 'delivered' });
  }, 300_000);

  it('restarts on its data: the schema setup is a no-op, and another shard count is refused, naming the fix', async () => {
    await expect(setupClusterSchema(nodeBinary, { host: '127.0.0.1', port: postgresPort, user: 'postgres' })).resolves.toBeUndefined();
    await cluster.stop();
    await expect(startCluster(SHARDS * 2)).rejects.toThrow(`set up with ${SHARDS} history shards`);
    const started = Date.now();
    cluster = await startCluster(SHARDS);
    console.log(`cluster of 2 nodes restarted on its data in ${Date.now() - started} ms (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
    expect(cluster.setup).toEqual({ namespaceCreated: false, added: [] });
    await expect(runEventWorkflow(cluster.address, 'webhooks')).resolves.toMatchObject({ state: 'delivered' });
  }, 300_000);
});
