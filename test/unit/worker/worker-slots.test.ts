import { ResourceBasedController } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config';
import { MIN_WORKFLOW_SLOTS, workerSlots } from '../../../src/worker/create-worker';

describe('worker slots', () => {
  it('bounds workflow task slots by the CPU target, between the minimum and the concurrency', () => {
    const controller = ResourceBasedController.create({ targetCpuUsage: 0.8, targetMemoryUsage: 0.9 });
    const { tuner, maxConcurrentWorkflowTaskExecutions } = workerSlots(200, controller);
    expect(maxConcurrentWorkflowTaskExecutions).toBeUndefined();
    expect(tuner).toMatchObject({
      workflowTaskSlotSupplier: { type: 'resource-based', controller, minimumSlots: MIN_WORKFLOW_SLOTS, maximumSlots: 200 },
      localActivityTaskSlotSupplier: { type: 'fixed-size', numSlots: 200 },
    });
    expect(workerSlots(8, controller).tuner).toMatchObject({ workflowTaskSlotSupplier: { minimumSlots: 8, maximumSlots: 8 } });
  });

  it('keeps fixed slots without a CPU target', () => {
    expect(workerSlots(200, undefined)).toEqual({ maxConcurrentWorkflowTaskExecutions: 200, maxConcurrentLocalActivityExecutions: 200 });
  });

  it('keeps fixed slots by default; WORKER_TARGET_CPU sets a target, above 1 is refused', () => {
    expect(loadConfig({}).delivery.workerTargetCpu).toBe(0);
    expect(loadConfig({ WORKER_TARGET_CPU: '0.8' }).delivery.workerTargetCpu).toBe(0.8);
    expect(() => loadConfig({ WORKER_TARGET_CPU: '1.5' })).toThrow(/WORKER_TARGET_CPU/);
  });
});
