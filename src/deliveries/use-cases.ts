import type { Principal } from '../auth/api-keys';
import { actsForAllOwners } from '../auth/ownership';
import { missingScopes } from '../auth/scopes';
import { type AlertRepository, toAlert } from '../alerts/repository';
import { newId } from '../db/ids';
import type { EventDispatcher } from '../events/dispatcher';
import type { EventRepository } from '../events/repository';
import { decodeCursor, toPage } from '../contract/pagination';
import { DomainError } from '../errors/domain-error';
import type { Alert, DeliveryAttempt, EventType, SubscriptionEvent, SubscriptionStats } from '../contract/types';
import type { SubscriptionDoc, SubscriptionRepository } from '../subscriptions/repository';
import { assertMayChange, missingAuthority } from '../subscriptions/authority';
import { type AttemptDoc, type AttemptFilter, type AttemptRepository, toDeliveryAttempt } from './attempts';
import { buildTimeline, type DeliveryTimeline, drainedRun, overdueSeries, type PendingAttempt } from './timeline';
import { RECENT_HEALTH_CAP, RECENT_HEALTH_MS, recentHealth, type SubscriptionHealth } from './recent-health';
import { sampleEvent } from './sample-events';
import { hourlyStats, statsWindowStart } from './stats';
import { resourceUrl } from '../webhooks/envelopes';

export interface DeliveryDeps {
  subscriptions: SubscriptionRepository;
  attempts: AttemptRepository;
  alerts: AlertRepository;
  /** The event log: the events a subscription was sent, and those to send again. */
  events: EventRepository;
  /** Dispatches test events and redeliveries. */
  dispatcher: EventDispatcher;
  /** Origin of the events' `data.url` (PUBLIC_URL); the request's own origin when unset. */
  publicUrl: string | undefined;
  /** Scopes each event type needs (the catalogue's `required_scopes`): reading its data, and sending to a subscription (what creating it would need). */
  eventScopes: ReadonlyMap<string, readonly string[]>;
  /** The attempt a delivery workflow has waiting for a subscription (its `pendingAttempts` query); absent: timelines come from the attempt log alone. */
  pendingAttempt?: (workflowId: string, subscriptionId: string) => Promise<PendingAttempt | undefined>;
}

/** The scopes `principal` lacks to read data of event `type`: those reading the resource needs (the catalogue's `required_scopes`). */
function scopesLackedFor(deps: DeliveryDeps, principal: Principal, type: string): string[] {
  return missingScopes(principal.scopes, deps.eventScopes.get(type) ?? []);
}

/**
 * What `principal` lacks to read an event's data: its type's scopes, and `admin` when the data is
 * another owner's (an admin key's all-owners subscription receives every owner's events).
 */
function withheldFrom(deps: DeliveryDeps, principal: Principal, event: { type: string; data_owner?: string | undefined }, allOwners: boolean): string[] {
  const foreign = (allOwners || (event.data_owner !== undefined && event.data_owner !== principal.ownerId)) && !actsForAllOwners(principal);
  return [...scopesLackedFor(deps, principal, event.type), ...(foreign ? ['admin'] : [])];
}

/** 403 naming the scopes unless `principal` may read the data of every one of `types`: sending an event again hands its data on. */
function assertMayResend(deps: DeliveryDeps, principal: Principal, types: readonly string[]): void {
  const missing = [...new Set(types.flatMap((t) => scopesLackedFor(deps, principal, t)))];
  if (missing.length) {
    throw DomainError.forbidden(`Sending ${types.join(', ')} events again requires the scope ${missing.join(', ')}, which reading their data requires; this key lacks it.`);
  }
}

async function ownedSubscription(deps: DeliveryDeps, principal: Principal, id: string) {
  const sub = await deps.subscriptions.findOwned(principal.ownerId, id);
  if (!sub) throw DomainError.notFound(`No subscription ${id}`);
  return sub;
}

/**
 * The caller's subscription and what `read` reads of it, read at once rather than one after the
 * other: what was read is returned only once the subscription is known to be the caller's.
 */
