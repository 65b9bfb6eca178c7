import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyRepository } from '../../../src/auth/api-keys';
import { prepareDatabase } from '../../../src/db/indexes';
import { createMongo } from '../../../src/db/mongo';
import { resolveBinary, temporalNode } from '../../../stack/runtime/binaries';
import { privateStackConfig, type Stack, startStack } from '../../../stack/runtime/stack';
import { describeCluster } from '../../../stack/runtime/temporal-cluster';
import { seedDemoData } from '../../../src/seed/seed';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

// LOCAL_STACK=cluster through the one launcher, from an empty data directory: PostgreSQL, the
// schema, two Temporal nodes, the balancer, the namespace, FerretDB, an API and a worker; then
// an order's webhook delivered with no step by hand. A non-default shard count proves TEMPORAL_SHARDS.

const SHARDS = 4;
let stack: Stack;
let dataDir = '';
let apiKey = '';
let receiver: TestReceiver;

beforeAll(async () => {
  const config = await privateStackConfig(
    { LOCAL_STACK: 'cluster', TEMPORAL_SHARDS: String(SHARDS), TEMPORAL_NAMESPACE: 'webhooks', BINARY_CACHE_DIR: process.env.BINARY_CACHE_DIR, POSTGRES_BIN_DIR: process.env.POSTGRES_BIN_DIR },
    'webhook-cluster-stack-test',
  );
  dataDir = config.dataDir;
  receiver = await startReceiver((_req, res) => res.writeHead(200).end());
  const started = Date.now();
  stack = await startStack({
    config,
    apis: 1,
    workers: 1,
    freePorts: true,
    fastSqlite: true,
    // As under `LOCAL_STACK=cluster npm start`: the API and worker inherit the variable.
    baseEnv: { ...process.env, LOCAL_STACK: 'cluster' },
    log: () => {},
    serviceEnv: { LOG_LEVEL: 'warn', CALLBACK_ALLOW_PRIVATE: 'true', SEED_DEMO_DATA: 'false', MONGODB_DB: 'cluster_stack_test' },
    beforeServices: async (servers) => {
      const mongo = createMongo(servers.env.MONGODB_URI!, 'cluster_stack_test', 'cluster-stack-test');
      try {
        await prepareDatabase(mongo.db);
        await seedDemoData(mongo.db);
        ({ key: apiKey } = await new ApiKeyRepository(mongo.db).create({ ownerId: 'test', name: 'test', scopes: ['orders:write', 'resources:read', 'webhooks:read', 'webhooks:write'] }));
      } finally {
        await mongo.close();
      }
    },
  });
  // Measured, not asserted.
  console.log(`cluster stack up from an empty data directory in ${Date.now() - started} ms (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
}, 420_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 180_000);

describe('the cluster profile of the launcher', () => {
  it('starts PostgreSQL, two Temporal nodes and the database as parts, and the API is ready', async () => {
    expect(stack.serverParts.map((p) => p.name)).toEqual(expect.arrayContaining(['postgres', 'temporal-1', 'temporal-2']));
    expect(stack.serverParts.map((p) => p.name)).not.toContain('temporal');
    expect((await fetch(`${stack.apis[0]!.url}/readyz`)).status).toBe(200);
    expect(stack.servers.env.TEMPORAL_ADDRESS).toBe(stack.config.temporal.connectAddress);
  });

  it('is one cluster of two members with the configured shard count, seen through the balancer', async () => {
    const binary = (await resolveBinary(temporalNode, { cacheDir: stack.config.binaryCacheDir })).path;
    const d = await describeCluster(binary, stack.servers.env.TEMPORAL_ADDRESS!);
    expect(d.historyShardCount).toBe(SHARDS);
    expect(d.persistenceStore).toBe('postgres12');
    for (const role of ['frontend', 'history', 'matching', 'worker']) expect(d.rings[role], role).toHaveLength(2);
    // Every shard is owned (right after start one member may still own them all: null for the other).
    expect(Object.values(d.historyShards).flatMap((s) => s ?? []).sort((a, b) => a - b)).toEqual(Array.from({ length: SHARDS }, (_, i) => i + 1));
  });

  it('serves the Temporal Web UI against the cluster', async () => {
    const api = await fetch(`${stack.servers.temporalUiUrl!}/api/v1/namespaces/webhooks`);
    expect(api.status).toBe(200);
    expect(await api.json()).toMatchObject({ namespaceInfo: { name: 'webhooks' } });
  });

  it("delivers an order's webhook to a loopback receiver with no manual step", async () => {
    const base = stack.apis[0]!.url;
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const sub = await fetch(`${base}/api/webhooks/v1/subscribe`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url, events: ['order.created'] }) });
    expect(sub.status).toBe(201);
    const order = await fetch(`${base}/api/orders/`, { method: 'POST', headers, body: JSON.stringify({ user_id: 1, items: [{ product_id: 1, quantity: 1 }] }) });
    expect(order.status).toBe(201);
    const { id } = (await order.json()) as { id: number };
    await waitFor(() => receiver.received.length > 0, 120_000, 250);
    const delivered = JSON.parse(receiver.received[0]!.body) as { event: string; data: { order_id: number } };
    expect(delivered).toMatchObject({ event: 'order.created', data: { order_id: id } });
    expect(receiver.received[0]!.headers['webhook-signature']).toBeTruthy();
  }, 180_000);

  it('kills a Temporal node and PostgreSQL as parts and starts them again; the UI and deliveries go on', async () => {
    const binary = (await resolveBinary(temporalNode, { cacheDir: stack.config.binaryCacheDir })).path;
    const address = stack.servers.env.TEMPORAL_ADDRESS!;
    const node = stack.part('temporal-1');
    await node.kill();
    expect(node.pid).toBeUndefined();
    // The survivor takes over every shard, seen through the balancer.
    await waitFor(async () => {
      const d = await describeCluster(binary, address).catch(() => undefined);
      return d?.rings.history?.length === 1 && Object.values(d.historyShards).flatMap((x) => x ?? []).length === SHARDS;
    }, 120_000, 500);
    // The Web UI is a part of its own against the balancer: it still answers with node 1 down.
    expect(stack.serverParts.map((p) => p.name)).toContain('temporal-ui');
    const ui = await fetch(`${stack.servers.temporalUiUrl!}/api/v1/namespaces/webhooks`);
    expect(ui.status).toBe(200);
    await node.start();
    await waitFor(async () => (await describeCluster(binary, address).catch(() => undefined))?.rings.history?.length === 2, 120_000, 500);

    const postgres = stack.part('postgres');
    await postgres.kill();
    await postgres.start();
    await waitFor(async () => (await fetch(`${stack.apis[0]!.url}/readyz`).then((r) => r.status, () => 0)) === 200, 120_000, 500);

    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const before = receiver.received.length;
    const order = await fetch(`${stack.apis[0]!.url}/api/orders/`, { method: 'POST', headers, body: JSON.stringify({ user_id: 2, items: [{ product_id: 2, quantity: 1 }] }) });
    expect(order.status).toBe(201);
    const { id } = (await order.json()) as { id: number };
    await waitFor(() => receiver.received.slice(before).some((r) => (JSON.parse(r.body) as { data: { order_id: number } }).data.order_id === id), 120_000, 250);
  }, 360_000);
});
