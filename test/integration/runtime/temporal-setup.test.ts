import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eventWorkflowStartOptions } from '../../../src/events/start-options';
import { searchAttributes } from '../../../src/temporal/search-attributes';
import { ensureTemporalSetup } from '../../../src/temporal/setup';
import { workflowsPath } from '../../../src/worker/create-worker';
import type { eventWorkflow } from '../../../workflows/event';
import { deliveryStateKey, eventIdKey } from '../../../workflows/search-attributes';
import { eventOutcome } from '../../support/event-workflows';
import { type PrivateTemporal, startPrivateTemporal, tempDir } from '../../support/servers';
import { waitFor } from '../../support/wait';
import { workerEntryProcess } from '../../support/worker-process';
import { fakeActivities, http } from '../workflows/support/fake-activities';

// A Temporal server like a fresh cluster: no search attributes, no namespace but `default`.
// Setup must make it usable with no manual step, and say nothing the second time.

const policy = { scheduleMs: [1000], maxAttempts: 2, jitterRatio: 0 };
let dir: string;
let temporal: PrivateTemporal;
let connection: Connection;

beforeAll(async () => {
  dir = tempDir('setup');
  temporal = await startPrivateTemporal(join(dir, 'temporal.sqlite'), undefined, { bare: true });
  connection = await Connection.connect({ address: temporal.address });
}, 90_000);

afterAll(async () => {
  await connection?.close();
  await temporal?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The custom search attributes of `namespace`, as `name=IndexedValueType`. */
async function customAttributes(namespace: string): Promise<Record<string, number>> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  return Object.fromEntries(Object.entries(customAttributes ?? {}).map(([k, v]) => [k, Number(v)]));
}

const expected = Object.fromEntries(Object.entries(searchAttributes).map(([name, type]) => [name, type === 'Keyword' ? 2 : 7]));

describe('Temporal setup on a server without the namespace or the search attributes', () => {
  it('creates both, a second run is a no-op, and an event workflow then runs with its attributes', async () => {
    const namespace = `setup-${randomUUID().slice(0, 8)}`;
    expect(await customAttributes('default')).not.toHaveProperty('WebhookEventId');

    expect(await ensureTemporalSetup(connection, { namespace })).toEqual({ namespaceCreated: true, added: Object.keys(searchAttributes) });
    await connection.workflowService.describeNamespace({ namespace });
    expect(await customAttributes(namespace)).toMatchObject(expected);
    expect(await ensureTemporalSetup(connection, { namespace })).toEqual({ namespaceCreated: false, added: [] });

    const client = new Client({ connection, namespace });
    const taskQueue = `setup-${randomUUID()}`;
    const { activities, calls } = fakeActivities({ attempt: () => http(200) });
    const native = await NativeConnection.connect({ address: temporal.address });
    const worker = await Worker.create({ connection: native, namespace, taskQueue, workflowsPath, activities });
    const run = { eventId: `evt_${randomUUID()}`, eventType: 'order.created', subscriptionIds: ['sub_1'] };
    const outcome = await worker.runUntil(async () => {
      const handle = await client.workflow.start<typeof eventWorkflow>('eventWorkflow', eventWorkflowStartOptions(run, { taskQueue, policy, batchSize: 50 }));
      return { outcome: await eventOutcome(client, handle.workflowId), described: await handle.describe() };
    }).finally(() => native.close());
    expect(outcome.outcome).toMatchObject({ eventId: run.eventId, state: 'delivered' });
    expect(outcome.described.typedSearchAttributes.get(eventIdKey)).toBe(run.eventId);
    expect(outcome.described.typedSearchAttributes.get(deliveryStateKey)).toBe('delivered');
    expect(calls.attempts).toHaveLength(1);
  }, 120_000);

  it('the worker entry point sets up its namespace at start, with no manual step', async () => {
    const namespace = `worker-${randomUUID().slice(0, 8)}`;
    const lines: string[] = [];
    const worker = workerEntryProcess(
      {
        MONGODB_URI: inject('mongoUri'),
        MONGODB_DB: 'setup_test',
        TEMPORAL_ADDRESS: temporal.address,
        TEMPORAL_NAMESPACE: namespace,
        TEMPORAL_TASK_QUEUE: `setup-${randomUUID()}`,
        WORKER_METRICS_PORT: '0',
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
      },
      { onLine: (line) => lines.push(line) },
    );
    try {
      await waitFor(() => lines.some((l) => l.includes('worker polling')), 90_000, 200);
      expect(lines.find((l) => l.includes('temporal namespace set up'))).toContain('"namespaceCreated":true');
      expect(await customAttributes(namespace)).toMatchObject(expected);
    } finally {
      await worker.stop();
    }
  }, 120_000);
});
