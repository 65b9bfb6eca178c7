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
  const found = await inbox.find(id);
  if (!found) {
    const deadline = req.ackDeadlineMs ?? PULL_ACK_DEADLINE_MS;
    const { body, headers } = req.render();
    const doc: InboxDoc = {
      _id: id,
      subscription_id: req.subscriptionId,
      event_id: req.eventId,
      attempt: req.attempt,
      ...(req.origin !== undefined ? { workflow_id: req.origin } : {}),
      seq: inboxSeq(req.now, id),
      body,
      headers,
      created_at: req.now,
      ack_by: new Date(req.now.getTime() + deadline),
      state: 'waiting',
    };
    // A retried round that lost the race to its own first try reads what that one stored.
    if (!(await inbox.put(doc))) return pullAttempt(inbox, req);
    return waitFor(doc, req.now);
  }
  return settled(inbox, found, req);
}

/** The attempt put off until `doc`'s deadline, or until the report wakes the workflow. */
function waitFor(doc: InboxDoc, now: Date): AttemptResult {
  return { outcome: 'deferred', reason: 'waiting for the pull consumer to report the outcome', waitMs: Math.max(0, doc.ack_by.getTime() - now.getTime()), hold: 'pull_outcome' };
}

/** What a found message says of its attempt: its reported outcome, a timeout past its deadline, or still waiting. */
async function settled(inbox: InboxRepository, doc: InboxDoc, req: PullRequest): Promise<AttemptResult> {
  const base = { startedAt: doc.created_at.getTime(), url: req.url, ...req.retry };
  if (doc.state === 'reported' && doc.outcome) {
    const o = doc.outcome;
    const outcome = o.status_code >= 200 && o.status_code < 300 ? 'delivered' : 'http_error';
    return { ...base, durationMs: o.duration_ms, outcome, statusCode: o.status_code, responseExcerpt: o.response_excerpt } satisfies MadeAttempt;
  }
  const timedOut: MadeAttempt = { ...base, durationMs: doc.ack_by.getTime() - doc.created_at.getTime(), outcome: 'timeout', error: 'the pull consumer reported no outcome before the deadline' };
  if (doc.state === 'expired') return timedOut;
  if (req.now < doc.ack_by) return waitFor(doc, req.now);
  // The deadline passed: expire it, unless the report won the race (then answer the report).
  if (await inbox.settle(doc._id, { state: 'expired' })) return timedOut;
  const now = await inbox.find(doc._id);
  return now ? settled(inbox, now, req) : timedOut;
}
