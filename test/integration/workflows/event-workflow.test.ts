import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, Runtime, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventWorkflowStartOptions } from '../../../src/events/start-options';
import { withTimeout } from '../../../src/lib/timing';
import { preloadModules, workflowsPath } from '../../../src/worker/create-worker';
import { deliveryStatusQuery, type EventInput, type eventWorkflow, retryNowSignal } from '../../../workflows/event';
import { orderingTurnSignal } from '../../../workflows/definitions';
import { partWorkflowId } from '../../../workflows/ids';
import type { DeliveryPolicy, EventDeliveryStatus } from '../../../workflows/delivery-model';
import { deliveryStateKey, failedKey, retryingKey, subscriptionIdsKey } from '../../../workflows/search-attributes';
import { eventOutcome } from '../../support/event-workflows';
import { createTimeSkippingEnv } from '../../support/time-skipping';
import { registerSearchAttributes } from './support/search-attributes';
import { type AttemptCall, type FakeCalls, type FakeScript, failure, fakeActivities, http, skipped } from './support/fake-activities';

// The real event workflow on the time-skipping test server, with scripted fake activities.
// Every time asserted here is server (workflow) time: hours of backoff take seconds of real
// time. One server for the file, so tests run one at a time.

const minute = 60_000;
const defaultPolicy: DeliveryPolicy = { scheduleMs: [1, 5, 15, 30, 60, 120].map((m) => m * minute), maxAttempts: 7, jitterRatio: 0.1 };
/** Server time a step may take beyond its timer: workflow and activity tasks run in real time between skips. */
const slackMs = 10_000;
/** Real-time bound on one workflow run, well inside vitest's test timeout. */
const runBoundMs = 90_000;

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundleWithSourceMap;

beforeAll(async () => {
  const started = Date.now();
  [env, bundle] = await Promise.all([createTimeSkippingEnv(), bundleWorkflowCode({ workflowsPath, preloadModules, logger: Runtime.instance().logger })]);
  await registerSearchAttributes(env);
  console.log(`time-skipping server and workflow bundle ready in ${Date.now() - started}ms`);
});

afterAll(async () => {
  await env?.teardown();
});

/** Runs `body` with a worker (the real workflows, these fakes) on a fresh task queue. */
async function withWorker<T>(script: FakeScript, body: (taskQueue: string, calls: FakeCalls) => Promise<T>): Promise<T> {
  const taskQueue = `event-workflow-${randomUUID()}`;
  const { activities, calls } = fakeActivities(script, () => env.currentTimeMs());
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: bundle, activities });
  return worker.runUntil(withTimeout(body(taskQueue, calls), runBoundMs, taskQueue));
}

function subscriptions(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `sub_${i}_${randomUUID().slice(0, 8)}`);
}

function eventInput(subscriptionIds: string[], policy = defaultPolicy, batchSize = 50): EventInput {
  return { eventId: `evt_${randomUUID()}`, eventType: 'order.created', subscriptionIds, policy, batchSize };
}

/** Starts the event workflow as the dispatcher does (same options helper). */
function startEvent(taskQueue: string, input: EventInput): Promise<WorkflowHandle<typeof eventWorkflow>> {
  const run = { eventId: input.eventId, eventType: input.eventType, subscriptionIds: input.subscriptionIds };
  return env.client.workflow.start<typeof eventWorkflow>('eventWorkflow', {
    ...eventWorkflowStartOptions(run, { taskQueue, policy: input.policy, batchSize: input.batchSize }),
    // A workflow stuck on a lost signal fails at this bound instead of hanging the test.
    workflowExecutionTimeout: '30 days',
  });
}

/** Runs one event to its end with `script` answering the attempts. */
async function runEvent(script: FakeScript, input: EventInput) {
  return withWorker(script, async (taskQueue, calls) => {
    const handle = await startEvent(taskQueue, input);
    const outcome = await eventOutcome(env.client, handle.workflowId);
    return { input, handle, outcome, calls };
  });
}

/** Real (not workflow) time passing inside a fake activity. */
const realDelay = (ms: number) => new Promise((r) => setTimeout(r, ms));