async function readOwned<T>(deps: DeliveryDeps, principal: Principal, id: string, read: () => Promise<T>): Promise<[SubscriptionDoc, T]> {
  const reading = read();
  // Another owner's subscription is a 404 whatever the read does.
  reading.catch(() => undefined);
  const sub = await ownedSubscription(deps, principal, id);
  return [sub, await reading];
}

/** The caller's subscription, if it may also send to it (403 otherwise). */
async function changeableSubscription(deps: DeliveryDeps, principal: Principal, id: string) {
  const sub = await ownedSubscription(deps, principal, id);
  assertMayChange(principal, sub, deps.eventScopes);
  return sub;
}

/**
 * Sends a `webhook.test` event to one of the caller's active subscriptions, or a sample of `type`
 * when it is one of the subscription's event types (422 naming `type` otherwise: it would not receive it).
 */
export async function sendTestEvent(deps: DeliveryDeps, principal: Principal, subscriptionId: string, requestId?: string, type: EventType = 'webhook.test'): Promise<{ event_id: string }> {
  const sub = await changeableSubscription(deps, principal, subscriptionId);
  if (type !== 'webhook.test' && !sub.events.includes(type)) {
    const message = `the subscription does not receive ${type}; it receives ${sub.events.join(', ')}`;
    throw DomainError.unprocessable(`type: ${message}`, [{ field: ['type'], message }]);
  }
  if (sub.status !== 'active') {
    throw DomainError.conflict('Subscription Not Active', `Subscription ${subscriptionId} is ${sub.status}; activate it to receive test events.`);
  }
  const event = await deps.dispatcher.emit(sampleEvent(type, subscriptionId, requestId), { ownerId: principal.ownerId, subscriptionIds: [subscriptionId] });
  return { event_id: event._id };
}

/** The caller's subscription's attempts, newest first. */
export async function listAttempts(
  deps: DeliveryDeps,
  principal: Principal,
  subscriptionId: string,
  query: AttemptFilter & { limit?: number; cursor?: string },
): Promise<{ data: DeliveryAttempt[]; next_cursor?: string }> {
  const { limit = 20, cursor, ...filter } = query;
  const afterId = decodeCursor(cursor);
  const [sub, rows] = await readOwned(deps, principal, subscriptionId, async () => {
    const after = afterId ? await deps.attempts.find(afterId) : undefined;
    return deps.attempts.listForSubscription(subscriptionId, limit + 1, { ...filter, ...(after ? { after } : {}) });
  });
  return toPage(rows.map(attemptShownTo(deps, principal, sub)), limit);
}

/** How the caller sees a logged attempt: a receiver may echo the payload it got, so its answer is shown only to who may read every event the subscription receives. */
function attemptShownTo(deps: DeliveryDeps, principal: Principal, sub: Pick<SubscriptionDoc, 'events' | 'all_owners'>): (row: AttemptDoc) => DeliveryAttempt {
  const echoMayLeak = sub.events.some((type) => withheldFrom(deps, principal, { type }, sub.all_owners === true).length > 0);
  return (row) => toDeliveryAttempt(echoMayLeak ? { ...row, response_excerpt: undefined } : row);
}

/** Most attempts of one event to one subscription read for its timeline (every series: ten attempts each at most). */
const TIMELINE_ATTEMPTS = 200;

/**
 * The timeline of an event's delivery to the caller's subscription (its latest attempt series):
 * attempts, the waits between them with their reasons, and what happens next. 404 for another
 * owner's subscription, or an event never sent to it.
 */
export async function deliveryTimeline(deps: DeliveryDeps, principal: Principal, subscriptionId: string, eventId: string, now: Date = new Date()): Promise<DeliveryTimeline> {
  const [sub, event] = await Promise.all([ownedSubscription(deps, principal, subscriptionId), deps.events.find(eventId)]);
  if (!event || !event.subscription_ids.includes(subscriptionId)) throw DomainError.notFound(`Event ${eventId} was not sent to subscription ${subscriptionId}`);
  const attempts = await deps.attempts.listForSubscription(subscriptionId, TIMELINE_ATTEMPTS, { eventId });
  const input = { eventId, subscriptionId, attempts, show: attemptShownTo(deps, principal, sub), subscriptionStatus: sub.status, ...(sub.status === 'paused' && sub.paused_at ? { pausedAt: sub.paused_at } : {}), now };
  // Only a delivery the log says is due may be held now: then the workflow tells when, and why.
  const ask = overdueSeries(input);
  const pending = ask && deps.pendingAttempt ? await deps.pendingAttempt(ask, subscriptionId) : undefined;
  // Attempt 1 held by the event's own run goes on in the run a resume's drain started, which may wait for its turn.
  const drained = !pending && ask && attempts.length === 0 && deps.pendingAttempt ? await deps.pendingAttempt(drainedRun(eventId, subscriptionId), subscriptionId) : undefined;
  return buildTimeline({ ...input, ...(pending ? { pending } : drained ? { pending: drained, drained: true } : {}) });
}

