// Records deliveryWorkflow histories for the replay tests (test/integration/workflows/replay.test.ts):
// the real workflows on the Temporal time-skipping test server, with scripted fake activities.
//
//   npm run histories:record
//
// Re-record only when no running workflow can have the old shape (see replay.test.ts); a
// workflow change that fails replay is versioned with patched() instead.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { workflowsPath } from '../src/worker/create-worker';
import { fakeActivities, http } from '../test/integration/workflows/support/fake-activities';
import { historyToJSON } from '../test/integration/workflows/support/history-json';
import { registerSearchAttributes } from '../test/integration/workflows/support/search-attributes';
import { createTimeSkippingEnv } from '../test/support/time-skipping';
import type { DeliveryInput, DeliveryState, deliveryWorkflow } from '../workflows/delivery';
import { deliveryWorkflowId } from '../workflows/ids';
import type { DeliveryPolicy } from '../workflows/retry-policy';
import { deliverySearchAttributes } from '../workflows/search-attributes';

const historiesDir = fileURLToPath(new URL('../test/fixtures/histories/', import.meta.url));

const minute = 60_000;
const defaultPolicy: DeliveryPolicy = { scheduleMs: [1, 5, 15, 30, 60, 120].map((m) => m * minute), maxAttempts: 7, jitterRatio: 0.1 };

interface Scenario {
  policy: DeliveryPolicy;
  /** The receiver's status code for attempt 1, 2, ...; the last one repeats. */
  statusCodes: number[];
  expected: DeliveryState;
}

/** One history file per scenario: test/fixtures/histories/delivery-<name>.json. */
const scenarios: Record<string, Scenario> = {
  success: { policy: defaultPolicy, statusCodes: [200], expected: 'delivered' },
  'retry-then-success': { policy: defaultPolicy, statusCodes: [503, 503, 200], expected: 'delivered' },
  exhausted: { policy: { scheduleMs: [1 * minute, 5 * minute], maxAttempts: 5, jitterRatio: 0.1 }, statusCodes: [500], expected: 'failed' },
  '4xx': { policy: defaultPolicy, statusCodes: [400], expected: 'stopped' },
};

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  mkdirSync(historiesDir, { recursive: true });
  const [env, workflowBundle] = await Promise.all([
    createTimeSkippingEnv(),
    bundleWorkflowCode({ workflowsPath, logger: Runtime.instance().logger }),
  ]);
  try {
    await registerSearchAttributes(env);
    for (const [name, scenario] of Object.entries(scenarios)) {
      const taskQueue = `record-histories-${name}`;
      const { activities, calls } = fakeActivities({
        attempt: ({ attempt }) => http(scenario.statusCodes[Math.min(attempt, scenario.statusCodes.length) - 1] ?? 500),
      });
      const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle, activities });
      // Fixed ids: a re-recording differs only in run ids and timestamps.
      const input: DeliveryInput = { eventId: `evt_history_${name}`, eventType: 'order.created', subscriptionId: 'sub_history', policy: scenario.policy };
      const handle = await worker.runUntil(async () => {
        const started = await env.client.workflow.start<typeof deliveryWorkflow>('deliveryWorkflow', {
          taskQueue,
          workflowId: deliveryWorkflowId(input.eventId, input.subscriptionId),
          args: [input],
          workflowExecutionTimeout: '30 days',
          // As src/deliveries/use-cases.ts starts a series.
          typedSearchAttributes: deliverySearchAttributes({ eventId: input.eventId, eventType: input.eventType, subscriptionId: input.subscriptionId }),
        });
        const result = await withTimeout(started.result(), 60_000, name);
        if (result.state !== scenario.expected) throw new Error(`${name}: ended ${result.state}, expected ${scenario.expected}`);
        return started;
      });
      const history = await handle.fetchHistory();
      const file = join(historiesDir, `delivery-${name}.json`);
      writeFileSync(file, `${historyToJSON(history)}\n`);
      console.log(`${name}: ${calls.attemptDelivery.length} attempt(s), ${history.events?.length ?? 0} events -> ${file}`);
    }
  } finally {
    await env.teardown();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms}ms of real time`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

await main();