const attemptsTo = (calls: FakeCalls, subscriptionId: string): AttemptCall[] => calls.attempts.filter((c) => c.input.subscriptionId === subscriptionId);

/** Each attempt's server time, relative to the first. */
function offsets(attempts: AttemptCall[]): number[] {
  const first = attempts[0]?.at ?? Number.NaN;
  return attempts.map((c) => c.at - first);
}

/** Nominal waits: after attempt k, the schedule's k-th interval (the last one repeats). */
function nominalWaits(policy: DeliveryPolicy, attempts: number): number[] {
  return Array.from({ length: attempts - 1 }, (_, k) => policy.scheduleMs[Math.min(k, policy.scheduleMs.length - 1)] ?? Number.NaN);
}

async function describeOf(handle: WorkflowHandle) {
  const d = await handle.describe();
  return { status: d.status.name, state: d.typedSearchAttributes.get(deliveryStateKey), retrying: d.typedSearchAttributes.get(retryingKey), failed: d.typedSearchAttributes.get(failedKey), subscriptions: d.typedSearchAttributes.get(subscriptionIdsKey) };
}

/** Polls the status query in real time (time does not skip meanwhile) until `ready`. */
async function queryUntil(handle: WorkflowHandle, ready: (s: EventDeliveryStatus) => boolean): Promise<EventDeliveryStatus> {
  let status: EventDeliveryStatus | undefined;
  for (const until = Date.now() + 20_000; Date.now() < until; ) {
    status = await handle.query(deliveryStatusQuery);
    if (ready(status)) return status;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`status never got ready: ${JSON.stringify(status)}`);
}