/**
 * The events sent to the caller's subscription, newest first, each with its payload and delivery
 * state. The payload is the envelope's `data` in full: with its `url`, never truncated; it is left
 * out, naming the missing scopes, for a caller who may not read the resource it describes.
 */
export async function listSubscriptionEvents(
  deps: DeliveryDeps,
  principal: Principal,
  subscriptionId: string,
  query: { limit?: number; cursor?: string },
  requestOrigin: string,
): Promise<{ data: SubscriptionEvent[]; next_cursor?: string }> {
  const limit = query.limit ?? 20;
  const afterId = decodeCursor(query.cursor);
  const [sub, { events, summaries }] = await readOwned(deps, principal, subscriptionId, async () => {
    const after = afterId ? await deps.events.find(afterId) : undefined;
    const events = await deps.events.listForSubscription(subscriptionId, limit + 1, after);
    return { events, summaries: await deps.attempts.pageSummaries(subscriptionId, events.map((e) => e._id)) };
  });
  const rows = events.map((e): SubscriptionEvent => {
    const summary = summaries.get(e._id);
    const withheld = withheldFrom(deps, principal, e, sub.all_owners === true);
    return {
      id: e._id,
      type: e.type,
      created_at: e.created_at.toISOString(),
      ...(withheld.length
        ? { data_withheld: withheld }
        : { data: { ...e.data, url: resourceUrl({ id: e._id, type: e.type, data: e.data, created_at: e.created_at }, deps.publicUrl ?? requestOrigin) } }),
      delivery_state: summary?.state ?? 'pending',
      attempts: summary?.attempts ?? 0,
      ...(summary ? { last_attempt_at: summary.lastAttemptAt.toISOString() } : {}),
    };
  });
  return toPage(rows, limit);
}

/**
 * The recent health of those of `ids` that are the caller's subscriptions, in the order asked: the
 * last hour's success rate, read from its event groups (two or three lookups per subscription).
 */
export async function subscriptionHealth(deps: DeliveryDeps, principal: Principal, ids: readonly string[], now: Date = new Date()): Promise<{ data: SubscriptionHealth[] }> {
  const owned = new Set(await deps.subscriptions.ownedIds(principal.ownerId, [...new Set(ids)]));
  const since = new Date(now.getTime() - RECENT_HEALTH_MS);
  const asked = [...new Set(ids)].filter((id) => owned.has(id));
  const data = await Promise.all(asked.map(async (id) => recentHealth(id, await deps.attempts.recentOutcomes(id, since, now, RECENT_HEALTH_CAP), since)));
  return { data };
}

/** Most attempts one statistics answer reads; beyond it the oldest hours are undercounted. */
export const STATS_SAMPLE_CAP = 100_000;

/** Hourly attempt counts and latency of the caller's subscription over the last `hours` hours. */
export async function subscriptionStats(
  deps: DeliveryDeps,
  principal: Principal,
  subscriptionId: string,
  hours: number,
  now: Date = new Date(),
): Promise<SubscriptionStats> {
  await ownedSubscription(deps, principal, subscriptionId);
  const samples = await deps.attempts.samplesSince(subscriptionId, statsWindowStart(now, hours), STATS_SAMPLE_CAP);
  return hourlyStats(subscriptionId, samples, now, hours);
}

/**
 * Redelivers an event to one or all of the caller's subscriptions it went to: a new attempt
 * series in a workflow of its own, same event id. Accepted durably (noted before the start, so
 * a Temporal outage only delays it). Another owner's event, or one that never targeted the
 * caller, is a 404.
 */
