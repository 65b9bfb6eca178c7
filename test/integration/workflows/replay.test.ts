// Replays recorded deliveryWorkflow histories (test/fixtures/histories/, written by
// `npm run histories:record`) against the current workflow code.
//
// When a workflow change makes this fail, that change would break workflows already running in
// production (deliveries sleep for hours between attempts): version it with `patched()` from
// @temporalio/workflow instead of re-recording the histories. Re-record only when no execution
// of the old shape can exist in production any more (all have completed, or none was deployed).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultPayloadConverter } from '@temporalio/common';
import { bundleWorkflowCode, Runtime, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { beforeAll, describe, expect, it } from 'vitest';
import { workflowsPath } from '../../../src/worker/create-worker';
import type { DeliveryStatus } from '../../../workflows/delivery';
import { type History, historyFromJSON } from './support/history-json';

const historiesDir = fileURLToPath(new URL('../../fixtures/histories/', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** The recorded scenarios and how each delivery ended. */
const expectedEnds: Record<string, DeliveryStatus['state']> = {
  'delivery-4xx.json': 'stopped',
  'delivery-exhausted.json': 'failed',
  'delivery-retry-then-success.json': 'delivered',
  'delivery-success.json': 'delivered',
};
const files = Object.keys(expectedEnds);

function loadHistory(file: string): History {
  return historyFromJSON(JSON.parse(readFileSync(join(historiesDir, file), 'utf8')));
}

/** The workflow's return value, from the history's completion event. */
function completedResult(history: History): DeliveryStatus {
  const last = history.events?.at(-1);
  const payload = last?.workflowExecutionCompletedEventAttributes?.result?.payloads?.[0];
  if (!payload) throw new Error('history does not end with a completed workflow');
  return defaultPayloadConverter.fromPayload<DeliveryStatus>(payload);
}

const bundle = (path: string): Promise<WorkflowBundleWithSourceMap> => bundleWorkflowCode({ workflowsPath: path, logger: Runtime.instance().logger });

describe('deliveryWorkflow replays its recorded histories', () => {
  let current: WorkflowBundleWithSourceMap;
  beforeAll(async () => {
    current = await bundle(workflowsPath);
  });

  it('has the four recorded scenarios', () => {
    expect(readdirSync(historiesDir).filter((f) => f.endsWith('.json')).sort()).toEqual([...files].sort());
  });

  it.each(files)('replays %s without a determinism error', async (file) => {
    const history = loadHistory(file);
    expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('deliveryWorkflow');
    expect(completedResult(history).state).toBe(expectedEnds[file]);
    await expect(Worker.runReplayHistory({ workflowBundle: current }, history, file)).resolves.toBeUndefined();
  });
});

// The SDK core logs a "[TMPRL1100] Nondeterminism error" WARN per history here: expected.
describe('replay catches a change that would break running deliveries', () => {
  it('fails on an unversioned change to the command sequence', async () => {
    const changed = await bundle(fixture('unversioned-change.ts'));
    for (const file of files) {
      await expect(Worker.runReplayHistory({ workflowBundle: changed }, loadHistory(file), file), file).rejects.toBeInstanceOf(
        DeterminismViolationError,
      );
    }
  });

  it('passes when the same change is versioned with patched()', async () => {
    const patched = await bundle(fixture('patched-change.ts'));
    for (const file of files) {
      await expect(Worker.runReplayHistory({ workflowBundle: patched }, loadHistory(file), file), file).resolves.toBeUndefined();
    }
  });
});