describe('eventWorkflow retry schedule (time-skipping server)', () => {
  it('runs the default schedule: 7 attempts at 0, 1, 6, 21, 51, 111, 231 minutes within the jitter bound, then fails, alerts once and ends Failed', async () => {
    const [sub] = subscriptions(1) as [string];
    const realStart = Date.now();
    const { input, handle, outcome, calls } = await runEvent({ attempt: () => http(503) }, eventInput([sub]));
    console.log(`231+ minutes of backoff took ${Date.now() - realStart}ms of real time`);

    expect(outcome).toMatchObject({ eventId: input.eventId, state: 'failed', subscriptions: { [sub]: { state: 'failed', attempts: 7, lastOutcome: 'http_error', lastStatusCode: 503 } } });
    const attempts = attemptsTo(calls, sub);
    expect(attempts.map((c) => c.input.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7]);

    const at = offsets(attempts);
    const waits = nominalWaits(defaultPolicy, 7);
    const nominal = waits.reduce<number[]>((acc, w) => [...acc, (acc.at(-1) ?? 0) + w], [0]);
    expect(nominal.map((ms) => ms / minute)).toEqual([0, 1, 6, 21, 51, 111, 231]);
    at.forEach((offset, k) => {
      expect(offset, `attempt ${k + 1}`).toBeGreaterThanOrEqual(nominal[k]!);
      expect(offset, `attempt ${k + 1}`).toBeLessThanOrEqual(nominal[k]! * (1 + defaultPolicy.jitterRatio) + (k + 1) * slackMs);
    });
    const gaps = at.slice(1).map((o, k) => o - at[k]!);
    gaps.forEach((gap, k) => {
      expect(gap, `wait after attempt ${k + 1}`).toBeGreaterThanOrEqual(waits[k]!);
      expect(gap, `wait after attempt ${k + 1}`).toBeLessThanOrEqual(waits[k]! * (1 + defaultPolicy.jitterRatio) + slackMs);
    });
    // Jitter is really applied (all six draws under a second is a ~1e-9 chance).
    expect(gaps.some((gap, k) => gap - waits[k]! > 1000)).toBe(true);

    expect(calls.logged.map((e) => [e.attempt, e.state])).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => [n, n < 7 ? 'retrying' : 'failed']));
    calls.logged.forEach((entry, k) => {
      expect(entry).toMatchObject({ eventId: input.eventId, subscriptionId: sub, series: `${handle.workflowId}#${sub}` });
      if (k === 6) return expect(entry).not.toHaveProperty('nextAttemptAt');
      // The promised next attempt is when it really happened (to within task processing).
      const next = attempts[k + 1]!.at;
      expect(next).toBeGreaterThanOrEqual(entry.nextAttemptAt!);
      expect(next - entry.nextAttemptAt!).toBeLessThanOrEqual(slackMs);
    });

    expect(calls.raiseAlert).toEqual([expect.objectContaining({ kind: 'delivery_failed', subscriptionId: sub, eventId: input.eventId, key: `${handle.workflowId}#${sub}` })]);
    expect(calls.disableSubscription).toHaveLength(0);
    // Failed in the UI's list, with the failed subscription in its search attributes.
    expect(await describeOf(handle)).toEqual({ status: 'FAILED', state: 'failed', retrying: undefined, failed: [sub], subscriptions: [sub] });
  });

  it('logs a round apart when its activity could not after the POSTs: each attempt sent once and logged once', async () => {
    const [sub] = subscriptions(1) as [string];
    const { outcome, calls } = await runEvent({ attempt: () => http(200), failLogWrites: 1 }, eventInput([sub]));
    expect(outcome).toMatchObject({ state: 'delivered', subscriptions: { [sub]: { state: 'delivered', attempts: 1 } } });
    expect(calls.attempts).toHaveLength(1);
    expect(calls.logged.map((e) => [e.attempt, e.state])).toEqual([[1, 'delivered']]);
  });

  it('stops after one attempt on a 400: no retry, no alert, the event Failed', async () => {
    const [sub] = subscriptions(1) as [string];
    const { outcome, calls, handle } = await runEvent({ attempt: () => http(400) }, eventInput([sub]));
    expect(outcome.subscriptions[sub]).toMatchObject({ state: 'stopped', attempts: 1, lastStatusCode: 400 });
    expect(calls.attempts).toHaveLength(1);
    expect(calls.logged).toEqual([expect.objectContaining({ attempt: 1, state: 'stopped' })]);
    expect(calls.logged[0]).not.toHaveProperty('nextAttemptAt');
    expect(calls.raiseAlert).toHaveLength(0);
    expect(calls.disableSubscription).toHaveLength(0);
    expect(await describeOf(handle)).toMatchObject({ status: 'FAILED', state: 'failed', failed: [sub] });
  });

  it('disables the subscription once on a 410 and stops', async () => {
    const [sub] = subscriptions(1) as [string];
    const { input, outcome, calls } = await runEvent({ attempt: () => http(410) }, eventInput([sub]));
    expect(outcome.subscriptions[sub]).toMatchObject({ state: 'stopped', attempts: 1, lastStatusCode: 410 });
    expect(calls.attempts).toHaveLength(1);
    expect(calls.disableSubscription).toEqual([expect.objectContaining({ subscriptionId: sub, eventId: input.eventId })]);
    expect(calls.disableSubscription[0]!.reason).toContain('410');
    // The activity itself raises the subscription_disabled alert; the workflow raises none.
    expect(calls.raiseAlert).toHaveLength(0);
  });

  it('alerts exactly once when attempts run out, the last interval repeating (maxAttempts 5, two intervals)', async () => {
    const [sub] = subscriptions(1) as [string];
    const policy: DeliveryPolicy = { scheduleMs: [1 * minute, 5 * minute], maxAttempts: 5, jitterRatio: 0.1 };
    const { outcome, calls } = await runEvent({ attempt: () => http(503) }, eventInput([sub], policy));
    expect(outcome.subscriptions[sub]).toMatchObject({ state: 'failed', attempts: 5 });
    const at = offsets(attemptsTo(calls, sub));
    const waits = nominalWaits(policy, 5);
    expect(waits.map((w) => w / minute)).toEqual([1, 5, 5, 5]);
    at.slice(1).forEach((o, k) => {
      expect(o - at[k]!).toBeGreaterThanOrEqual(waits[k]!);
      expect(o - at[k]!).toBeLessThanOrEqual(waits[k]! * 1.1 + slackMs);
    });
    expect(calls.logged.map((e) => e.state)).toEqual(['retrying', 'retrying', 'retrying', 'retrying', 'failed']);
    expect(calls.raiseAlert.map((a) => a.kind)).toEqual(['delivery_failed']);
  });

  it("follows a subscription's own retry schedule reported with its attempts (10 min, then 2 h repeating; 4 attempts), then fails and alerts once", async () => {
    const [sub, other] = subscriptions(2) as [string, string];
    const own = { scheduleMs: [10 * minute, 120 * minute], maxAttempts: 4 };
    const { outcome, calls } = await runEvent({ attempt: ({ subscriptionId }) => (subscriptionId === sub ? { ...http(503), retry: own } : http(503)) }, eventInput([sub, other], { ...defaultPolicy, maxAttempts: 5 }));
    expect(outcome.subscriptions[sub]).toMatchObject({ state: 'failed', attempts: 4 });
    // The other subscription of the same event keeps the workflow's policy.
    expect(outcome.subscriptions[other]).toMatchObject({ state: 'failed', attempts: 5 });
    const at = offsets(attemptsTo(calls, sub));
    const waits = [10, 120, 120].map((m) => m * minute);
    expect(at).toHaveLength(4);
    at.slice(1).forEach((o, k) => {
      expect(o - at[k]!, `wait after attempt ${k + 1}`).toBeGreaterThanOrEqual(waits[k]!);
      expect(o - at[k]!, `wait after attempt ${k + 1}`).toBeLessThanOrEqual(waits[k]! * (1 + defaultPolicy.jitterRatio) + slackMs);
    });
    const otherAt = offsets(attemptsTo(calls, other));
    expect(otherAt[1]! - otherAt[0]!).toBeLessThanOrEqual(1 * minute * 1.1 + slackMs);
    expect(calls.logged.filter((e) => e.subscriptionId === sub).map((e) => e.state)).toEqual(['retrying', 'retrying', 'retrying', 'failed']);
    expect(calls.raiseAlert.filter((a) => a.subscriptionId === sub).map((a) => a.kind)).toEqual(['delivery_failed']);
  });

  it('ends cancelled when the subscription is paused during the backoff: no further POST, no alert, the event Completed', async () => {
    const [sub] = subscriptions(1) as [string];
    const { outcome, calls, handle } = await runEvent({ attempt: ({ attempt }) => (attempt === 1 ? http(503) : skipped('subscription paused')) }, eventInput([sub]));
    expect(outcome).toMatchObject({
      state: 'cancelled',
      subscriptions: { [sub]: { state: 'cancelled', attempts: 1, lastOutcome: 'http_error', lastStatusCode: 503, cancelReason: 'subscription paused' } },
    });
    expect(calls.attempts.map((c) => c.input.attempt)).toEqual([1, 2]);
    expect(calls.logged).toHaveLength(1);
    expect(calls.raiseAlert).toHaveLength(0);
    expect(await describeOf(handle)).toMatchObject({ status: 'COMPLETED', state: 'cancelled', retrying: undefined, failed: undefined });
  });

  it("waits for a 429's longer Retry-After instead of the 1-minute interval", async () => {
    const [sub] = subscriptions(1) as [string];
    const retryAfterMs = 10 * minute;
    const { outcome, calls } = await runEvent({ attempt: ({ attempt }) => (attempt === 1 ? http(429, { retryAfterMs }) : http(200)) }, eventInput([sub]));
    expect(outcome.subscriptions[sub]).toMatchObject({ state: 'delivered', attempts: 2, lastStatusCode: 200 });
    const [, second] = offsets(calls.attempts);
    expect(second).toBeGreaterThanOrEqual(retryAfterMs - 1000);
    expect(second).toBeLessThanOrEqual(retryAfterMs + slackMs);
    expect(calls.logged[0]!.nextAttemptAt! - calls.attempts[0]!.at).toBeGreaterThanOrEqual(retryAfterMs - 1000);
  });

  it("reports the last attempt's own outcome: a network error after a 500 shows no status code", async () => {
    const [sub] = subscriptions(1) as [string];
    const policy: DeliveryPolicy = { scheduleMs: [minute], maxAttempts: 5, jitterRatio: 0 };
    await withWorker({ attempt: ({ attempt }) => (attempt === 1 ? http(500) : attempt === 2 ? failure('network_error') : http(200)) }, async (taskQueue) => {
      const handle = await startEvent(taskQueue, eventInput([sub], policy));
      const afterFirst = await queryUntil(handle, (s) => s.subscriptions[sub]?.attempts === 1 && s.state === 'retrying');
      expect(afterFirst.subscriptions[sub]).toMatchObject({ lastOutcome: 'http_error', lastStatusCode: 500 });
      await handle.signal(retryNowSignal, { subscriptionId: sub });
      const afterSecond = await queryUntil(handle, (s) => s.subscriptions[sub]?.attempts === 2 && s.state === 'retrying');
      expect(afterSecond.subscriptions[sub]).toMatchObject({ lastOutcome: 'network_error', lastError: 'ECONNREFUSED' });
      expect(afterSecond.subscriptions[sub]).not.toHaveProperty('lastStatusCode');
      expect((await eventOutcome(env.client, handle.workflowId)).subscriptions[sub]).toMatchObject({ state: 'delivered', attempts: 3, lastStatusCode: 200 });
    });
  });
});

