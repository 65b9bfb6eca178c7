// Records workflow histories for the replay tests (test/integration/workflows/replay.test.ts):
// the real event and retention workflows on the Temporal time-skipping test server, with scripted
// fake activities.
//
//   npm run histories:record                     records every missing history file
//   npm run histories:record -- event-mixed      only these (file names without .json)
//   npm run histories:record -- --force NAME...  re-records existing files too
//   npm run histories:record -- --out DIR        writes into DIR instead of test/fixtures/histories
//
// Existing files are kept unless named with --force: they stand for workflows already running
// in production. Since 1.0 every committed history must replay: a workflow change that fails
// replay is versioned with patched() instead, and its new shape is recorded under a new name.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { eventWorkflowStartOptions } from '../../../src/events/start-options';
import { withTimeout } from '../../../src/lib/timing';
import { preloadModules, workflowsPath } from '../../../src/worker/create-worker';
import { eventOutcome } from '../../support/event-workflows';
import { createTimeSkippingEnv } from '../../support/time-skipping';
import { deferred, failure, fakeActivities, held, http, skipped } from './support/fake-activities';
import { drainCloses, type DrainHistoryScenario, drainHistoryScenarios, drainedSubscription, recordedDrainWorkflowId } from './support/drain-history-scenarios';
import type { drainWorkflow } from '../../../workflows/drain';
import { eventWorkflowId } from '../../../workflows/ids';
import { orderingTurnSignal } from '../../../workflows/definitions';
import { historyToJSON } from './support/history-json';
import { historyScenarios, type HistoryScenario, recordedEventId, recordedWorkflowId } from './support/history-scenarios';
import { recordedRetentionWorkflowId, type RetentionHistoryScenario, retentionHistoryScenarios } from './support/retention-history-scenarios';
import { registerSearchAttributes } from './support/search-attributes';
import type { retentionWorkflow } from '../../../workflows/retention';

const defaultDir = fileURLToPath(new URL('../../fixtures/histories/', import.meta.url));

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean', default: false }, out: { type: 'string' } } });
  const dir = values.out ? resolve(values.out) : defaultDir;
  const names = [...Object.keys(historyScenarios), ...Object.keys(retentionHistoryScenarios), ...Object.keys(drainHistoryScenarios)];
  const wanted = positionals.map((p) => p.replace(/\.json$/, ''));
  const unknown = wanted.filter((w) => !names.includes(w));
  if (unknown.length) throw new Error(`no such scenario: ${unknown.join(', ')} (known: ${names.join(', ')})`);
  const selected = names.filter((n) => (wanted.length === 0 || wanted.includes(n)) && (values.force || !existsSync(join(dir, `${n}.json`))));
  for (const n of names) if (!selected.includes(n) && existsSync(join(dir, `${n}.json`))) console.log(`${n}.json: kept (exists; --force ${n} re-records it)`);
  if (selected.length === 0) return;

  Runtime.install({ logger: new DefaultLogger('WARN') });
  mkdirSync(dir, { recursive: true });
  const workflowBundle = await bundleWorkflowCode({ workflowsPath, preloadModules, logger: Runtime.instance().logger });
  const env = await createTimeSkippingEnv();
  try {
    await registerSearchAttributes(env);
    for (const name of selected) {
      const retention = retentionHistoryScenarios[name];
      const drain = drainHistoryScenarios[name];
      const { workflowId, runId, summary } = retention
        ? await recordRetention(env, workflowBundle, name, retention)
        : drain
          ? await recordDrain(env, workflowBundle, name, drain)
          : await record(env, workflowBundle, name, historyScenarios[name]!);
      const history = await env.client.workflow.getHandle(workflowId, runId).fetchHistory();
      const file = join(dir, `${name}.json`);
      writeFileSync(file, `${historyToJSON(history)}\n`);
      console.log(`${name}.json: ${summary}, ${history.events?.length ?? 0} events -> ${file}`);
    }
  } finally {
    await env.teardown();
  }
}

