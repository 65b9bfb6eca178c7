import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, Runtime, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowsPath } from '../../../src/worker/create-worker';
import { type DeliveryInput, type DeliveryStatus, deliveryStatusQuery, type deliveryWorkflow, retryNowSignal } from '../../../workflows/delivery';
import type { EventInput, eventWorkflow } from '../../../workflows/event';
import { deliveryWorkflowId, eventWorkflowId } from '../../../workflows/ids';
import { type DeliveryPolicy, nextDelayMs, settleAttempt } from '../../../workflows/retry-policy';
import { deliverySearchAttributes, deliveryStateKey, eventSearchAttributes, eventTypeKey, subscriptionIdKey } from '../../../workflows/search-attributes';
import { createTimeSkippingEnv } from '../../support/time-skipping';
import { registerSearchAttributes } from './support/search-attributes';
import { type FakeCalls, type FakeScript, fakeActivities, http, skipped } from './support/fake-activities';

// The real delivery and event workflows on the time-skipping test server, with scripted fake
// activities. Every time asserted here is server (workflow) time: hours of backoff take
// seconds of real time. One server for the file, so tests run one at a time.

const minute = 60_000;
const defaultPolicy: DeliveryPolicy = { scheduleMs: [1, 5, 15, 30, 60, 120].map((m) => m * minute), maxAttempts: 7, jitterRatio: 0.1 };
/** Server time a step may take beyond its timer: workflow and activity tasks run in real time between skips. */
const slackMs = 10_000;
/** Real-time bound on one workflow run, well inside vitest's test timeout. */
const runBoundMs = 60_000;

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundleWithSourceMap;

beforeAll(async () => {
  const started = Date.now();
  [env, bundle] = await Promise.all([
    createTimeSkippingEnv(),
    bundleWorkflowCode({ workflowsPath, logger: Runtime.instance().logger }),
  ]);
  await registerSearchAttributes(env);
  console.log(`time-skipping server and workflow bundle ready in ${Date.now() - started}ms`);
});

afterAll(async () => {
  await env?.teardown();
});

