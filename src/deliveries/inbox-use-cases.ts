import type { Principal } from '../auth/api-keys';
import type { InboxOutcome, InboxPage } from '../contract/types';
import { storableText } from '../db/storable-text';
import { DomainError } from '../errors/domain-error';
import { assertMayChange } from '../subscriptions/authority';
import type { SubscriptionDoc, SubscriptionRepository } from '../subscriptions/repository';
import { createHash } from 'node:crypto';
import type { InboxHead, InboxRepository, ReportedOutcome } from './inbox';

/** What reading and answering a pull subscription's inbox needs. */
export interface InboxDeps {
  subscriptions: SubscriptionRepository;
  inbox: InboxRepository;
  /** Scopes each event type needs (the catalogue's `required_scopes`). */
  eventScopes: ReadonlyMap<string, readonly string[]>;
  /** Wakes the delivery workflow `workflowId` for `subscriptionId` (its retryNow signal); best effort: the round at the deadline reads the outcome anyway. */
  wake: (workflowId: string, subscriptionId: string) => Promise<void>;
  now?: () => Date;
  /** Between two reads of a long poll (default 1 s). */
  pollIntervalMs?: number;
}

/** Most messages one read answers. */
const PAGE = 100;

/**
 * The caller's pull subscription, if it may also have its data (the messages carry it): 404 for
 * another owner's, 403 as for changing it, 409 unless it is `pull`.
 */
async function pullSubscription(deps: InboxDeps, principal: Principal, id: string): Promise<SubscriptionDoc> {
  const sub = await deps.subscriptions.findOwned(principal.ownerId, id);
  if (!sub) throw DomainError.notFound(`No subscription ${id}`);
  assertMayChange(principal, sub, deps.eventScopes);
  if (sub.destination?.type !== 'pull') throw DomainError.conflict('Not A Pull Subscription', `Subscription ${id} is not delivered by pull; it has no inbox.`, [{ field: ['subscription_id'], message: `destination is ${sub.destination?.type ?? 'http'}, not pull` }]);
  return sub;
}

function toMessage(d: InboxHead, body: string): InboxPage['data'][number] {
  return { id: d._id, event_id: d.event_id, attempt: d.attempt, body, headers: d.headers, created_at: d.created_at.toISOString(), ack_by: d.ack_by.toISOString() };
}

/** The cursor of a page: a digest of its messages' ids, so a read with it waits until the page would differ. */
export function pageCursor(ids: readonly string[]): string {
  return `p1.${createHash('sha256').update(ids.join('\n')).digest('hex').slice(0, 32)}`;
}

/** How a long poll waits between reads; false when it should answer what it has (no place to read again). */
export type PollPause = (ms: number) => Promise<boolean>;

const sleep: PollPause = (ms) => new Promise((resolve) => setTimeout(() => resolve(true), ms));

/**
 * The waiting messages not yet due, oldest first (at most a page), with the cursor of that page.
 * No producer clock orders the reads: a message stored late appears in the next page like any
 * other, and one already handled appears again until its outcome is stored (deduplicate by id).
 * With `wait` and a page the same as the one `cursor` names (no cursor: an empty page), reads again every second until it
 * differs, the wait ends, `pause` says to stop or `signal` aborts (the client went away).
 */
export async function listInbox(
  deps: InboxDeps,
  principal: Principal,
  subscriptionId: string,
  query: { cursor?: string; wait?: number },
  opts: { signal?: AbortSignal; pause?: PollPause } = {},
): Promise<InboxPage> {
  await pullSubscription(deps, principal, subscriptionId);
  const now = () => deps.now?.() ?? new Date();
  const until = now().getTime() + (query.wait ?? 0) * 1000;
  const pause = opts.pause ?? sleep;
  for (;;) {
    const heads = await deps.inbox.waiting(subscriptionId, now(), PAGE);
    const cursor = pageCursor(heads.map((h) => h._id));
    // Without a cursor, any message is news.
    const same = query.cursor === undefined ? heads.length === 0 : cursor === query.cursor;
    const more = same && now().getTime() < until && !opts.signal?.aborted;
    if (!more || !(await pause(Math.min(deps.pollIntervalMs ?? 1000, Math.max(0, until - now().getTime()))))) {
      const bodies = await deps.inbox.bodies(heads.map((h) => h._id));
      // A message removed since the first read (retention) is left out.
      const page = heads.flatMap((h) => {
        const body = bodies.get(h._id);
        return body === undefined ? [] : [toMessage(h, body)];
      });
      return { data: page, next_cursor: page.length === heads.length ? cursor : pageCursor(page.map((m) => m.id)) };
    }
  }
}

/** True when `stored` is the same answer as `outcome`, reported again (a retried report). */
function sameOutcome(stored: ReportedOutcome, outcome: ReportedOutcome): boolean {
  return stored.status_code === outcome.status_code && stored.response_excerpt === outcome.response_excerpt && stored.duration_ms === outcome.duration_ms;
}

/**
 * Records the consumer's answer to a message (404 for one not of this subscription), then wakes
 * the workflow running its attempt: stored first, so a lost wake-up only delays the attempt to
 * its deadline, never loses the answer. The same answer reported again is accepted (a retried
 * report); a different one, or one after the deadline, is 409.
 */
export async function reportInboxOutcome(deps: InboxDeps, principal: Principal, subscriptionId: string, messageId: string, outcome: InboxOutcome): Promise<void> {
  await pullSubscription(deps, principal, subscriptionId);
  const msg = await deps.inbox.find(messageId);
  if (!msg || msg.subscription_id !== subscriptionId) throw DomainError.notFound(`No message ${messageId} in the inbox of ${subscriptionId}`);
  const at = deps.now?.() ?? new Date();
  const reported: ReportedOutcome = { status_code: outcome.status_code, response_excerpt: storableText(outcome.response_excerpt ?? ''), duration_ms: outcome.duration_ms ?? 0, reported_at: at };
  if (at < msg.ack_by && (await deps.inbox.settle(messageId, { state: 'reported', outcome: reported }, at))) {
    const runner = msg.round_workflow_id ?? msg.workflow_id;
    if (runner !== undefined) await deps.wake(runner, subscriptionId).catch(() => undefined);
    return;
  }
  const settlement = await deps.inbox.settlement(messageId);
  if (settlement?.state === 'reported' && sameOutcome(settlement.outcome, reported)) return;
  const field = settlement?.state === 'reported' ? { field: ['status_code'], message: `already reported as ${settlement.outcome.status_code}` } : { field: ['message_id'], message: `due by ${msg.ack_by.toISOString()}: the attempt is a timeout` };
  throw DomainError.conflict(
    'Outcome Already Settled',
    `Message ${messageId} has its outcome already${settlement?.state === 'reported' ? ', a different one' : ': its deadline passed (a timeout)'}.`,
    [field],
  );
}