/** Runs one retention scenario to its end; returns the workflow and run whose history is kept. */
async function recordRetention(env: TestWorkflowEnvironment, workflowBundle: WorkflowBundleWithSourceMap, name: string, scenario: RetentionHistoryScenario) {
  const taskQueue = `record-histories-${name}`;
  const { activities, calls } = fakeActivities({
    attempt: () => ({ outcome: 'skipped', reason: 'not part of retention' }),
    deleteExpired: ({ collection }) => {
      const made = calls.deleteExpired.filter((c) => c.collection === collection).length;
      return { deleted: scenario.perCall, batches: 1, more: made < scenario.calls[collection] };
    },
  });
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle, activities });
  return worker.runUntil(async () => {
    const workflowId = recordedRetentionWorkflowId(name);
    const handle = await env.client.workflow.start<typeof retentionWorkflow>('retentionWorkflow', { taskQueue, workflowId, args: [scenario.input] });
    const result = await withTimeout(handle.result(), 60_000, name);
    if (JSON.stringify(result.deleted) !== JSON.stringify(scenario.expected)) throw new Error(`${name}: deleted ${JSON.stringify(result.deleted)}, expected ${JSON.stringify(scenario.expected)}`);
    const runId = scenario.closes === 'continued-as-new' ? handle.firstExecutionRunId : undefined;
    return { workflowId, runId, summary: `${calls.deleteExpired.length} deleteExpired call(s), deleted ${JSON.stringify(result.deleted)}` };
  });
}

/** Runs one drain scenario to its end (the deliveries it starts answered 200); returns the drain's id. */
async function recordDrain(env: TestWorkflowEnvironment, workflowBundle: WorkflowBundleWithSourceMap, name: string, scenario: DrainHistoryScenario) {
  const taskQueue = `record-histories-${name}`;
  const subscriptionId = drainedSubscription(name);
  const { activities, calls } = fakeActivities({
    attempt: () => http(200),
    heldPage: (input, call) => {
      // Read from the start again after a settle found something behind: what was held behind, at once.
      if (scenario.behind !== undefined && call > 1 && !input.after) {
        const items = Array.from({ length: scenario.behind }, (_, i) => ({ id: `held_${name}_${call}_${i}`, eventId: `evt_history_${name}_${call}_${i}`, eventType: 'order.created' }));
        return { state: 'active', rate: scenario.rate, items };
      }
      // Otherwise the pages repeat.
      const page = (call - 1) % (scenario.pages.length + 1);
      if (page === scenario.pages.length) return { state: scenario.then === 'paused' ? 'paused' : 'active', rate: scenario.rate, items: [] };
      const items = Array.from({ length: scenario.pages[page]! }, (_, i) => ({
        id: `held_${name}_${call}_${i}`,
        eventId: `evt_history_${name}_${call}_${i}`,
        eventType: 'order.created',
        ...(scenario.ordered ? { ordering: { key: `order:${i}`, seq: 1 } } : {}),
      }));
      const last = items[items.length - 1]!;
      return { state: 'active', rate: scenario.rate, items, ...(page < scenario.pages.length - 1 || scenario.then === 'paused' ? { next: { at: call, id: last.id } } : {}) };
    },
    settleHeld: (call) => call > (scenario.heldBehind ?? 0),
  });
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle, activities });
  return worker.runUntil(async () => {
    const workflowId = recordedDrainWorkflowId(name);
    const handle = await env.client.workflow.start<typeof drainWorkflow>('drainWorkflow', {
      taskQueue,
      workflowId,
      args: [{ subscriptionId, policy: { scheduleMs: [60_000], maxAttempts: 5, jitterRatio: 0.1 }, batchSize: 50, ...(scenario.startsPerRun ? { startsPerRun: scenario.startsPerRun } : {}) }],
    });
    const result = await withTimeout(handle.result(), 60_000, name);
    if (result.ended !== scenario.expected) throw new Error(`${name}: ended ${result.ended}, expected ${scenario.expected}`);
    // The deliveries it started run on: wait for them, so the recording leaves nothing running.
    await withTimeout(
      (async () => {
        while (calls.attempts.length < result.started) await new Promise((r) => setTimeout(r, 50));
      })(),
      60_000,
      `${name}: the drained deliveries`,
    );
    const runId = drainCloses(scenario) === 'continued-as-new' ? handle.firstExecutionRunId : undefined;
    return { workflowId, runId, summary: `${result.started} deliveries started, ${calls.released.length} release(s), ended ${result.ended}` };
  });
}

