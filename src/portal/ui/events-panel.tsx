import { useState } from 'preact/hooks';
import type { WebhookServiceClient } from '../../client';
import { idempotencyKey, outcome } from './api';
import { EventCard } from './event-card';
import { eventRows } from './event-list';
import { isoToLocalInput, localInputToIso } from './format';
import { groupByEvent } from './group-attempts';
import type { TemporalUi } from './temporal-links';
import type { DeliveryAttemptState, DeliveryOutcome } from './types';
import { useSubscriptionEvents, type AttemptFilter, type EventsData } from './use-subscription-events';

interface Props {
  client: WebhookServiceClient;
  subscriptionId: string;
  canWrite: boolean;
  temporal: TemporalUi | undefined;
  /** Changes after an action that starts deliveries: the panel polls for the new attempts. */
  activity: number;
  onActivity: () => void;
}

const outcomes: DeliveryOutcome[] = ['delivered', 'http_error', 'timeout', 'network_error', 'blocked', 'rejected', 'hold_expired'];
const states: DeliveryAttemptState[] = ['delivered', 'retrying', 'failed', 'stopped'];

/** A subscription's events, newest first, each with its payload and attempts; filterable by attempt; redeliver and recover. */
export function EventsPanel({ client, subscriptionId, canWrite, temporal, activity, onActivity }: Props) {
  const [filter, setFilter] = useState<AttemptFilter>({ outcome: '', state: '' });
  const [notice, setNotice] = useState<{ tone: 'ok' | 'error'; text: string } | undefined>();
  const [since, setSince] = useState(() => isoToLocalInput(new Date(Date.now() - 24 * 3600_000)));
  const { state, loadingMore, loadMore, refresh } = useSubscriptionEvents(client, subscriptionId, filter, activity);

  const redeliver = async (eventId: string) => {
    const r = await outcome(
      client.POST('/api/webhooks/v1/events/{event_id}/redeliver', {
        params: { path: { event_id: eventId }, header: { 'Idempotency-Key': idempotencyKey() } },
        body: { subscription_id: subscriptionId },
      }),
    );
    setNotice(r.ok ? { tone: 'ok', text: `Redelivery of ${eventId} scheduled.` } : { tone: 'error', text: r.message });
    if (r.ok) onActivity();
  };
  const recover = async (e: Event) => {
    e.preventDefault();
    const iso = localInputToIso(since);
    if (!iso) return setNotice({ tone: 'error', text: 'Enter a date and time to recover from.' });
    const r = await outcome(
      client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/recover', {
        params: { path: { subscription_id: subscriptionId }, header: { 'Idempotency-Key': idempotencyKey() } },
        body: { since: iso },
      }),
    );
    if (!r.ok) return setNotice({ tone: 'error', text: r.message });
    setNotice({ tone: 'ok', text: r.data.event_ids.length ? `Redelivering ${r.data.event_ids.length} failed event(s).` : 'No failed deliveries since then.' });
    if (r.data.event_ids.length) onActivity();
  };
  const cardProps = { canWrite, temporal, onRedeliver: (id: string) => void redeliver(id), client, subscriptionId };

  return (
    <section aria-labelledby="attempts-heading" data-testid="attempts-panel">
      <h2 id="attempts-heading">Events and delivery attempts</h2>
      <div class="grid filters">
        <FilterSelect label="Outcome" anyLabel="Any outcome" options={outcomes} value={filter.outcome} onChange={(v) => setFilter((f) => ({ ...f, outcome: v }))} />
        <FilterSelect label="State after the attempt" anyLabel="Any state" options={states} value={filter.state} onChange={(v) => setFilter((f) => ({ ...f, state: v }))} />
      </div>
      <button type="button" class="outline" onClick={refresh}>
        Refresh
      </button>
      <p role="status" class={notice?.tone === 'error' ? 'error' : 'ok'} data-testid="attempts-notice">
        {notice?.text}
      </p>
      {state.kind === 'loading' && <p aria-busy="true">Loading events…</p>}
      {state.kind === 'error' && (
        <p role="alert" class="error">
          Could not load the events: {state.message}
        </p>
      )}
      {state.kind === 'ready' &&
        (state.data.filtered ? (
          <FilteredAttempts data={state.data} filtered={state.data.filtered} {...cardProps} />
        ) : (
          <EventList data={state.data} loadingMore={loadingMore} onMore={loadMore} {...cardProps} />
        ))}
      {canWrite && (
        <form onSubmit={(e) => void recover(e)} aria-labelledby="recover-heading" class="recover">
          <h3 id="recover-heading">Recover failed deliveries</h3>
          <label>
            Failed since
            <input type="datetime-local" value={since} required onInput={(e) => setSince(e.currentTarget.value)} />
          </label>
          <button type="submit" class="secondary">
            Recover failed deliveries
          </button>
        </form>
      )}
    </section>
  );
}

interface CardProps {
  canWrite: boolean;
  temporal: TemporalUi | undefined;
  onRedeliver: (eventId: string) => void;
  client: WebhookServiceClient;
  subscriptionId: string;
}

/** No filter: the events, newest first, with "Load more" while older pages remain. */
function EventList({ data, loadingMore, onMore, ...card }: CardProps & { data: EventsData; loadingMore: boolean; onMore: () => void }) {
  if (!data.events.length) return <p data-testid="attempts-empty">No events yet. Send a test event to see one here.</p>;
  return (
    <div data-testid="event-list">
      {eventRows(data.events, data.attempts).map((row) => (
        <EventCard key={row.event.id} eventId={row.event.id} event={row.event} state={row.event.delivery_state} attempts={row.attempts} filtered={false} {...card} />
      ))}
      {data.next && (
        <button type="button" class="outline" aria-busy={loadingMore} disabled={loadingMore} onClick={onMore}>
          Load more
        </button>
      )}
    </div>
  );
}

/** With a filter: the matching attempts grouped by event, each event's details when it is loaded. */
function FilteredAttempts({ data, filtered, ...card }: CardProps & { data: EventsData; filtered: NonNullable<EventsData['filtered']> }) {
  const groups = groupByEvent(filtered.attempts);
  if (!groups.length) return <p data-testid="attempts-empty">No delivery attempts match the filter.</p>;
  const events = new Map(data.events.map((e) => [e.id, e]));
  return (
    <>
      {groups.map((g) => {
        const event = events.get(g.eventId);
        return <EventCard key={g.eventId} eventId={g.eventId} event={event} state={event?.delivery_state ?? g.state} attempts={g.attempts} filtered {...card} />;
      })}
      {filtered.more && <p>Showing the latest 100 matching attempts; narrow the filter to see older ones.</p>}
    </>
  );
}

interface FilterProps<T extends string> {
  label: string;
  anyLabel: string;
  options: readonly T[];
  value: T | '';
  onChange: (v: T | '') => void;
}

function FilterSelect<T extends string>({ label, anyLabel, options, value, onChange }: FilterProps<T>) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.currentTarget.value as T | '')}>
        <option value="">{anyLabel}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}
