import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { WebhookServiceClient } from '../../client';
import { outcome } from './api';
import { anyUnsettled, appendPage, eventRows, eventsMissingAttempts, mergeFirstPage, uniqueById } from './event-list';
import { anyRetrying, groupByEvent } from './group-attempts';
import type { DeliveryAttempt, DeliveryAttemptState, DeliveryOutcome, SubscriptionEvent } from './types';

/** The attempt filters of the panel; empty: no filter. */
export interface AttemptFilter {
  outcome: DeliveryOutcome | '';
  state: DeliveryAttemptState | '';
}

/** What the panel shows: the events loaded so far, their attempts, and the filtered attempts when filtering. */
export interface EventsData {
  events: SubscriptionEvent[];
  /** Cursor after the oldest loaded event; absent once the last page is loaded. */
  next: string | undefined;
  /** The subscription's latest attempts plus those fetched per event. */
  attempts: DeliveryAttempt[];
  filtered?: { attempts: DeliveryAttempt[]; more: boolean };
}

/** The panel's data as it loads. */
export type EventsState = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; data: EventsData };

const pageSize = 20;
const attemptsLimit = 100;
const pollMs = 2000;
// Bounded polling: 150 polls (5 minutes) after the last action or while something is pending/retrying, then Refresh.
const maxPolls = 150;
const pollAfterActionMs = 30_000;

/**
 * Loads a subscription's events (paginated) and their attempts, and polls while a delivery may still
 * change by itself (pending/retrying) or shortly after `activity` changes, only while the page is visible.
 */
export function useSubscriptionEvents(client: WebhookServiceClient, subscriptionId: string, filter: AttemptFilter, activity: number) {
  const [state, setState] = useState<EventsState>({ kind: 'loading' });
  const [loadingMore, setLoadingMore] = useState(false);
  const data = useRef<EventsData | undefined>(undefined);
  const seq = useRef(0);
  const polls = useRef(0);
  const pollUntil = useRef(0);
  const unsettled = useRef(false);
  const path = { subscription_id: subscriptionId };

  const attemptsOf = useCallback(
    (query: { event_id?: string; outcome?: DeliveryOutcome; state?: DeliveryAttemptState }) =>
      outcome(client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: subscriptionId }, query: { limit: attemptsLimit, ...query } } })),
    [client, subscriptionId],
  );

  const publish = (next: EventsData) => {
    data.current = next;
    unsettled.current = anyUnsettled(next.events) || (next.filtered !== undefined && anyRetrying(groupByEvent(next.filtered.attempts)));
    setState({ kind: 'ready', data: next });
  };

  /** Fetches, one request per event, the attempts of events whose attempts the latest ones do not cover. */
  const complete = useCallback(
    async (events: SubscriptionEvent[], attempts: DeliveryAttempt[]): Promise<DeliveryAttempt[]> => {
      const ids = eventsMissingAttempts(eventRows(events, attempts));
      const found = await Promise.all(ids.map((event_id) => attemptsOf({ event_id })));
      return uniqueById([...attempts, ...found.flatMap((r) => (r.ok ? r.data.data : []))]);
    },
    [attemptsOf],
  );

  const load = useCallback(async () => {
    const mine = ++seq.current;
    const ev = await outcome(client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/events', { params: { path, query: { limit: pageSize } } }));
    // Attempts after events: a state the events show is then always backed by the attempts shown.
    const filtering = filter.outcome !== '' || filter.state !== '';
    const [recent, filtered] = await Promise.all([
      attemptsOf({}),
      filtering ? attemptsOf({ ...(filter.outcome ? { outcome: filter.outcome } : {}), ...(filter.state ? { state: filter.state } : {}) }) : undefined,
    ]);
    if (mine !== seq.current) return;
    const failed = [ev, recent, filtered].find((r) => r && !r.ok);
    if (failed && !failed.ok) return setState({ kind: 'error', message: failed.message });
    if (!ev.ok || !recent.ok || (filtered && !filtered.ok)) return;
    // Attempts never change once logged: those already loaded are kept, so older events are fetched once.
    const attempts = await complete(data.current ? mergeFirstPage(data.current.events, ev.data.data) : ev.data.data, [...recent.data.data, ...(data.current?.attempts ?? [])]);
    if (mine !== seq.current) return;
    // Merged with what is loaded now (a "Load more" may have finished meanwhile); its cursor stays valid.
    const prev = data.current;
    publish({
      events: prev ? mergeFirstPage(prev.events, ev.data.data) : ev.data.data,
      next: prev ? prev.next : ev.data.next_cursor,
      attempts,
      ...(filtered ? { filtered: { attempts: filtered.data.data, more: filtered.data.next_cursor !== undefined } } : {}),
    });
  }, [client, subscriptionId, filter.outcome, filter.state, attemptsOf, complete]);

  const loadMore = async () => {
    const prev = data.current;
    if (!prev?.next) return;
    setLoadingMore(true);
    const ev = await outcome(client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/events', { params: { path, query: { limit: pageSize, cursor: prev.next } } }));
    if (ev.ok) {
      const withPage = await complete(ev.data.data, prev.attempts);
      const now = data.current ?? prev;
      publish({ ...now, events: appendPage(now.events, ev.data.data), next: ev.data.next_cursor, attempts: uniqueById([...now.attempts, ...withPage]) });
    } else setState({ kind: 'error', message: ev.message });
    setLoadingMore(false);
  };

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    polls.current = 0;
    if (activity) pollUntil.current = Date.now() + pollAfterActionMs;
  }, [activity]);
  useEffect(() => {
    const timer = setInterval(() => {
      // Only while visible, and only while something may still change.
      if (document.visibilityState !== 'visible' || polls.current >= maxPolls) return;
      if (!unsettled.current && Date.now() > pollUntil.current) return;
      polls.current += 1;
      void load();
    }, pollMs);
    return () => clearInterval(timer);
  }, [load]);

  const refresh = () => {
    polls.current = 0;
    void load();
  };
  return { state, loadingMore, loadMore: () => void loadMore(), refresh };
}