/** Runs one scenario to its end; returns the id of the workflow whose history is kept. */
async function record(env: TestWorkflowEnvironment, workflowBundle: WorkflowBundleWithSourceMap, name: string, scenario: HistoryScenario) {
  const taskQueue = `record-histories-${name}`;
  const eventId = recordedEventId(name);
  const subscriptionIds = Object.keys(scenario.answers).map((s) => `sub_history_${s}`);
  const { activities, calls } = fakeActivities({
    attempt: ({ attempt, subscriptionId }) => {
      if (calls.disableSubscription.some((d) => d.subscriptionId === subscriptionId)) return skipped('subscription disabled');
      const answers = scenario.answers[subscriptionId.replace(/^sub_history_/, '')] ?? [500];
      // A put-off attempt keeps its number: its answers are taken in order of the calls instead.
      const index = Math.min(calls.attempts.filter((c) => c.input.subscriptionId === subscriptionId).length, answers.length) - 1;
      const answer = answers.some((a) => a === 'deferred' || a === 'throttled') ? answers[index] : answers[Math.min(attempt, answers.length) - 1];
      if (answer === 'deferred') return deferred();
      if (answer === 'held') return held();
      if (answer === 'throttled') return { outcome: 'deferred', reason: '5 deliveries per second to this subscription (rate_limit)', waitMs: 400 };
      const own = scenario.retry?.[subscriptionId.replace(/^sub_history_/, '')];
      const made = typeof answer === 'number' ? http(answer) : answer ? failure(answer) : http(500);
      return own ? { ...made, retry: own } : made;
    },
    failing: (entries) =>
      entries
        .filter((e) => e.attempt >= (scenario.failingAfter?.[e.subscriptionId.replace(/^sub_history_/, '')] ?? Infinity))
        .map((e) => ({ subscriptionId: e.subscriptionId, since: 0 })),
    turn: (_d, check) => (check <= (scenario.ordered?.refusals ?? 0) ? { go: false, waitFor: 'evt_history_before', reason: 'in_delivery' } : { go: true }),
    later: () => scenario.ordered?.later ?? [],
  });
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle, activities });
  return worker.runUntil(async () => {
    const ordering = scenario.ordered ? { ordering: { key: 'order:1', seq: 2, subscriptionIds: scenario.ordered.subscriptions.map((s) => `sub_history_${s}`) } } : {};
    const options = eventWorkflowStartOptions({ eventId, eventType: 'order.created', subscriptionIds, ...ordering }, { taskQueue, policy: scenario.policy, batchSize: scenario.batchSize });
    // The test server's clock, not the wall's: earlier scenarios skipped it ahead.
    const drained = scenario.drained && { notBefore: (await env.currentTimeMs()) + scenario.drained.notBeforeMs, turn: { wait: scenario.drained.waitsTurn, next: `${eventWorkflowId(eventId)}/next` } };
    const args = drained ? [{ ...options.args[0], ...drained }] : options.args;
    const handle = await env.client.workflow.start('eventWorkflow', { ...options, args, workflowExecutionTimeout: '30 days' });
    if (scenario.ordered?.signalled) {
      // Before waiting for the result, which lets the server skip time: the refused turn's timer has not fired yet.
      await withTimeout(
        (async () => {
          while (calls.turns.length === 0) await new Promise((r) => setTimeout(r, 50));
        })(),
        20_000,
        `${name}: the first turn check`,
      );
      for (const s of scenario.ordered.subscriptions) await handle.signal(orderingTurnSignal, { subscriptionId: `sub_history_${s}` });
    }
    const outcome = await withTimeout(eventOutcome(env.client, handle.workflowId), 60_000, name);
    const ends = Object.fromEntries(Object.entries(outcome.subscriptions).map(([id, s]) => [id.replace(/^sub_history_/, ''), s.state]));
    for (const [sub, expected] of Object.entries(scenario.expected)) {
      if (ends[sub] !== expected) throw new Error(`${name}: ${sub} ended ${ends[sub]}, expected ${expected}`);
    }
    return { workflowId: recordedWorkflowId(name), runId: undefined, summary: `${calls.attempts.length} attempt(s), ended ${outcome.state} (${JSON.stringify(ends)})` };
  });
}

await main();
