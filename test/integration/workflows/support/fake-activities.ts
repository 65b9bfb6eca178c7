import { activityInfo } from '@temporalio/activity';
import type { Activities } from '../../../../activities';
import { type AlertInput, type AttemptAndRecordInput, type AttemptInput, type AttemptResult, type RecordInput, settleIntoEntry } from '../../../../activities/delivery';
import type { Settlement } from '../../../../workflows/retry-policy';

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
  /** The activity that made it: attemptAndRecord since the 'attempt-records-itself' patch, attemptDelivery before. */
  via: 'attemptAndRecord' | 'attemptDelivery';
  /** The workflow's jitter sample, passed to attemptAndRecord. */
  random?: number;
}

export interface FakeCalls {
  loadEventTargets: string[];
  /** Every attempt, through either activity. */
  attemptDelivery: AttemptCall[];
  /** Every attempt log entry written, by attemptAndRecord itself or by the recordAttempt activity. */
  recordAttempt: RecordInput[];
  /** Calls of the recordAttempt activity alone: every entry before the patch, only fallbacks after it. */
  recordAttemptActivity: RecordInput[];
  disableSubscription: { subscriptionId: string; eventId: string; reason: string }[];
  raiseAlert: AlertInput[];
}

export interface FakeScript {
  /** The answer to each attempt; `input.attempt` is the workflow's attempt number. */
  attempt: (input: AttemptInput, call: AttemptCall) => AttemptResult | Promise<AttemptResult>;
  /** What loadEventTargets returns (eventWorkflow only). */
  targets?: (eventId: string) => { type: string; subscriptionIds: string[] };
  /** True when attemptAndRecord is to fail writing this attempt's log entry (it then returns `recorded: false`). */
  recordFails?: (input: AttemptAndRecordInput) => boolean;
  /** Replaces attemptAndRecord's settlement (default: settleAttempt, as the real activity). */
  settle?: (input: AttemptAndRecordInput, result: Exclude<AttemptResult, { outcome: 'skipped' }>) => Settlement;
}

/** Builds fake activities answering from `script`; `calls` fills in as the workflows run. */
export function fakeActivities(script: FakeScript, clock?: () => Promise<number>): { activities: Activities; calls: FakeCalls } {
  const calls: FakeCalls = { loadEventTargets: [], attemptDelivery: [], recordAttempt: [], recordAttemptActivity: [], disableSubscription: [], raiseAlert: [] };
  /** Both attempt activities: the call as recorded, and the script's answer. */
  async function attempt(input: AttemptInput | AttemptAndRecordInput, via: AttemptCall['via']): Promise<{ call: AttemptCall; result: AttemptResult }> {
    const info = activityInfo();
    // The attempts are local activities: their info carries the worker's wall clock, so the
    // test server's (skipped) time comes from `clock` when given.
    const scheduledAt = clock ? await clock() : info.currentAttemptScheduledTimestampMs;
    const call: AttemptCall = {
      input: { eventId: input.eventId, subscriptionId: input.subscriptionId, attempt: input.attempt },
      workflowId: info.workflowExecution?.workflowId ?? '',
      scheduledAt,
      via,
      ...('random' in input ? { random: input.random } : {}),
    };
    calls.attemptDelivery.push(call);
    const result = await script.attempt(input, call);
    return { call, result: result.outcome === 'skipped' ? result : { ...result, startedAt: call.scheduledAt } };
  }
  const activities: Activities = {
    // Most fakes answer at once; `async` keeps the real activities' Promise signatures.
    // eslint-disable-next-line @typescript-eslint/require-await
    async loadEventTargets(eventId) {
      calls.loadEventTargets.push(eventId);
      if (!script.targets) throw new Error('this test scripted no loadEventTargets');
      return script.targets(eventId);
    },
    async attemptDelivery(input) {
      return (await attempt(input, 'attemptDelivery')).result;
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async recordAttempt(input) {
      calls.recordAttempt.push(input);
      calls.recordAttemptActivity.push(input);
    },
    // As the real one: settles with the workflow's policy and sample, logs unless scripted to fail.
    async attemptAndRecord(input) {
      const { result } = await attempt(input, 'attemptAndRecord');
      if (result.outcome === 'skipped') return { kind: 'skipped', reason: result.reason };
      // The real activity reads the clock after the POST; here that is the server's (skipped) time.
      const { entry, settled } = settleIntoEntry(input, result, clock ? await clock() : Date.now(), script.settle?.(input, result));
      if (script.recordFails?.(input)) return { ...settled, recorded: false, recordError: 'scripted log write failure' };
      calls.recordAttempt.push(entry);
      return { ...settled, recorded: true };
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
