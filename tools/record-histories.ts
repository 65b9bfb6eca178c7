// Records workflow histories for the replay tests (test/integration/workflows/replay.test.ts):
// the real workflows on the Temporal time-skipping test server, with scripted fake activities.
//
//   npm run histories:record                         records every missing history file
//   npm run histories:record -- delivery-success-v2  only these (file names without .json)
//   npm run histories:record -- --force NAME...      re-records existing files too
//   npm run histories:record -- --out DIR            writes into DIR instead of test/fixtures/histories
//
// Each scenario is recorded in two shapes: `<name>.json` as workers before the patches ran it
// (every patched() left inactive, so the old branch runs and no marker is written), and
// `<name>-v2.json` with the current code. Existing files are kept unless named with --force:
// they stand for workflows already running in production. Re-record those only when no running
// workflow can have that shape (see replay.test.ts); a workflow change that fails replay is
// versioned with patched() instead, and gets a new shape here.
import { mkdirSync, existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { workflowsPath } from '../src/worker/create-worker';
import { fakeActivities, http } from '../test/integration/workflows/support/fake-activities';
import { historyToJSON } from '../test/integration/workflows/support/history-json';
import { registerSearchAttributes } from '../test/integration/workflows/support/search-attributes';
import { createTimeSkippingEnv } from '../test/support/time-skipping';
import type { DeliveryInput, DeliveryState, deliveryWorkflow } from '../workflows/delivery';
import type { EventInput, eventWorkflow } from '../workflows/event';
import { deliveryWorkflowId, eventWorkflowId } from '../workflows/ids';
import type { DeliveryPolicy } from '../workflows/retry-policy';
import { deliverySearchAttributes, eventSearchAttributes } from '../workflows/search-attributes';

const defaultDir = fileURLToPath(new URL('../test/fixtures/histories/', import.meta.url));

const minute = 60_000;
const defaultPolicy: DeliveryPolicy = { scheduleMs: [1, 5, 15, 30, 60, 120].map((m) => m * minute), maxAttempts: 7, jitterRatio: 0.1 };

/** One deliveryWorkflow run: the receiver's status code for attempt 1, 2, ... (the last one repeats). */
interface DeliveryScenario {
  workflow: 'deliveryWorkflow';
  policy: DeliveryPolicy;
  statusCodes: number[];
  expected: DeliveryState;
}

/** One eventWorkflow run: its subscriptions (id suffix → the status code each answers) and how each delivery ends. */
interface EventScenario {
  workflow: 'eventWorkflow';
  policy: DeliveryPolicy;
  subscriptions: Record<string, { statusCode: number; expected: DeliveryState }>;
}

type Scenario = DeliveryScenario | EventScenario;

/** test/fixtures/histories/<key>.json and <key>-v2.json. */
const scenarios: Record<string, Scenario> = {
  'delivery-success': { workflow: 'deliveryWorkflow', policy: defaultPolicy, statusCodes: [200], expected: 'delivered' },
  'delivery-retry-then-success': { workflow: 'deliveryWorkflow', policy: defaultPolicy, statusCodes: [503, 503, 200], expected: 'delivered' },
  'delivery-exhausted': {
    workflow: 'deliveryWorkflow',
    policy: { scheduleMs: [1 * minute, 5 * minute], maxAttempts: 5, jitterRatio: 0.1 },
    statusCodes: [500],
    expected: 'failed',
  },
  'delivery-4xx': { workflow: 'deliveryWorkflow', policy: defaultPolicy, statusCodes: [400], expected: 'stopped' },
  'event-fan-out': {
    workflow: 'eventWorkflow',
    policy: defaultPolicy,
    subscriptions: { a: { statusCode: 200, expected: 'delivered' }, b: { statusCode: 400, expected: 'stopped' } },
  },
};

/** `v1`: every patch inactive, as before any was added; `v2`: the current code. */
type Shape = 'v1' | 'v2';
const shapes: Record<Shape, { suffix: string; worker: { patchActivationCallback?: () => boolean } }> = {
  // The SDK's (experimental) hook: false leaves a patch inactive and writes no marker.
  v1: { suffix: '', worker: { patchActivationCallback: () => false } },
  v2: { suffix: '-v2', worker: {} },
};

interface Recording {
  file: string;
  key: string;
  scenario: Scenario;
  shape: Shape;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean', default: false }, out: { type: 'string' } } });
  const dir = values.out ? resolve(values.out) : defaultDir;
  const all: Recording[] = Object.entries(scenarios).flatMap(([key, scenario]) =>
    (Object.keys(shapes) as Shape[]).map((shape) => ({ file: `${key}${shapes[shape].suffix}.json`, key, scenario, shape })),
  );
  const wanted = positionals.map((p) => (p.endsWith('.json') ? p : `${p}.json`));
  const unknown = wanted.filter((w) => !all.some((r) => r.file === w));
  if (unknown.length) throw new Error(`no such scenario: ${unknown.join(', ')} (known: ${all.map((r) => r.file).join(', ')})`);
  const selected = all.filter((r) => (wanted.length === 0 || wanted.includes(r.file)) && (values.force || !existsSync(join(dir, r.file))));
  for (const r of all) if (!selected.includes(r) && existsSync(join(dir, r.file))) console.log(`${r.file}: kept (exists; --force ${r.file.replace(/\.json$/, '')} re-records it)`);
  if (selected.length === 0) return;

  Runtime.install({ logger: new DefaultLogger('WARN') });
  mkdirSync(dir, { recursive: true });
  const workflowBundle = await bundleWorkflowCode({ workflowsPath, logger: Runtime.instance().logger });
  for (const recording of selected) {
    // A server per recording: the test server stops skipping time for good once a child ends after
    // its parent closed (temporalio/sdk-java#2392), as event-workflow deliveries since the patch do.
    const env = await createTimeSkippingEnv();
    try {
      await registerSearchAttributes(env);
      const { handle, summary } = await record(env, workflowBundle, recording);
      const history = await handle.fetchHistory();
      const file = join(dir, recording.file);
      writeFileSync(file, `${historyToJSON(history)}\n`);
      console.log(`${recording.file}: ${summary}, ${history.events?.length ?? 0} events -> ${file}`);
    } finally {
      await env.teardown();
    }
  }
}

/** Runs one scenario in one shape to its end; the handle is the workflow whose history is kept. */
async function record(env: TestWorkflowEnvironment, workflowBundle: WorkflowBundleWithSourceMap, r: Recording): Promise<{ handle: WorkflowHandle; summary: string }> {
  const { scenario, key, shape } = r;
  const taskQueue = `record-histories-${key}-${shape}`;
  // Fixed ids (per shape: a workflow id is used once per server): a re-recording differs only in run ids and timestamps.
  const eventId = `evt_history_${key.replace(/^delivery-/, '')}${shapes[shape].suffix}`;
  const codes = (subscriptionId: string): number[] =>
    scenario.workflow === 'deliveryWorkflow' ? scenario.statusCodes : [scenario.subscriptions[subscriptionId.replace(/^sub_history_/, '')]?.statusCode ?? 500];
  const subscriptionIds = scenario.workflow === 'eventWorkflow' ? Object.keys(scenario.subscriptions).map((s) => `sub_history_${s}`) : [];
  const { activities, calls } = fakeActivities({
    attempt: ({ attempt, subscriptionId }) => {
      const answers = codes(subscriptionId);
      return http(answers[Math.min(attempt, answers.length) - 1] ?? 500);
    },
    targets: () => ({ type: 'order.created', subscriptionIds }),
  });
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle, activities, ...shapes[shape].worker });
  return worker.runUntil(async () => {
    if (scenario.workflow === 'deliveryWorkflow') {
      const input: DeliveryInput = { eventId, eventType: 'order.created', subscriptionId: 'sub_history', policy: scenario.policy };
      const handle = await env.client.workflow.start<typeof deliveryWorkflow>('deliveryWorkflow', {
        taskQueue,
        workflowId: deliveryWorkflowId(input.eventId, input.subscriptionId),
        args: [input],
        workflowExecutionTimeout: '30 days',
        // As src/deliveries/use-cases.ts starts a series.
        typedSearchAttributes: deliverySearchAttributes({ eventId: input.eventId, eventType: input.eventType, subscriptionId: input.subscriptionId }),
      });
      const result = await withTimeout(handle.result(), 60_000, r.file);
      if (result.state !== scenario.expected) throw new Error(`${r.file}: ended ${result.state}, expected ${scenario.expected}`);
      return { handle, summary: `${calls.attemptDelivery.length} attempt(s), ${result.state}` };
    }
    const input: EventInput = { eventId, policy: scenario.policy };
    const handle = await env.client.workflow.start<typeof eventWorkflow>('eventWorkflow', {
      taskQueue,
      workflowId: eventWorkflowId(eventId),
      args: [input],
      workflowExecutionTimeout: '30 days',
      // As src/events/dispatcher.ts starts it.
      typedSearchAttributes: eventSearchAttributes({ eventId, eventType: 'order.created' }),
    });
    const result = await withTimeout(handle.result(), 60_000, r.file);
    // The children may outlive the event workflow: each one's end, from its own handle. One at a
    // time: the time-skipping server rejects overlapping result waits ("Unbalanced lock and unlock calls").
    const ends: DeliveryState[] = [];
    for (const subscriptionId of subscriptionIds) {
      const child = env.client.workflow.getHandle<typeof deliveryWorkflow>(deliveryWorkflowId(eventId, subscriptionId));
      const { state } = await withTimeout(child.result(), 60_000, `${r.file} ${subscriptionId}`);
      const expected = scenario.subscriptions[subscriptionId.replace(/^sub_history_/, '')]?.expected;
      if (state !== expected) throw new Error(`${r.file}: ${subscriptionId} ended ${state}, expected ${expected}`);
      ends.push(state);
    }
    return { handle, summary: `returned ${JSON.stringify(result)}, deliveries ended ${ends.join(', ')}` };
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms}ms of real time`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

await main();
