import type { Principal } from '../auth/api-keys';
import type { InboxOutcome, InboxPage } from '../contract/types';
import { storableText } from '../db/storable-text';
import { DomainError } from '../errors/domain-error';
import { assertMayChange } from '../subscriptions/authority';
import type { SubscriptionDoc, SubscriptionRepository } from '../subscriptions/repository';
import type { InboxDoc, InboxRepository } from './inbox';

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
  if (sub.destination?.type !== 'pull') throw DomainError.conflict('Not A Pull Subscription', `Subscription ${id} is not delivered by pull; it has no inbox.`);
  return sub;
}

function toMessage(d: InboxDoc): InboxPage['data'][number] {
  return { id: d._id, event_id: d.event_id, attempt: d.attempt, body: d.body, headers: d.headers, created_at: d.created_at.toISOString(), ack_by: d.ack_by.toISOString() };
}

/**
 * The waiting messages after `cursor`; with `waitSeconds` and none there, reads again every
 * second until one comes, the wait ends or `signal` aborts (the client went away).
 */
export async function listInbox(deps: InboxDeps, principal: Principal, subscriptionId: string, query: { cursor?: string; wait?: number }, signal?: AbortSignal): Promise<InboxPage> {
  await pullSubscription(deps, principal, subscriptionId);
  const now = () => deps.now?.() ?? new Date();
  const until = now().getTime() + (query.wait ?? 0) * 1000;
  for (;;) {
    const docs = await deps.inbox.waiting(subscriptionId, query.cursor, PAGE);
    if (docs.length > 0 || now().getTime() >= until || signal?.aborted) {
      return { data: docs.map(toMessage), next_cursor: docs.at(-1)?.seq ?? query.cursor ?? '0' };
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(deps.pollIntervalMs ?? 1000, Math.max(0, until - now().getTime()))));
  }
}

/**
 * Records the consumer's answer to a waiting message (404 for one not of this subscription, 409
 * once it has an outcome or its deadline passed), then wakes its workflow: stored first, so a
 * lost wake-up only delays the attempt to its deadline, never loses the answer.
 */
export async function reportInboxOutcome(deps: InboxDeps, principal: Principal, subscriptionId: string, messageId: string, outcome: InboxOutcome): Promise<void> {
  await pullSubscription(deps, principal, subscriptionId);
  const msg = await deps.inbox.find(messageId);
  if (!msg || msg.subscription_id !== subscriptionId) throw DomainError.notFound(`No message ${messageId} in the inbox of ${subscriptionId}`);
  const at = deps.now?.() ?? new Date();
  const settled = () => DomainError.conflict('Outcome Already Settled', `Message ${messageId} has its outcome already${msg.state === 'expired' || at >= msg.ack_by ? ': its deadline passed (a timeout)' : ''}.`);
  if (msg.state !== 'waiting' || at >= msg.ack_by) throw settled();
  const reported = { status_code: outcome.status_code, response_excerpt: storableText(outcome.response_excerpt ?? ''), duration_ms: outcome.duration_ms ?? 0, reported_at: at };
  if (!(await deps.inbox.settle(messageId, { state: 'reported', outcome: reported }))) throw settled();
  if (msg.workflow_id !== undefined) await deps.wake(msg.workflow_id, subscriptionId).catch(() => undefined);
}
