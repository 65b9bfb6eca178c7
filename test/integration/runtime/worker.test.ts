import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../../src/config/config';
import { createMongo, type Mongo } from '../../../src/db/mongo';
import { NativeConnection, createWorker } from '../../../src/worker/create-worker';
import type { diagnosticsWorkflow } from '../../../workflows';

describe('worker on the real Temporal dev server', () => {
  let mongo: Mongo;
  beforeAll(() => {
    mongo = createMongo(inject('mongoUri'), 'worker_test', 'worker-test');
  });
  afterAll(async () => {
    await mongo.close();
  });

  it('connects, bundles our workflows and runs the diagnostics workflow through an activity', async () => {
    const taskQueue = `test-${randomUUID()}`;
    const nativeConnection = await NativeConnection.connect({ address: inject('temporalAddress') });
    const worker = await createWorker({
      connection: nativeConnection,
      namespace: 'default',
      taskQueue,
      deps: { db: mongo.db, workerIdentity: 'worker-under-test', allowPrivate: true, timeoutMs: 5000, userAgent: 'test', payloads: loadConfig({}).delivery.payloads },
    });
    const connection = await Connection.connect({ address: inject('temporalAddress') });
    const client = new Client({ connection });
    try {
      const result = await worker.runUntil(
        client.workflow.execute<typeof diagnosticsWorkflow>('diagnosticsWorkflow', { taskQueue, workflowId: `diagnostics-${randomUUID()}` }),
      );
      expect(result).toMatchObject({ worker: 'worker-under-test', database: 'up' });
      expect(result.databaseLatencyMs).toBeGreaterThanOrEqual(0);
    } finally {
      await connection.close();
      await nativeConnection.close();
    }
  });

  it('refuses to start, naming DELIVERY_SOURCE_ADDRESS, when this host cannot bind it', async () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const env = {
      ...process.env,
      MONGODB_URI: inject('mongoUri'),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
      WORKER_METRICS_PORT: '0',
      LOG_FORMAT: 'json',
      // TEST-NET-1: an address no host here has.
      DELIVERY_SOURCE_ADDRESS: '192.0.2.1',
    };
    const exit = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', 'src/entry/worker.ts'], { cwd: root, env, timeout: 60_000 }, (err, stdout) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout });
      });
    });
    expect(exit.code).toBe(1);
    expect(exit.stdout).toContain('DELIVERY_SOURCE_ADDRESS 192.0.2.1 cannot be bound on this host (EADDRNOTAVAIL)');
  });
});
