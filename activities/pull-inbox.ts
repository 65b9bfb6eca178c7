import { type InboxDoc, type InboxRepository, inboxMessageId, inboxSeq } from '../src/deliveries/inbox';
import type { AttemptResult, MadeAttempt, RetryOverride } from '../workflows/delivery-model';

/** How long a pull message waits for its consumer's outcome before the attempt is a timeout. */
export const PULL_ACK_DEADLINE_MS = 30_000;

/** One attempt to a pull subscription, as the round prepared it. */
export interface PullRequest {
  subscriptionId: string;
  eventId: string;
  attempt: number;
  /** The run's top workflow, woken by the report; absent in runs from before one activity per round. */
  origin: string | undefined;
  /** The workflow running this round (for a part, not the origin): the one the report wakes; absent outside an activity. */
  runner?: string | undefined;
  /** The subscription's `pull://label`, for the attempt log. */
  url: string;
  retry: { retry?: RetryOverride };
  /** Signs and renders the message (only when it is put). */
  render: () => { body: string; headers: Record<string, string> };
  now: Date;
  ackDeadlineMs?: number;
}

/**
 * An attempt to a pull subscription, over as many rounds as it takes: the first puts the message
 * in the inbox and puts the attempt off until its deadline (`deferred`, not an attempt); the API
 * wakes the workflow (retryNow) when the consumer reports, and the next round answers the
 * reported outcome as the attempt's result, or a `timeout` once the deadline passed unanswered.
 */
export async function pullAttempt(inbox: InboxRepository, req: PullRequest): Promise<AttemptResult> {
  // Without an origin the event's own run is the only one the message can belong to.
  const id = inboxMessageId(req.origin ?? req.eventId, req.subscriptionId, req.attempt);
  let found = await inbox.find(id);
  if (!found) {
    const deadline = req.ackDeadlineMs ?? PULL_ACK_DEADLINE_MS;
    const { body, headers } = req.render();
    const doc: InboxDoc = {
      _id: id,
      subscription_id: req.subscriptionId,
      event_id: req.eventId,
      attempt: req.attempt,
      ...(req.origin !== undefined ? { workflow_id: req.origin } : {}),
      ...(req.runner !== undefined ? { round_workflow_id: req.runner } : {}),
      seq: inboxSeq(req.now, id),
      body,
      headers,
      created_at: req.now,
      ack_by: new Date(req.now.getTime() + deadline),
      state: 'waiting',
    };
    if (await inbox.put(doc)) return waitFor(doc, req.now);
    // A retried round lost the insert to its own first try: it reads what that one stored, once.
    found = await inbox.find(id);
    if (!found) throw new Error(`inbox message ${id} was neither stored nor found`);
  }
  return settled(inbox, found, req);
}

/** The attempt put off until `doc`'s deadline, or until the report wakes the workflow. */
function waitFor(doc: InboxDoc, now: Date): AttemptResult {
  return { outcome: 'deferred', reason: 'waiting for the pull consumer to report the outcome', waitMs: Math.max(0, doc.ack_by.getTime() - now.getTime()), hold: 'pull_outcome' };
}

/**
 * What a found message says of its attempt: its settlement (the reported outcome, or a timeout),
 * still waiting before its deadline, or past it a timeout settled here unless the report won.
 */
async function settled(inbox: InboxRepository, doc: InboxDoc, req: PullRequest): Promise<AttemptResult> {
  // The message's state is a hint: only the settlement says who won.
  if (doc.state === 'waiting' && req.now < doc.ack_by) return waitFor(doc, req.now);
  let settlement = doc.state === 'waiting' ? null : await inbox.settlement(doc._id);
  if (!settlement && req.now >= doc.ack_by && doc.state === 'waiting') {
    if (await inbox.settle(doc._id, { state: 'expired' }, req.now)) return timedOut(doc, req);
    settlement = await inbox.settlement(doc._id);
  }
  // Settled before settlements were stored apart: the message carries its answer.
  settlement ??= doc.state === 'reported' && doc.outcome ? { _id: doc._id, state: 'reported', outcome: doc.outcome, settled_at: doc.outcome.reported_at } : { _id: doc._id, state: 'expired', settled_at: doc.ack_by };
  if (settlement.state === 'expired') return timedOut(doc, req);
  const o = settlement.outcome;
  const outcome = o.status_code >= 200 && o.status_code < 300 ? 'delivered' : 'http_error';
  return { startedAt: doc.created_at.getTime(), url: req.url, ...req.retry, durationMs: o.duration_ms, outcome, statusCode: o.status_code, responseExcerpt: o.response_excerpt } satisfies MadeAttempt;
}

/** The attempt of `doc` as a timeout: no outcome reported before its deadline. */
function timedOut(doc: InboxDoc, req: PullRequest): MadeAttempt {
  return { startedAt: doc.created_at.getTime(), url: req.url, ...req.retry, durationMs: doc.ack_by.getTime() - doc.created_at.getTime(), outcome: 'timeout', error: 'the pull consumer reported no outcome before the deadline' };
}
