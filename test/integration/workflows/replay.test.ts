// Replays recorded workflow histories (test/fixtures/histories/, written by
// `npm run histories:record`) against the current workflow code: `<scenario>.json` as workers
// before the patches ran it, `<scenario>-v2.json` as the current code does.
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
import type { EventResult } from '../../../workflows/event';
import { type History, historyFromJSON } from './support/history-json';

const historiesDir = fileURLToPath(new URL('../../fixtures/histories/', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

type Recorded =
  | { workflow: 'deliveryWorkflow'; /** How the delivery ended. */ state: DeliveryStatus['state'] }
  | { workflow: 'eventWorkflow'; result: EventResult };

const eventChildren = (eventId: string) => ['a', 'b'].map((s) => `delivery/${eventId}/sub_history_${s}`);

/** The recorded scenarios, each in both shapes, and what each workflow returned. */
const recorded: Record<string, Recorded> = {
  'delivery-4xx.json': { workflow: 'deliveryWorkflow', state: 'stopped' },
  'delivery-exhausted.json': { workflow: 'deliveryWorkflow', state: 'failed' },
  'delivery-retry-then-success.json': { workflow: 'deliveryWorkflow', state: 'delivered' },
  'delivery-success.json': { workflow: 'deliveryWorkflow', state: 'delivered' },
  // Recorded with the code from before 'event-returns-once-children-started': it awaited its deliveries.
  'event-fan-out.json': { workflow: 'eventWorkflow', result: { delivered: 1, stopped: 1 } },
  // Since 'attempt-records-itself': one local activity per attempt.
  'delivery-4xx-v2.json': { workflow: 'deliveryWorkflow', state: 'stopped' },
  'delivery-exhausted-v2.json': { workflow: 'deliveryWorkflow', state: 'failed' },
  'delivery-retry-then-success-v2.json': { workflow: 'deliveryWorkflow', state: 'delivered' },
  'delivery-success-v2.json': { workflow: 'deliveryWorkflow', state: 'delivered' },
  // Since 'event-returns-once-children-started': it returns once its deliveries started.
  'event-fan-out-v2.json': { workflow: 'eventWorkflow', result: { started: 2, children: eventChildren('evt_history_event-fan-out-v2') } },
};
const files = Object.keys(recorded);
/** The fixtures below wrap deliveryWorkflow only. */
const deliveryFiles = files.filter((f) => recorded[f]!.workflow === 'deliveryWorkflow');

function loadHistory(file: string): History {
  return historyFromJSON(JSON.parse(readFileSync(join(historiesDir, file), 'utf8')));
}

/** The workflow's return value, from the history's completion event. */
function completedResult<T>(history: History): T {
  const last = history.events?.at(-1);
  const payload = last?.workflowExecutionCompletedEventAttributes?.result?.payloads?.[0];
  if (!payload) throw new Error('history does not end with a completed workflow');
  return defaultPayloadConverter.fromPayload<T>(payload);
}

/** Whether the history records the patch (a marker, written only by code that took the new branch). */
function hasPatchMarker(history: History, patchId: string): boolean {
  return (history.events ?? []).some((e) => {
    const attrs = e.markerRecordedEventAttributes;
    if (attrs?.markerName !== 'core_patch') return false;
    // Core's marker: details 'patch-data' = { id, deprecated }.
    const data = attrs.details?.['patch-data']?.payloads?.[0];
    return data ? defaultPayloadConverter.fromPayload<{ id: string }>(data).id === patchId : false;
  });
}

const patchOf = { deliveryWorkflow: 'attempt-records-itself', eventWorkflow: 'event-returns-once-children-started' } as const;

const bundle = (path: string): Promise<WorkflowBundleWithSourceMap> => bundleWorkflowCode({ workflowsPath: path, logger: Runtime.instance().logger });

describe('the workflows replay their recorded histories', () => {
  let current: WorkflowBundleWithSourceMap;
  beforeAll(async () => {
    current = await bundle(workflowsPath);
  });

  it('has every recorded scenario, in both shapes', () => {
    expect(readdirSync(historiesDir).filter((f) => f.endsWith('.json')).sort()).toEqual([...files].sort());
  });

  it.each(files)('replays %s without a determinism error', async (file) => {
    const history = loadHistory(file);
    const expected = recorded[file]!;
    expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe(expected.workflow);
    // Old shapes must come from the old branch, new ones from the new: else this proves nothing.
    expect(hasPatchMarker(history, patchOf[expected.workflow])).toBe(file.endsWith('-v2.json'));
    if (expected.workflow === 'deliveryWorkflow') expect(completedResult<DeliveryStatus>(history).state).toBe(expected.state);
    else expect(completedResult<EventResult>(history)).toEqual(expected.result);
    await expect(Worker.runReplayHistory({ workflowBundle: current }, history, file)).resolves.toBeUndefined();
  });
});

// The SDK core logs a "[TMPRL1100] Nondeterminism error" WARN per history here: expected.
describe('replay catches a change that would break running deliveries', () => {
  it('fails on an unversioned change to the command sequence', async () => {
    const changed = await bundle(fixture('unversioned-change.ts'));
    for (const file of deliveryFiles) {
      await expect(Worker.runReplayHistory({ workflowBundle: changed }, loadHistory(file), file), file).rejects.toBeInstanceOf(
        DeterminismViolationError,
      );
    }
  });

  it('passes when the same change is versioned with patched()', async () => {
    const patched = await bundle(fixture('patched-change.ts'));
    for (const file of deliveryFiles) {
      await expect(Worker.runReplayHistory({ workflowBundle: patched }, loadHistory(file), file), file).resolves.toBeUndefined();
    }
  });
});
