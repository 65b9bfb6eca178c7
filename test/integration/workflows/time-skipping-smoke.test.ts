import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTimeSkippingEnv } from '../../support/time-skipping';
import type { sleepyWorkflow } from './fixtures/sleepy';

const workflowsPath = fileURLToPath(new URL('./fixtures/sleepy.ts', import.meta.url));
const twoHoursMs = 2 * 60 * 60_000;

describe('Temporal time-skipping test server', () => {
  let env: TestWorkflowEnvironment | undefined;
  beforeAll(async () => {
    const started = Date.now();
    env = await createTimeSkippingEnv();
    console.log(`time-skipping test server up in ${Date.now() - started}ms at ${env.address}`);
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('runs a workflow through a two-hour timer without waiting two hours', async () => {
    const testEnv = env!;
    const taskQueue = `time-skipping-${randomUUID()}`;
    const bundleStarted = Date.now();
    const worker = await Worker.create({ connection: testEnv.nativeConnection, taskQueue, workflowsPath });
    console.log(`worker (workflow bundle) created in ${Date.now() - bundleStarted}ms`);
    const serverTimeBefore = await testEnv.currentTimeMs();
    const started = Date.now();
    const result = await worker.runUntil(
      testEnv.client.workflow.execute<typeof sleepyWorkflow>('sleepyWorkflow', { taskQueue, workflowId: `sleepy-${randomUUID()}` }),
    );
    // Real time is printed, never asserted: the proof is the workflow clock.
    console.log(`two hours of workflow time took ${Date.now() - started}ms of real time`);
    expect(result.finishedAt - result.startedAt).toBeGreaterThanOrEqual(twoHoursMs);
    expect((await testEnv.currentTimeMs()) - serverTimeBefore).toBeGreaterThanOrEqual(twoHoursMs);
  });
});
