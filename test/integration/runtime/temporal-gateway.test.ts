import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { TemporalGateway } from '../../../src/temporal/connection';

// gRPC status code.
const DEADLINE_EXCEEDED = 4;

describe('TemporalGateway', () => {
  const gateways: TemporalGateway[] = [];
  const gateway = (opts?: ConstructorParameters<typeof TemporalGateway>[2]) => {
    const g = new TemporalGateway(inject('temporalAddress'), 'default', opts);
    gateways.push(g);
    return g;
  };
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.close()));
  });

  it('starts workflows (a repeated start is refused), pings, and bounds a start by its deadline', async () => {
    const client = await gateway().client();
    const workflowId = `gateway-test/${randomUUID()}`;
    const options = { taskQueue: `gateway-test-${randomUUID()}`, workflowId };
    const handle = await client.workflow.start('noSuchWorkflow', options);
    try {
      await expect(client.workflow.start('noSuchWorkflow', options)).rejects.toBeInstanceOf(WorkflowExecutionAlreadyStartedError);
      await gateway().ping();

      // A deadline already past when the call goes out: it fails at once, retries included, and starts nothing.
      const hurried = await gateway({ startDeadlineMs: 0 }).client();
      const other = `gateway-test/${randomUUID()}`;
      await expect(hurried.workflow.start('noSuchWorkflow', { ...options, workflowId: other })).rejects.toMatchObject({ cause: { code: DEADLINE_EXCEEDED } });
      await expect(client.workflow.getHandle(other).describe()).rejects.toThrow(/not found/i);
    } finally {
      await handle.terminate('test done');
    }
  });
});
