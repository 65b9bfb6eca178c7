import { activityInfo } from '@temporalio/activity';
import type { Activities } from '../../../../activities';
import type { AlertInput, AttemptInput, AttemptResult, RecordInput } from '../../../../activities/delivery';

/**
 * Fake activities for workflow tests: the real workflows run against them, they record every
 * call and answer from a script. Times are the activity's scheduled time as the server saw it,
 * which on the time-skipping server is the skipped (workflow) clock, not wall time.
 */

export const receiverUrl = 'https://receiver.example/hooks';

/** A receiver's HTTP answer as attemptDelivery reports it. */
export function http(statusCode: number, extra: { retryAfterMs?: number } = {}): AttemptResult {
  return {
    outcome: statusCode >= 200 && statusCode < 300 ? 'delivered' : 'http_error',
    statusCode,
    responseExcerpt: '',
    ...extra,
    startedAt: 0,
    durationMs: 1,
    url: receiverUrl,
  };
}

/** An attempt the activity skipped without a POST (subscription paused, disabled or deleted). */
export function skipped(reason: string): AttemptResult {
  return { outcome: 'skipped', reason };
}

export interface AttemptCall {
  input: AttemptInput;
  workflowId: string;
  /** Server time (ms) when the workflow scheduled this attempt. */
  scheduledAt: number;
}

export interface FakeCalls {
  loadEventTargets: string[];
  attemptDelivery: AttemptCall[];
  recordAttempt: RecordInput[];
  disableSubscription: { subscriptionId: string; eventId: string; reason: string }[];
  raiseAlert: AlertInput[];
}

export interface FakeScript {
  /** The answer to each attempt; `input.attempt` is the workflow's attempt number. */
  attempt: (input: AttemptInput, call: AttemptCall) => AttemptResult | Promise<AttemptResult>;
  /** What loadEventTargets returns (eventWorkflow only). */
  targets?: (eventId: string) => { type: string; subscriptionIds: string[] };
}

/** Builds fake activities answering from `script`; `calls` fills in as the workflows run. */
export function fakeActivities(script: FakeScript, clock?: () => Promise<number>): { activities: Activities; calls: FakeCalls } {
  const calls: FakeCalls = { loadEventTargets: [], attemptDelivery: [], recordAttempt: [], disableSubscription: [], raiseAlert: [] };
  const activities: Activities = {
    // Most fakes answer at once; `async` keeps the real activities' Promise signatures.
    // eslint-disable-next-line @typescript-eslint/require-await
    async loadEventTargets(eventId) {
      calls.loadEventTargets.push(eventId);
      if (!script.targets) throw new Error('this test scripted no loadEventTargets');
      return script.targets(eventId);
    },
    async attemptDelivery(input) {
      const info = activityInfo();
      // attemptDelivery is a local activity: its info carries the worker's wall clock, so the
      // test server's (skipped) time comes from `clock` when given.
      const scheduledAt = clock ? await clock() : info.currentAttemptScheduledTimestampMs;
      const call: AttemptCall = { input, workflowId: info.workflowExecution?.workflowId ?? '', scheduledAt };
      calls.attemptDelivery.push(call);
      const result = await script.attempt(input, call);
      return result.outcome === 'skipped' ? result : { ...result, startedAt: call.scheduledAt };
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async recordAttempt(input) {
      calls.recordAttempt.push(input);
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async disableSubscription(input) {
      calls.disableSubscription.push(input);
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async raiseAlert(input) {
      calls.raiseAlert.push(input);
      return { id: `alert-${calls.raiseAlert.length}`, notified: false };
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async checkDatabase() {
      throw new Error('checkDatabase is not part of delivery workflows');
    },
  };
  return { activities, calls };
}
