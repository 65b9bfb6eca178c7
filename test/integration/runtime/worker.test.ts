import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
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
      deps: { db: mongo.db, workerIdentity: 'worker-under-test', allowPrivate: true, timeoutMs: 5000, userAgent: 'test' },
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
});