describe('eventWorkflow across subscribers (time-skipping server)', () => {
  it('delivers to every subscriber concurrently, each retrying on its own, sends and logs the first attempts as one round, and its history replays', async () => {
    const subs = subscriptions(5);
    const [ok, flaky, rejecting, slow, gone] = subs as [string, string, string, string, string];
    const answers: Record<string, (attempt: number) => ReturnType<typeof http>> = {
      [ok]: () => http(200),
      [flaky]: (n) => (n < 3 ? http(503) : http(204)),
      [rejecting]: () => http(422),
      [slow]: (n) => (n === 1 ? failure('timeout') : http(200)),
      [gone]: () => http(410),
    };
    // Answers arrive at different times, as from real receivers.
    const script: FakeScript = { attempt: async ({ subscriptionId, attempt }) => (await realDelay(subs.indexOf(subscriptionId) * 40), answers[subscriptionId]!(attempt)) };
    await withWorker(script, async (taskQueue, calls) => {
      const handle = await startEvent(taskQueue, eventInput(subs));
      // While two wait to retry, the search attributes say so.
      const waiting = await queryUntil(handle, (s) => s.state === 'retrying' && Object.values(s.subscriptions).every((x) => x.attempts >= 1));
      expect(Object.entries(waiting.subscriptions).filter(([, s]) => s.state === 'retrying').map(([id]) => id).sort()).toEqual([flaky, slow].sort());
      expect(await describeOf(handle)).toMatchObject({ status: 'RUNNING', state: 'retrying', retrying: [flaky, slow].sort(), failed: [rejecting, gone].sort() });

      const outcome = await eventOutcome(env.client, handle.workflowId);
      const states = Object.fromEntries(Object.entries(outcome.subscriptions).map(([id, s]) => [id, [s.state, s.attempts]]));
      expect(states).toEqual({ [ok]: ['delivered', 1], [flaky]: ['delivered', 3], [rejecting]: ['stopped', 1], [slow]: ['delivered', 2], [gone]: ['stopped', 1] });
      // Every first attempt went out at once, before any retry.
      const firsts = calls.attempts.filter((c) => c.input.attempt === 1);
      expect(firsts).toHaveLength(5);
      expect(Math.max(...firsts.map((c) => c.at)) - Math.min(...firsts.map((c) => c.at))).toBeLessThan(minute);
      expect(calls.attempts.slice(0, 5).every((c) => c.input.attempt === 1)).toBe(true);
      // The five first attempts went out in one round, and were logged in one write once all had ended.
      expect(calls.rounds[0]).toEqual(subs);
      expect(calls.logWrites[0]!.map((e) => e.attempt)).toEqual([1, 1, 1, 1, 1]);
      expect(calls.logged).toHaveLength(8);
      expect(calls.disableSubscription.map((d) => d.subscriptionId)).toEqual([gone]);
      expect(await describeOf(handle)).toEqual({ status: 'FAILED', state: 'failed', retrying: undefined, failed: [rejecting, gone].sort(), subscriptions: subs });
      // Results that arrived one by one replay as one batch: the workflow must decide the same.
      await expect(Worker.runReplayHistory({ workflowBundle: bundle }, await handle.fetchHistory(), handle.workflowId)).resolves.toBeUndefined();
    });
  });

  it('retryNow with a subscription id wakes only that delivery; without one, every waiting one; the status query shows the waits', async () => {
    const [a, b, c] = subscriptions(3) as [string, string, string];
    const policy: DeliveryPolicy = { scheduleMs: [60 * minute], maxAttempts: 3, jitterRatio: 0.1 };
    await withWorker({ attempt: ({ attempt }) => (attempt === 1 ? http(503) : http(200)) }, async (taskQueue, calls) => {
      const handle = await startEvent(taskQueue, eventInput([a, b, c], policy));
      const waiting = await queryUntil(handle, (s) => Object.values(s.subscriptions).every((x) => x.state === 'retrying'));
      const firstAt = calls.attempts[0]!.at;
      for (const s of Object.values(waiting.subscriptions)) {
        expect(s).toMatchObject({ attempts: 1, lastOutcome: 'http_error', lastStatusCode: 503 });
        expect(s.nextAttemptAt! - firstAt).toBeGreaterThanOrEqual(60 * minute);
        expect(s.nextAttemptAt! - firstAt).toBeLessThanOrEqual(66 * minute + slackMs);
      }
      await handle.signal(retryNowSignal, { subscriptionId: a });
      const woken = await queryUntil(handle, (s) => s.subscriptions[a]!.state === 'delivered');
      expect([woken.subscriptions[b]!.state, woken.subscriptions[c]!.state]).toEqual(['retrying', 'retrying']);
      expect(attemptsTo(calls, a)[1]!.at - firstAt).toBeLessThan(minute);
      await handle.signal(retryNowSignal);
      const outcome = await eventOutcome(env.client, handle.workflowId);
      expect(Object.values(outcome.subscriptions).map((s) => [s.state, s.attempts])).toEqual([
        ['delivered', 2],
        ['delivered', 2],
        ['delivered', 2],
      ]);
      for (const id of [b, c]) expect(attemptsTo(calls, id)[1]!.at - firstAt).toBeLessThan(minute);
    });
  });

  it('keeps a retryNow signal that arrives while an attempt is still running', async () => {
    const [sub] = subscriptions(1) as [string];
    const policy: DeliveryPolicy = { scheduleMs: [60 * minute], maxAttempts: 3, jitterRatio: 0 };
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const script: FakeScript = { attempt: async ({ attempt }) => (attempt === 1 ? (await held, http(503)) : http(200)) };
    await withWorker(script, async (taskQueue, calls) => {
      const handle = await startEvent(taskQueue, eventInput([sub], policy));
      for (const until = Date.now() + 20_000; calls.attempts.length === 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
      expect(calls.attempts).toHaveLength(1);
      await handle.signal(retryNowSignal, { subscriptionId: sub }); // while attempt 1 is in flight
      release();
      expect((await eventOutcome(env.client, handle.workflowId)).subscriptions[sub]).toMatchObject({ state: 'delivered', attempts: 2 });
      expect(calls.attempts[1]!.at - calls.attempts[0]!.at).toBeLessThan(minute);
    });
  });

  it('splits a fan-out larger than the batch size into parts running the same workflow, and merges their outcomes', async () => {
    const subs = subscriptions(5);
    const rejected = subs[3]!;
    await withWorker({ attempt: ({ subscriptionId }) => (subscriptionId === rejected ? http(400) : http(200)) }, async (taskQueue, calls) => {
      const input = eventInput(subs, defaultPolicy, 2);
      const handle = await startEvent(taskQueue, input);
      const outcome = await eventOutcome(env.client, handle.workflowId);
      const parts = [1, 2, 3].map((k) => partWorkflowId(handle.workflowId, k));
      expect(outcome.parts).toEqual(parts);
      expect(Object.keys(outcome.subscriptions).sort()).toEqual([...subs].sort());
      expect(subs.map((id) => outcome.subscriptions[id]!.state)).toEqual(['delivered', 'delivered', 'delivered', 'stopped', 'delivered']);
      // Each part delivered its own slice, and its search attributes name it.
      expect(calls.attempts.map((c) => [c.workflowId, c.input.subscriptionId]).sort()).toEqual(subs.map((id, i) => [parts[Math.floor(i / 2)], id]).sort());
      expect((await describeOf(env.client.workflow.getHandle(parts[1]!))).subscriptions).toEqual(subs.slice(2, 4));
      expect(await describeOf(env.client.workflow.getHandle(parts[1]!))).toMatchObject({ status: 'FAILED', failed: [rejected] });
      expect(await describeOf(env.client.workflow.getHandle(parts[0]!))).toMatchObject({ status: 'COMPLETED', state: 'delivered' });
      // The parent names no subscriptions itself (a large list would not fit a search attribute value) and ends Failed.
      expect(await describeOf(handle)).toMatchObject({ status: 'FAILED', state: 'failed', subscriptions: undefined });
      // The attempt series is the parent's: a redelivery of the event logs a fresh one.
      expect(calls.logged.every((e) => e.series === `${handle.workflowId}#${e.subscriptionId}`)).toBe(true);
    });
  });
});

describe('eventWorkflow of an ordered delivery waiting for its turn (time-skipping server)', () => {
  const refused = { go: false, waitFor: 'evt_before', reason: 'in_delivery' } as const;

  /** Starts the event as the dispatcher does, `ordered` getting it in the order of key order:1 (place 2). */
  function startOrdered(taskQueue: string, input: EventInput, ordered: string[]): Promise<WorkflowHandle<typeof eventWorkflow>> {
    const run = { eventId: input.eventId, eventType: input.eventType, subscriptionIds: input.subscriptionIds, ordering: { key: 'order:1', seq: 2, subscriptionIds: ordered } };
    return env.client.workflow.start<typeof eventWorkflow>('eventWorkflow', {
      ...eventWorkflowStartOptions(run, { taskQueue, policy: input.policy, batchSize: input.batchSize }),
      workflowExecutionTimeout: '30 days',
    });
  }

  /** Waits in real time (the server's clock then runs at its own pace, no skipping) until `count` turn checks were made. */
  async function checksMade(checks: readonly number[], count: number): Promise<void> {
    for (const until = Date.now() + 20_000; checks.length < count && Date.now() < until; ) await realDelay(50);
    expect(checks).toHaveLength(count);
  }

  /** The server-time gaps between consecutive checks. */
  const gaps = (checks: readonly number[]) => checks.slice(1).map((at, i) => at - checks[i]!);

  it('asks again after 30 s, then twice as long each time, and after 30 s again once a signal woke it', async () => {
    const [sub] = subscriptions(1) as [string];
    const checks: number[] = [];
    const script: FakeScript = { attempt: () => http(200), turn: async (_d, check) => (checks.push(await env.currentTimeMs()), check <= 4 ? refused : { go: true }) };
    await withWorker(script, async (taskQueue) => {
      const handle = await startOrdered(taskQueue, eventInput([sub]), [sub]);
      await checksMade(checks, 1);
      await env.sleep(30_000);
      await checksMade(checks, 2);
      await env.sleep(60_000);
      await checksMade(checks, 3);
      await handle.signal(orderingTurnSignal, { subscriptionId: sub });
      await checksMade(checks, 4);
      expect((await eventOutcome(env.client, handle.workflowId)).subscriptions[sub]).toMatchObject({ state: 'delivered', attempts: 1 });
    });
    const [first, second, signalled, after] = gaps(checks) as [number, number, number, number];
    expect(first).toBeGreaterThanOrEqual(30_000);
    expect(first).toBeLessThan(30_000 + slackMs);
    expect(second).toBeGreaterThanOrEqual(60_000);
    expect(second).toBeLessThan(60_000 + slackMs);
    expect(signalled).toBeLessThan(slackMs);
    expect(after).toBeGreaterThanOrEqual(30_000);
    expect(after).toBeLessThan(30_000 + slackMs);
  });

  it("passes a drained run's turn on while the gate holds it: the next drained run goes at its time, the held one when its turn comes", async () => {
    const [ordered, other] = subscriptions(2) as [string, string];
    const checks: number[] = [];
    const script: FakeScript = { attempt: () => http(200), turn: async (_d, check) => (checks.push(await env.currentTimeMs()), check <= 1 ? refused : { go: true }) };
    await withWorker(script, async (taskQueue, calls) => {
      const now = await env.currentTimeMs();
      // Two runs of one drain's page: the ordered one first, the other waiting for its turn (DRAIN_TURN_WAIT_MS at most).
      const next = eventInput([other]);
      const nextOptions = eventWorkflowStartOptions(next, { taskQueue, policy: next.policy, batchSize: next.batchSize });
      const first = eventInput([ordered]);
      const run = { eventId: first.eventId, eventType: first.eventType, subscriptionIds: [ordered], ordering: { key: 'order:1', seq: 2, subscriptionIds: [ordered] } };
      const firstOptions = eventWorkflowStartOptions(run, { taskQueue, policy: first.policy, batchSize: first.batchSize });
      const nextHandle = await env.client.workflow.start<typeof eventWorkflow>('eventWorkflow', {
        ...nextOptions,
        args: [{ ...nextOptions.args[0], notBefore: now + 2_000, turn: { wait: true, next: 'drain/nobody' } }],
        workflowExecutionTimeout: '30 days',
      });
      const handle = await env.client.workflow.start<typeof eventWorkflow>('eventWorkflow', {
        ...firstOptions,
        args: [{ ...firstOptions.args[0], notBefore: now + 1_000, turn: { wait: false, next: nextHandle.workflowId } }],
        workflowExecutionTimeout: '30 days',
      });
      expect((await eventOutcome(env.client, nextHandle.workflowId)).subscriptions[other]).toMatchObject({ state: 'delivered', attempts: 1 });
      // It went on the turn the held run passed on, not after its wait ran out; the held one has not gone.
      expect(attemptsTo(calls, other)[0]!.at - now).toBeLessThan(2_000 + slackMs);
      expect(attemptsTo(calls, ordered)).toEqual([]);
      await handle.signal(orderingTurnSignal, { subscriptionId: ordered });
      expect((await eventOutcome(env.client, handle.workflowId)).subscriptions[ordered]).toMatchObject({ state: 'delivered', attempts: 1 });
      // Reported (a local activity: at least once) for the key's next event.
      expect(new Set(calls.ends.map((e) => e.eventId))).toEqual(new Set([first.eventId]));
    });
  });

  it("passes a parent of parts' orderingTurn signal on to the part holding the subscription: it goes without its timer", async () => {
    const [ordered, other] = subscriptions(2) as [string, string];
    const checks: number[] = [];
    const script: FakeScript = { attempt: () => http(200), turn: async (_d, check) => (checks.push(await env.currentTimeMs()), check <= 1 ? refused : { go: true }) };
    await withWorker(script, async (taskQueue, calls) => {
      // One subscription per part: the ordered one waits in part 1.
      const handle = await startOrdered(taskQueue, eventInput([ordered, other], defaultPolicy, 1), [ordered]);
      await checksMade(checks, 1);
      // The end of the delivery before it signals the event's own workflow: the parent.
      await handle.signal(orderingTurnSignal, { subscriptionId: ordered });
      await checksMade(checks, 2);
      const outcome = await eventOutcome(env.client, handle.workflowId);
      expect(outcome.subscriptions[ordered]).toMatchObject({ state: 'delivered', attempts: 1 });
      expect(calls.turns.every((t) => t.subscriptionId === ordered)).toBe(true);
    });
    expect(gaps(checks)[0]).toBeLessThan(slackMs);
  });
});
