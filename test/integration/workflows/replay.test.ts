// Replays the committed workflow histories (test/fixtures/histories/, written by
// `npm run histories:record`) against the current workflow code.
//
// Since 1.0, when a workflow change makes this fail, that change would break workflows already
// running in production (deliveries sleep for hours between attempts): version it with
// `patched()` from @temporalio/workflow, and record its new shape under a new name. Committed
// histories are never re-recorded or removed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultPayloadConverter } from '@temporalio/common';
import { bundleWorkflowCode, Runtime, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { beforeAll, describe, expect, it } from 'vitest';
import { workflowsPath } from '../../../src/worker/create-worker';
import type { EventDeliveryStatus } from '../../../workflows/delivery-model';
import type { RetentionResult } from '../../../workflows/retention';
import { historyScenarios, recordedWorkflowId } from './support/history-scenarios';
import { recordedRetentionWorkflowId, retentionHistoryScenarios } from './support/retention-history-scenarios';
import { drainCloses, drainHistoryScenarios, recordedDrainWorkflowId } from './support/drain-history-scenarios';
import type { DrainResult } from '../../../workflows/drain';
import { type History, historyFromJSON } from './support/history-json';

const historiesDir = fileURLToPath(new URL('../../fixtures/histories/', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const names = Object.keys(historyScenarios);
const retentionNames = Object.keys(retentionHistoryScenarios);
const drainNames = Object.keys(drainHistoryScenarios);

function loadHistory(name: string): History {
  return historyFromJSON(JSON.parse(readFileSync(join(historiesDir, `${name}.json`), 'utf8')));
}

/** How the recorded workflow closed, and the status it closed with (its result, or its DeliveryFailed details). */
function closing(history: History): { closes: 'completed' | 'failed'; status: EventDeliveryStatus } {
  const last = history.events?.at(-1);
  const completed = last?.workflowExecutionCompletedEventAttributes?.result?.payloads?.[0];
  if (completed) return { closes: 'completed', status: defaultPayloadConverter.fromPayload<EventDeliveryStatus>(completed) };
  const failure = last?.workflowExecutionFailedEventAttributes?.failure;
  const details = failure?.applicationFailureInfo?.details?.payloads?.[0];
  if (failure?.applicationFailureInfo?.type === 'DeliveryFailed' && details) {
    return { closes: 'failed', status: defaultPayloadConverter.fromPayload<EventDeliveryStatus>(details) };
  }
  throw new Error('history does not end with a completed workflow or a DeliveryFailed failure');
}

// As the worker bundles its code: preloaded (see preloadModules).
const bundle = (path: string): Promise<WorkflowBundleWithSourceMap> => bundleWorkflowCode({ workflowsPath: path, preloadModules: [path], logger: Runtime.instance().logger });

describe('the event workflow replays every committed history', () => {
  let current: WorkflowBundleWithSourceMap;
  beforeAll(async () => {
    current = await bundle(workflowsPath);
  });

  it('has a history for every recorded scenario, and no other', () => {
    expect(readdirSync(historiesDir).filter((f) => f.endsWith('.json')).sort()).toEqual([...names, ...retentionNames, ...drainNames].map((n) => `${n}.json`).sort());
  });

  it.each(names)('replays %s without a determinism error', async (name) => {
    const history = loadHistory(name);
    const scenario = historyScenarios[name]!;
    expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('eventWorkflow');
    // The history is the scenario's: it closed as recorded, each delivery ending as expected.
    const { closes, status } = closing(history);
    expect(closes).toBe(scenario.closes);
    const ends = Object.fromEntries(Object.entries(status.subscriptions).map(([id, s]) => [id.replace(/^sub_history_/, ''), s.state]));
    const expected = scenario.keep === 'part-1' ? Object.fromEntries(Object.entries(scenario.expected).slice(0, scenario.batchSize)) : scenario.expected;
    expect(ends).toEqual(expected);
    await expect(Worker.runReplayHistory({ workflowBundle: current }, history, recordedWorkflowId(name))).resolves.toBeUndefined();
  });
});

describe('the retention workflow replays every committed history', () => {
  let current: WorkflowBundleWithSourceMap;
  beforeAll(async () => {
    current = await bundle(workflowsPath);
  });

  it.each(retentionNames)('replays %s without a determinism error', async (name) => {
    const history = loadHistory(name);
    const scenario = retentionHistoryScenarios[name]!;
    expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('retentionWorkflow');
    // The history is the scenario's: it closed as recorded.
    const last = history.events?.at(-1);
    if (scenario.closes === 'continued-as-new') {
      expect(last?.workflowExecutionContinuedAsNewEventAttributes?.workflowType?.name).toBe('retentionWorkflow');
    } else {
      const result = last?.workflowExecutionCompletedEventAttributes?.result?.payloads?.[0];
      expect(result && defaultPayloadConverter.fromPayload<RetentionResult>(result).deleted).toEqual(scenario.expected);
    }
    await expect(Worker.runReplayHistory({ workflowBundle: current }, history, recordedRetentionWorkflowId(name))).resolves.toBeUndefined();
  });

  it('fails on an unversioned change to its command sequence', async () => {
    const changed = await bundle(fixture('unversioned-retention-change.ts'));
    for (const name of retentionNames) {
      await expect(Worker.runReplayHistory({ workflowBundle: changed }, loadHistory(name), recordedRetentionWorkflowId(name)), name).rejects.toBeInstanceOf(DeterminismViolationError);
    }
  });
});

describe('the drain workflow replays every committed history', () => {
  let current: WorkflowBundleWithSourceMap;
  beforeAll(async () => {
    current = await bundle(workflowsPath);
  });

  it.each(drainNames)('replays %s without a determinism error', async (name) => {
    const history = loadHistory(name);
    const scenario = drainHistoryScenarios[name]!;
    expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('drainWorkflow');
    const last = history.events?.at(-1);
    if (drainCloses(scenario) === 'continued-as-new') {
      expect(last?.workflowExecutionContinuedAsNewEventAttributes?.workflowType?.name).toBe('drainWorkflow');
    } else {
      const result = last?.workflowExecutionCompletedEventAttributes?.result?.payloads?.[0];
      expect(result && defaultPayloadConverter.fromPayload<DrainResult>(result)).toMatchObject({ ended: scenario.expected });
    }
    await expect(Worker.runReplayHistory({ workflowBundle: current }, history, recordedDrainWorkflowId(name))).resolves.toBeUndefined();
  });
});

describe('a drain gives a page its go only once the page exists', () => {
  // A turn passed to a run whose start the server has not made yet is refused: the first run must not go before the others exist.
  it('signals the first run of a page after every run of the page has started, and starts each run waiting for its turn', () => {
    const events = loadHistory('drain-page-go').events ?? [];
    const initiated = events.flatMap((e, i) => (e.startChildWorkflowExecutionInitiatedEventAttributes ? [{ i, attrs: e.startChildWorkflowExecutionInitiatedEventAttributes }] : []));
    const startedAt = new Map(events.flatMap((e, i) => (e.childWorkflowExecutionStartedEventAttributes ? [[e.childWorkflowExecutionStartedEventAttributes.workflowExecution?.workflowId, i] as const] : [])));
    const signalled = events.flatMap((e, i) => (e.signalExternalWorkflowExecutionInitiatedEventAttributes ? [{ i, to: e.signalExternalWorkflowExecutionInitiatedEventAttributes.workflowExecution?.workflowId }] : []));
    const pages = drainHistoryScenarios['drain-page-go']!.pages;
    expect(initiated).toHaveLength(pages.reduce((a, b) => a + b, 0));
    let from = 0;
    for (const size of pages) {
      const page = initiated.slice(from, from + size).map((c) => c.attrs.workflowId);
      from += size;
      const go = signalled.find((s) => s.to === page[0]);
      expect(go, `the go of ${page[0]}`).toBeDefined();
      for (const run of page) expect(startedAt.get(run), `${run} started before the go`).toBeLessThan(go!.i);
    }
    for (const { attrs } of initiated) {
      const input = defaultPayloadConverter.fromPayload<{ turn?: { wait: boolean } }>(attrs.input!.payloads![0]!);
      expect(input.turn?.wait).toBe(true);
    }
  });
});

// The SDK core logs a "[TMPRL1100] Nondeterminism error" WARN per history here: expected.
describe('replay catches a change that would break running deliveries', () => {
  it('fails on an unversioned change to the command sequence', async () => {
    const changed = await bundle(fixture('unversioned-change.ts'));
    for (const name of names) {
      await expect(Worker.runReplayHistory({ workflowBundle: changed }, loadHistory(name), recordedWorkflowId(name)), name).rejects.toBeInstanceOf(DeterminismViolationError);
    }
  });

  it('passes when the same change is versioned with patched()', async () => {
    const patched = await bundle(fixture('patched-change.ts'));
    for (const name of names) {
      await expect(Worker.runReplayHistory({ workflowBundle: patched }, loadHistory(name), recordedWorkflowId(name)), name).resolves.toBeUndefined();
    }
  });
});
