import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { startPrivateMongo, startPrivateTemporal, tempDir } from '../../support/servers';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('embedded servers keep their data across a restart', () => {
  it('MongoDB-wire database: a document written before a restart is read after it', async () => {
    const dataDir = tempDir('mongo-restart');
    dirs.push(dataDir);
    const first = await startPrivateMongo(dataDir);
    const port = Number(new URL(first.uri).port);
    const doc = { _id: 'persisted', note: `written at ${new Date().toISOString()}` };
    const writer = new MongoClient(first.uri);
    await writer.db('restart_test').collection<typeof doc>('things').insertOne({ ...doc });
    await writer.close();
    await first.stop();
    expect(first.process.hasExited).toBe(true);

    const second = await startPrivateMongo(dataDir, port);
    try {
      const reader = new MongoClient(second.uri);
      const found = await reader.db('restart_test').collection<typeof doc>('things').findOne({ _id: 'persisted' });
      await reader.close();
      expect(found).toEqual(doc);
    } finally {
      await second.stop();
    }
  });

  it('Temporal dev server: a workflow started before a restart still exists after it', async () => {
    const dir = tempDir('temporal-restart');
    dirs.push(dir);
    const dbFile = join(dir, 'temporal.sqlite');
    const first = await startPrivateTemporal(dbFile);
    const port = Number(first.address.split(':')[1]);
    const workflowId = `restart-probe-${Date.now()}`;
    let connection = await Connection.connect({ address: first.address });
    // No worker serves this queue: the workflow simply waits, as a sleeping delivery would.
    await new Client({ connection }).workflow.start('notRegistered', { taskQueue: 'restart-probe', workflowId });
    await connection.close();
    await first.stop();

    const second = await startPrivateTemporal(dbFile, port);
    try {
      connection = await Connection.connect({ address: second.address });
      const description = await new Client({ connection }).workflow.getHandle(workflowId).describe();
      await connection.close();
      expect(description.status.name).toBe('RUNNING');
      expect(description.taskQueue).toBe('restart-probe');
    } finally {
      await second.stop();
    }
  });
});