export async function redeliverEvent(
  deps: DeliveryDeps,
  principal: Principal,
  eventId: string,
  subscriptionId?: string,
  requestId?: string,
): Promise<{ event_id: string; subscription_ids: string[] }> {
  const event = await deps.events.find(eventId);
  const targeted = event?.subscription_ids ?? [];
  const candidates = (await deps.subscriptions.ownedAuthority(principal.ownerId, subscriptionId ? [subscriptionId] : targeted)).filter((s) => targeted.includes(s._id));
  if (!event || candidates.length === 0) {
    throw DomainError.notFound(subscriptionId ? `Event ${eventId} was not sent to subscription ${subscriptionId}` : `No event ${eventId}`);
  }
  // Only to those the caller could have created; 403 (naming the first) when that leaves none.
  const owned = candidates.filter((s) => missingAuthority(principal, s, deps.eventScopes).length === 0).map((s) => s._id);
  if (owned.length === 0) assertMayChange(principal, candidates[0]!, deps.eventScopes);
  assertMayResend(deps, principal, [event.type]);
  await deps.dispatcher.redeliver([{ event, subscriptionIds: owned, redeliveryId: newId('rdl'), ownerId: event.data_owner ?? event.owner_id, ...(requestId ? { requestId } : {}) }]);
  return { event_id: eventId, subscription_ids: owned };
}

/**
 * Redelivers every event whose delivery to the subscription failed or stopped since `since`,
 * each in a workflow of its own, accepted durably as a redelivery is. Idempotent per failure: an
 * event whose latest attempt delivered or is retrying is skipped, and the recovery of a failure is
 * named after that failure's last attempt, so asking again before the recovery's first attempt
 * starts nothing new. Returns the events whose recovery this call started.
 */
export async function recoverFailed(
  deps: DeliveryDeps,
  principal: Principal,
  subscriptionId: string,
  since: Date,
  requestId?: string,
): Promise<{ event_ids: string[] }> {
  const sub = await changeableSubscription(deps, principal, subscriptionId);
  assertMayResend(deps, principal, sub.events);
  const candidates = [...new Set(await deps.attempts.failedEventIdsSince(subscriptionId, since, 1000))];
  // Where each stands now: a later series may have delivered it, or be retrying it still.
  const latest = await deps.attempts.summaries(subscriptionId, candidates);
  const failedAt = new Map<string, Date>();
  for (const id of candidates) {
    const summary = latest.get(id);
    if (summary && (summary.state === 'failed' || summary.state === 'stopped')) failedAt.set(id, summary.lastAttemptAt);
  }
  const events = await deps.events.typesOf([...failedAt.keys()]);
  const started = await deps.dispatcher.redeliver(
    events.map((event) => ({
      event,
      subscriptionIds: [subscriptionId],
      redeliveryId: recoveryId(subscriptionId, failedAt.get(event._id)!),
      ownerId: sub.owner_id,
      ...(requestId ? { requestId } : {}),
    })),
  );
  return { event_ids: events.map((e) => e._id).filter((id) => started.has(id)) };
}

/** The recovery of a failure: one per subscription and failed attempt, so repeating it is a no-op until a new attempt fails. */
function recoveryId(subscriptionId: string, lastAttemptAt: Date): string {
  return `rcv_${subscriptionId}_${lastAttemptAt.getTime()}`;
}

/** Stored alerts, newest first: every one for administrators (admin keys and sessions), the caller's own subscriptions' for an owner. */
export async function listAlerts(deps: DeliveryDeps, principal: Principal, query: { limit?: number; cursor?: string }): Promise<{ data: Alert[]; next_cursor?: string }> {
  const limit = query.limit ?? 20;
  const ownerId = actsForAllOwners(principal) ? undefined : principal.ownerId;
  const afterId = decodeCursor(query.cursor);
  const after = afterId ? await deps.alerts.find(afterId) : undefined;
  // A cursor from another owner's list reads as none.
  const rows = await deps.alerts.list(limit + 1, after && (ownerId === undefined || after.owner_id === ownerId) ? after : undefined, ownerId);
  return toPage(rows.map(toAlert), limit);
}