/** Rejects when `promise` takes longer than `ms` of real time. */
function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms}ms of real time`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Which code paths the workflows take: `current`, or `unpatched`, every patched() left
 * inactive (the SDK's experimental patchActivationCallback), as workflows started before the
 * patches run: their old branches must behave exactly as the code did before.
 */
type Patches = 'current' | 'unpatched';

interface WorkerSetup {
  patches: Patches;
  /** Default: the file's shared server. */
  server?: TestWorkflowEnvironment;
  /** Default: a fresh one. */
  taskQueue?: string;
  /** Keep no workflow cached, so a later worker on the task queue gets the next workflow task (not this one's sticky queue). */
  uncached?: boolean;
}

/** Runs `body` with a worker (real workflows, these fakes). */
async function withWorkerWith<T>(script: FakeScript, body: (taskQueue: string, calls: FakeCalls) => Promise<T>, setup: WorkerSetup): Promise<T> {
  const server = setup.server ?? env;
  const taskQueue = setup.taskQueue ?? `delivery-schedule-${randomUUID()}`;
  const { activities, calls } = fakeActivities(script, () => server.currentTimeMs());
  const worker = await Worker.create({
    connection: server.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities,
    ...(setup.patches === 'unpatched' ? { patchActivationCallback: () => false } : {}),
    ...(setup.uncached ? { maxCachedWorkflows: 0 } : {}),
  });
  return worker.runUntil(bounded(body(taskQueue, calls), runBoundMs, taskQueue));
}

function deliveryInput(policy: DeliveryPolicy = defaultPolicy): DeliveryInput {
  return { eventId: `evt_${randomUUID()}`, eventType: 'order.created', subscriptionId: `sub_${randomUUID()}`, policy };
}

function startDelivery(taskQueue: string, input: DeliveryInput): Promise<WorkflowHandle<typeof deliveryWorkflow>> {
  return env.client.workflow.start<typeof deliveryWorkflow>('deliveryWorkflow', {
    taskQueue,
    workflowId: deliveryWorkflowId(input.eventId, input.subscriptionId),
    args: [input],
    // A workflow stuck on a lost signal fails at this bound instead of hanging the test.
    workflowExecutionTimeout: '30 days',
    // As src/deliveries/use-cases.ts starts a series.
    typedSearchAttributes: deliverySearchAttributes({ eventId: input.eventId, eventType: input.eventType, subscriptionId: input.subscriptionId }),
  });
}

/** Runs one delivery to its end with `script` answering the attempts. */
async function runDeliveryWith(script: FakeScript, input: DeliveryInput, patches: Patches) {
  return withWorkerWith(
    script,
    async (taskQueue, calls) => {
      const handle = await startDelivery(taskQueue, input);
      const result = await handle.result();
      return { input, handle, result, calls };
    },
    { patches },
  );
}

/** The activity each attempt went through: one per attempt since 'attempt-records-itself', two before. */
function expectAttemptPath(calls: FakeCalls, patches: Patches): void {
  const via = patches === 'current' ? 'attemptAndRecord' : 'attemptDelivery';
  expect(calls.attemptDelivery.map((c) => c.via)).toEqual(calls.attemptDelivery.map(() => via));
  expect(calls.recordAttemptActivity).toHaveLength(patches === 'current' ? 0 : calls.recordAttempt.length);
}

/** Each attempt's server time, relative to the first. */
function attemptOffsets(calls: FakeCalls): number[] {
  const first = calls.attemptDelivery[0]?.scheduledAt ?? Number.NaN;
  return calls.attemptDelivery.map((c) => c.scheduledAt - first);
}

/** Nominal waits: after attempt k, the schedule's k-th interval (the last one repeats). */
function nominalWaits(policy: DeliveryPolicy, attempts: number): number[] {
  return Array.from({ length: attempts - 1 }, (_, k) => policy.scheduleMs[Math.min(k, policy.scheduleMs.length - 1)] ?? Number.NaN);
}

/**
 * Each delivery's result, from its own handle. One at a time: every awaited result unlocks time
 * skipping and locks it again after, and the test server rejects overlapping unlocks.
 */
async function childResults(workflowIds: string[], server: TestWorkflowEnvironment = env): Promise<DeliveryStatus[]> {
  const results: DeliveryStatus[] = [];
  for (const id of workflowIds) results.push(await server.client.workflow.getHandle<typeof deliveryWorkflow>(id).result());
  return results;
}

/**
 * Runs `body` on a time-skipping server of its own, torn down after. The test server stops
 * skipping time for good once a child workflow ends after its parent closed (abandoned;
 * temporalio/sdk-java#2392), as the deliveries of an event workflow since
 * 'event-returns-once-children-started' do: on the shared server, later tests would hang.
 */
async function withOwnServer<T>(body: (server: TestWorkflowEnvironment) => Promise<T>): Promise<T> {
  const server = await createTimeSkippingEnv();
  try {
    await registerSearchAttributes(server);
    return await body(server);
  } finally {
    await server.teardown();
  }
}

/** The WebhookDeliveryState search attribute as the server has it now. */
async function searchState(handle: WorkflowHandle): Promise<unknown> {
  return (await handle.describe()).typedSearchAttributes.get(deliveryStateKey);
}

// Every scenario on both paths: deliveries started before 'attempt-records-itself' must still run as they did.
describe.each<Patches>(['current', 'unpatched'])('deliveryWorkflow retry schedule, %s (time-skipping server)', (patches) => {
  const runDelivery = (script: FakeScript, input = deliveryInput()) => runDeliveryWith(script, input, patches);
  const withWorker = <T>(script: FakeScript, body: (taskQueue: string, calls: FakeCalls) => Promise<T>) => withWorkerWith(script, body, { patches });

  it('runs the default schedule: 7 attempts at 0, 1, 6, 21, 51, 111, 231 minutes within the jitter bound, then fails and alerts once', async () => {
    const realStart = Date.now();
    const { input, handle, result, calls } = await runDelivery({ attempt: () => http(503) });
    console.log(`${patches}: 231+ minutes of backoff took ${Date.now() - realStart}ms of real time`);
    expectAttemptPath(calls, patches);

    expect(result).toMatchObject<Partial<DeliveryStatus>>({ state: 'failed', attempts: 7, lastOutcome: 'http_error', lastStatusCode: 503 });
    expect(calls.attemptDelivery.map((c) => c.input.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7]);

    const offsets = attemptOffsets(calls);
    const waits = nominalWaits(defaultPolicy, 7);
    const nominal = waits.reduce<number[]>((acc, w) => [...acc, (acc.at(-1) ?? 0) + w], [0]);
    expect(nominal.map((ms) => ms / minute)).toEqual([0, 1, 6, 21, 51, 111, 231]);
    console.log(`attempt offsets (min): ${offsets.map((ms) => (ms / minute).toFixed(3)).join(', ')}`);
    offsets.forEach((offset, k) => {
      const bound = nominal[k]!;
      expect(offset, `attempt ${k + 1}`).toBeGreaterThanOrEqual(bound);
      expect(offset, `attempt ${k + 1}`).toBeLessThanOrEqual(bound * (1 + defaultPolicy.jitterRatio) + (k + 1) * slackMs);
    });
    // Each wait on its own: its interval plus up to 10 % jitter.
    const gaps = offsets.slice(1).map((o, k) => o - offsets[k]!);
    gaps.forEach((gap, k) => {
      expect(gap, `wait after attempt ${k + 1}`).toBeGreaterThanOrEqual(waits[k]!);
      expect(gap, `wait after attempt ${k + 1}`).toBeLessThanOrEqual(waits[k]! * (1 + defaultPolicy.jitterRatio) + slackMs);
    });
    // Jitter is really applied (all six draws under a second is a ~1e-9 chance).
    expect(gaps.some((gap, k) => gap - waits[k]! > 1000)).toBe(true);

    expect(calls.recordAttempt).toHaveLength(7);
    calls.recordAttempt.forEach((r, k) => {
      expect(r).toMatchObject({ attempt: k + 1, eventId: input.eventId, subscriptionId: input.subscriptionId, series: handle.workflowId });
      if (k < 6) {
        expect(r.state).toBe('retrying');
        expect(r.nextAttemptAt, `record ${k + 1}`).toBeTypeOf('number');
        // The promised next attempt is when it really happened (to within task processing).
        const next = calls.attemptDelivery[k + 1]!.scheduledAt;
        expect(next).toBeGreaterThanOrEqual(r.nextAttemptAt!);
        expect(next - r.nextAttemptAt!).toBeLessThanOrEqual(slackMs);
      } else {
        expect(r.state).toBe('failed');
        expect(r).not.toHaveProperty('nextAttemptAt');
      }
    });

    expect(calls.raiseAlert).toHaveLength(1);
    expect(calls.raiseAlert[0]).toMatchObject({ kind: 'delivery_failed', subscriptionId: input.subscriptionId, eventId: input.eventId, key: handle.workflowId });
    expect(calls.disableSubscription).toHaveLength(0);
    expect(await searchState(handle)).toBe('failed');
  });

  it('stops after one attempt on a 400: no retry, no alert', async () => {
    const { result, calls, handle } = await runDelivery({ attempt: () => http(400) });
    expect(result).toMatchObject({ state: 'stopped', attempts: 1, lastStatusCode: 400 });
    expect(calls.attemptDelivery).toHaveLength(1);
    expect(calls.recordAttempt).toHaveLength(1);
    expect(calls.recordAttempt[0]).toMatchObject({ attempt: 1, state: 'stopped' });
    expect(calls.recordAttempt[0]).not.toHaveProperty('nextAttemptAt');
    expect(calls.raiseAlert).toHaveLength(0);
    expect(calls.disableSubscription).toHaveLength(0);
    expect(await searchState(handle)).toBe('stopped');
  });

  it('disables the subscription once on a 410 and stops', async () => {
    const { input, result, calls } = await runDelivery({ attempt: () => http(410) });
    expect(result).toMatchObject({ state: 'stopped', attempts: 1, lastStatusCode: 410 });
    expect(calls.attemptDelivery).toHaveLength(1);
    expect(calls.recordAttempt).toHaveLength(1);
    expect(calls.disableSubscription).toHaveLength(1);
    expect(calls.disableSubscription[0]).toMatchObject({ subscriptionId: input.subscriptionId, eventId: input.eventId });
    expect(calls.disableSubscription[0]!.reason).toContain('410');
    // The activity itself raises the subscription_disabled alert; the workflow raises none.
    expect(calls.raiseAlert).toHaveLength(0);
  });

  it('alerts exactly once when attempts run out, the last interval repeating (maxAttempts 5, two intervals)', async () => {
    const policy: DeliveryPolicy = { scheduleMs: [1 * minute, 5 * minute], maxAttempts: 5, jitterRatio: 0.1 };
    const { result, calls } = await runDelivery({ attempt: () => http(503) }, deliveryInput(policy));
    expect(result).toMatchObject({ state: 'failed', attempts: 5 });
    expect(calls.attemptDelivery).toHaveLength(5);
    const offsets = attemptOffsets(calls);
    const gaps = offsets.slice(1).map((o, k) => o - offsets[k]!);
    const waits = nominalWaits(policy, 5);
    expect(waits.map((w) => w / minute)).toEqual([1, 5, 5, 5]);
    gaps.forEach((gap, k) => {
      expect(gap).toBeGreaterThanOrEqual(waits[k]!);
      expect(gap).toBeLessThanOrEqual(waits[k]! * 1.1 + slackMs);
    });
    expect(calls.recordAttempt.map((r) => r.state)).toEqual(['retrying', 'retrying', 'retrying', 'retrying', 'failed']);
    expect(calls.raiseAlert).toHaveLength(1);
    expect(calls.raiseAlert[0]!.kind).toBe('delivery_failed');
  });

  it('ends cancelled when the subscription is paused during the backoff: no further attempts, no alert', async () => {
    const { result, calls, handle } = await runDelivery({
      attempt: ({ attempt }) => (attempt === 1 ? http(503) : skipped('subscription paused')),
    });
    expect(result).toMatchObject({ state: 'cancelled', attempts: 1, lastOutcome: 'skipped: subscription paused' });
    expect(calls.attemptDelivery.map((c) => c.input.attempt)).toEqual([1, 2]);
    expect(calls.recordAttempt).toHaveLength(1);
    expect(calls.raiseAlert).toHaveLength(0);
    expect(await searchState(handle)).toBe('cancelled');
  });

  it("waits for a 429's longer Retry-After instead of the 1-minute interval", async () => {
    const retryAfterMs = 10 * minute;
    const { result, calls } = await runDelivery({
      attempt: ({ attempt }) => (attempt === 1 ? http(429, { retryAfterMs }) : http(200)),
    });
    expect(result).toMatchObject({ state: 'delivered', attempts: 2, lastStatusCode: 200 });
    const [, second] = attemptOffsets(calls);
    // Attempt times are read by the (local) activity over RPC, a little after the workflow's own clock.
    expect(second).toBeGreaterThanOrEqual(retryAfterMs - 1000);
    expect(second).toBeLessThanOrEqual(retryAfterMs + slackMs);
    expect(calls.recordAttempt[0]!.nextAttemptAt! - calls.attemptDelivery[0]!.scheduledAt).toBeGreaterThanOrEqual(retryAfterMs - 1000);
  });

  it('retries at once on the retryNow signal during a 60-minute wait; the status query shows the wait', async () => {
    const policy: DeliveryPolicy = { scheduleMs: [60 * minute], maxAttempts: 3, jitterRatio: 0.1 };
    const input = deliveryInput(policy);
    await withWorker({ attempt: ({ attempt }) => (attempt === 1 ? http(503) : http(200)) }, async (taskQueue, calls) => {
      const handle = await startDelivery(taskQueue, input);
      // Time does not skip until a result is awaited: the workflow sits in its 60-minute
      // wait while this polls in real time.
      let status: DeliveryStatus | undefined;
      for (const until = Date.now() + 20_000; Date.now() < until; ) {
        status = await handle.query(deliveryStatusQuery);
        if (status.state === 'retrying') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toMatchObject({ state: 'retrying', attempts: 1, lastOutcome: 'http_error', lastStatusCode: 503 });
      const firstAt = calls.attemptDelivery[0]!.scheduledAt;
      expect(status!.nextAttemptAt! - firstAt).toBeGreaterThanOrEqual(60 * minute);
      expect(status!.nextAttemptAt! - firstAt).toBeLessThanOrEqual(66 * minute + slackMs);
      expect(await searchState(handle)).toBe('retrying');

      await handle.signal(retryNowSignal);
      const result = await handle.result();
      expect(result).toMatchObject({ state: 'delivered', attempts: 2 });
      expect(result).not.toHaveProperty('nextAttemptAt');
      const waited = calls.attemptDelivery[1]!.scheduledAt - firstAt;
      console.log(`retryNow: attempt 2 came ${waited}ms of workflow time after attempt 1`);
      expect(waited).toBeLessThan(minute);
    });
  });

  it('keeps a retryNow signal that arrives while an attempt is still running', async () => {
    const policy: DeliveryPolicy = { scheduleMs: [60 * minute], maxAttempts: 3, jitterRatio: 0 };
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const script = { attempt: async ({ attempt }: { attempt: number }) => (attempt === 1 ? (await held, http(503)) : http(200)) };
    await withWorker(script, async (taskQueue, calls) => {
      const handle = await startDelivery(taskQueue, deliveryInput(policy));
      for (const until = Date.now() + 20_000; calls.attemptDelivery.length === 0 && Date.now() < until; ) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(calls.attemptDelivery).toHaveLength(1);
      await handle.signal(retryNowSignal); // while attempt 1 is in flight
      release();
      expect(await handle.result()).toMatchObject({ state: 'delivered', attempts: 2 });
      expect(calls.attemptDelivery[1]!.scheduledAt - calls.attemptDelivery[0]!.scheduledAt).toBeLessThan(minute);
    });
  });
});

describe("deliveryWorkflow since 'attempt-records-itself' (time-skipping server)", () => {
  it('a series started before the patch takes it from its next attempt on, and its history replays', async () => {
    const policy: DeliveryPolicy = { scheduleMs: [60 * minute], maxAttempts: 3, jitterRatio: 0.1 };
    const input = deliveryInput(policy);
    const taskQueue = `delivery-schedule-${randomUUID()}`;
    const script: FakeScript = { attempt: ({ attempt }) => (attempt === 1 ? http(503) : http(200)) };
    // A worker from before the patch makes attempt 1 and stops during the 60-minute wait (a deploy).
    const handle = await withWorkerWith(
      script,
      async (_, calls) => {
        const handle = await startDelivery(taskQueue, input);
        for (const until = Date.now() + 20_000; Date.now() < until; ) {
          if ((await handle.query(deliveryStatusQuery)).state === 'retrying') break;
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(calls.attemptDelivery.map((c) => c.via)).toEqual(['attemptDelivery']);
        expect(calls.recordAttemptActivity).toHaveLength(1);
        return handle;
      },
      { patches: 'unpatched', taskQueue, uncached: true },
    );
    // The current code replays attempt 1 on the old branch, then makes attempt 2 with one activity.
    const { result, calls } = await withWorkerWith(script, async (_, calls) => ({ result: await handle.result(), calls }), { patches: 'current', taskQueue });
    expect(result).toMatchObject({ state: 'delivered', attempts: 2 });
    expect(calls.attemptDelivery.map((c) => [c.input.attempt, c.via])).toEqual([[2, 'attemptAndRecord']]);
    expect(calls.recordAttempt.map((r) => [r.attempt, r.state])).toEqual([[2, 'delivered']]);
    expect(calls.recordAttemptActivity).toHaveLength(0);
    await expect(Worker.runReplayHistory({ workflowBundle: bundle }, await handle.fetchHistory(), handle.workflowId)).resolves.toBeUndefined();
  });

  it('passes its own jitter sample to the one attempt activity, which logs the wait it implies', async () => {
    const { input, handle, result, calls } = await runDeliveryWith({ attempt: ({ attempt }) => (attempt < 3 ? http(503) : http(200)) }, deliveryInput(), 'current');
    expect(result).toMatchObject({ state: 'delivered', attempts: 3 });
    expectAttemptPath(calls, 'current');
    const samples = calls.attemptDelivery.map((c) => c.random);
    for (const r of samples) {
      expect(r).toBeGreaterThanOrEqual(0);
      expect(r).toBeLessThan(1);
    }
    expect(new Set(samples).size).toBe(3);
    expect(calls.recordAttempt.map((r) => [r.attempt, r.state, r.series])).toEqual([
      [1, 'retrying', handle.workflowId],
      [2, 'retrying', handle.workflowId],
      [3, 'delivered', handle.workflowId],
    ]);
    for (const k of [0, 1]) {
      const logged = calls.recordAttempt[k]!.nextAttemptAt! - calls.attemptDelivery[k]!.scheduledAt;
      // The logged wait is the policy's, jittered with the sample the workflow drew (the activity reads the clock again after the POST).
      const expected = nextDelayMs(input.policy, k + 1, samples[k]!);
      expect(logged).toBeGreaterThanOrEqual(expected);
      expect(logged - expected).toBeLessThan(1000);
      const next = calls.attemptDelivery[k + 1]!.scheduledAt;
      expect(next).toBeGreaterThanOrEqual(calls.recordAttempt[k]!.nextAttemptAt!);
      expect(next - calls.recordAttempt[k]!.nextAttemptAt!).toBeLessThanOrEqual(slackMs);
    }
  });

  it("waits as long as the activity's settlement says, not a wait of its own", async () => {
    const settled = 7 * minute;
    const { result, calls } = await runDeliveryWith(
      {
        attempt: ({ attempt }) => (attempt === 1 ? http(503) : http(200)),
        // Not what the 1-minute schedule gives: only the returned value can explain the wait.
        settle: (input, r) => (input.attempt === 1 ? { verdict: 'retry', state: 'retrying', delayMs: settled } : settleAttempt(input.policy, input.attempt, r, input.random)),
      },
      deliveryInput(),
      'current',
    );
    expect(result).toMatchObject({ state: 'delivered', attempts: 2 });
    const [, second] = attemptOffsets(calls);
    expect(second).toBeGreaterThanOrEqual(settled - 1000);
    expect(second).toBeLessThanOrEqual(settled + slackMs);
  });

  it('logs the attempt through recordAttempt when the activity could not, without a second POST', async () => {
    const { input, handle, result, calls } = await runDeliveryWith(
      { attempt: ({ attempt }) => (attempt === 1 ? http(503) : http(200)), recordFails: ({ attempt }) => attempt === 1 },
      deliveryInput(),
      'current',
    );
    expect(result).toMatchObject({ state: 'delivered', attempts: 2 });
    // One POST per attempt: the failed log write did not make the attempt run again.
    expect(calls.attemptDelivery.map((c) => c.input.attempt)).toEqual([1, 2]);
    expect(calls.recordAttemptActivity).toHaveLength(1);
    const fallback = calls.recordAttemptActivity[0]!;
    expect(fallback).toMatchObject({ eventId: input.eventId, subscriptionId: input.subscriptionId, attempt: 1, series: handle.workflowId, state: 'retrying' });
    expect(fallback.result).toMatchObject({ outcome: 'http_error', statusCode: 503 });
    // The entry the activity settled: its wait, from the workflow's sample.
    const wait = nextDelayMs(input.policy, 1, calls.attemptDelivery[0]!.random!);
    expect(fallback.nextAttemptAt! - calls.attemptDelivery[0]!.scheduledAt).toBeGreaterThanOrEqual(wait);
    expect(fallback.nextAttemptAt! - calls.attemptDelivery[0]!.scheduledAt - wait).toBeLessThan(1000);
    expect(calls.recordAttempt.map((r) => [r.attempt, r.state])).toEqual([
      [1, 'retrying'],
      [2, 'delivered'],
    ]);
  });
});

describe.each<Patches>(['current', 'unpatched'])('eventWorkflow fan-out, %s (time-skipping server)', (patches) => {
  it('starts one delivery child per subscription, ids delivery/<eventId>/<subId>; each ends on its own', async () => {
    const eventId = `evt_${randomUUID()}`;
    const subscriptionIds = ['sub_a', 'sub_b', 'sub_c'].map((s) => `${s}_${randomUUID()}`);
    const input: EventInput = { eventId, policy: defaultPolicy };
    const answers: Record<string, number> = { [subscriptionIds[0]!]: 200, [subscriptionIds[1]!]: 204, [subscriptionIds[2]!]: 400 };
    const script: FakeScript = {
      targets: () => ({ type: 'order.created', subscriptionIds }),
      attempt: ({ subscriptionId }) => http(answers[subscriptionId] ?? 500),
    };
    const body = (server: TestWorkflowEnvironment) =>
      withWorkerWith(
        script,
        async (taskQueue, calls) => {
          const result = await server.client.workflow.execute<typeof eventWorkflow>('eventWorkflow', {
            taskQueue,
            workflowId: eventWorkflowId(eventId),
            args: [input],
            workflowExecutionTimeout: '30 days',
            // As src/events/dispatcher.ts starts it.
            typedSearchAttributes: eventSearchAttributes({ eventId, eventType: 'order.created' }),
          });
          const expectedIds = subscriptionIds.map((s) => `delivery/${eventId}/${s}`);
          // Since 'event-returns-once-children-started' it returns what it started; before, how they ended.
          expect(result).toEqual(patches === 'current' ? { started: 3, children: expectedIds } : { delivered: 2, stopped: 1 });
          const ends = await childResults(expectedIds, server);
          expect(ends.map((e) => e.state)).toEqual(['delivered', 'delivered', 'stopped']);
          expect(calls.loadEventTargets).toEqual([eventId]);
          expect(calls.attemptDelivery.map((c) => c.workflowId).sort()).toEqual([...expectedIds].sort());
          for (const [i, workflowId] of expectedIds.entries()) {
            const description = await server.client.workflow.getHandle(workflowId).describe();
            expect(description.type).toBe('deliveryWorkflow');
            expect(description.status.name).toBe('COMPLETED');
            expect(description.parentExecution?.workflowId).toBe(eventWorkflowId(eventId));
            expect(description.typedSearchAttributes.get(subscriptionIdKey)).toBe(subscriptionIds[i]);
            expect(description.typedSearchAttributes.get(deliveryStateKey)).toBe(i === 2 ? 'stopped' : 'delivered');
          }
        },
        { patches, server },
      );
    // Deliveries that end after their parent closed would break the shared server's time skipping.
    await (patches === 'current' ? withOwnServer(body) : body(env));
  });
});

describe("eventWorkflow since 'event-returns-once-children-started' (time-skipping server)", () => {
  it('with the targets in its input (as the dispatcher starts it), starts the deliveries without looking the event up', async () => {
    const eventId = `evt_${randomUUID()}`;
    const subscriptionIds = ['sub_a', 'sub_b'].map((s) => `${s}_${randomUUID()}`);
    const script: FakeScript = {
      targets: () => ({ type: 'order.created', subscriptionIds: ['sub_never'] }),
      attempt: () => http(200),
    };
    await withOwnServer((server) =>
      withWorkerWith(
        script,
        async (taskQueue, calls) => {
          const input: EventInput = { eventId, policy: defaultPolicy, targets: { type: 'order.updated', subscriptionIds } };
          const expectedIds = subscriptionIds.map((s) => deliveryWorkflowId(eventId, s));
          expect(await server.client.workflow.execute<typeof eventWorkflow>('eventWorkflow', { taskQueue, workflowId: eventWorkflowId(eventId), args: [input] })).toEqual({
            started: 2,
            children: expectedIds,
          });
          expect(calls.loadEventTargets).toEqual([]);
          const ends = await childResults(expectedIds, server);
          expect(ends.map((e) => e.state)).toEqual(['delivered', 'delivered']);
          const child = await server.client.workflow.getHandle(expectedIds[0]!).describe();
          expect(child.typedSearchAttributes.get(eventTypeKey)).toBe('order.updated');
        },
        { patches: 'current', server },
      ),
    );
  });

  it('returns while its deliveries still wait to retry; a second run of the event starts none of them again', async () => {
    const eventId = `evt_${randomUUID()}`;
    const subscriptionIds = ['sub_a', 'sub_b'].map((s) => `${s}_${randomUUID()}`);
    const policy: DeliveryPolicy = { scheduleMs: [60 * minute], maxAttempts: 2, jitterRatio: 0 };
    const script: FakeScript = {
      targets: () => ({ type: 'order.created', subscriptionIds }),
      attempt: ({ attempt }) => (attempt === 1 ? http(503) : http(200)),
    };
    await withOwnServer((server) =>
      withWorkerWith(
        script,
        async (taskQueue, calls) => {
          const run = () =>
            server.client.workflow.execute<typeof eventWorkflow>('eventWorkflow', {
              taskQueue,
              workflowId: eventWorkflowId(eventId),
              args: [{ eventId, policy }],
              workflowExecutionTimeout: '30 days',
            });
          const expectedIds = subscriptionIds.map((s) => deliveryWorkflowId(eventId, s));
          expect(await run()).toEqual({ started: 2, children: expectedIds });
          // A repeated dispatch after the first run closed, its deliveries waiting to retry: none starts again.
          expect(await run()).toEqual({ started: 0, children: expectedIds });
          const ends = await childResults(expectedIds, server);
          expect(ends.map((e) => [e.state, e.attempts])).toEqual([
            ['delivered', 2],
            ['delivered', 2],
          ]);
          // And after they ended: none delivers again.
          expect(await run()).toEqual({ started: 0, children: expectedIds });
          expect(calls.attemptDelivery).toHaveLength(4);
        },
        { patches: 'current', server },
      ),
    );
  });
});
