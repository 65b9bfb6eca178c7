import type { WebhookServiceClient } from '../../client';
import { DeliveryTimelineView } from './delivery-timeline';
import { payloadText } from './event-list';
import { formatDuration, formatTime } from './format';
import { temporalWorkflowsUrl, type TemporalUi } from './temporal-links';
import type { DeliveryAttempt, SubscriptionEvent } from './types';

interface Props {
  eventId: string;
  /** The event as listed; absent for a filtered attempt of an event older than the loaded pages. */
  event: SubscriptionEvent | undefined;
  /** Where the delivery stands (the event's state, else that of its latest attempt shown). */
  state: string;
  attempts: DeliveryAttempt[];
  /** Shown with a filter: the attempts are only those matching it. */
  filtered: boolean;
  canWrite: boolean;
  temporal: TemporalUi | undefined;
  onRedeliver: (eventId: string) => void;
  client: WebhookServiceClient;
  subscriptionId: string;
}

/** One event: type, time, id, delivery state, attempt count, redeliver, its payload (collapsed), its timeline (collapsed) and its attempts. */
export function EventCard({ eventId, event, state, attempts, filtered, canWrite, temporal, onRedeliver, client, subscriptionId }: Props) {
  const count = event?.attempts ?? attempts.length;
  return (
    <article data-testid="event-group" data-event-id={eventId} data-state={state} class="event">
      <header class="event-header">
        <div>
          <p class="event-title">
            <strong data-testid="event-type">{event?.type ?? 'Event'}</strong>
            {event && <span> · {formatTime(event.created_at)}</span>}
          </p>
          <p class="event-meta">
            <span class={`state state-${state}`} data-testid="event-state">
              {state}
            </span>{' '}
            <span data-testid="event-attempts">
              {count} attempt{count === 1 ? '' : 's'}
            </span>{' '}
            · <code>{eventId}</code>
          </p>
        </div>
        <span class="actions">
          {canWrite && (
            <button type="button" class="outline" onClick={() => onRedeliver(eventId)} aria-label={`Redeliver ${eventId}`}>
              Redeliver
            </button>
          )}
          {temporal && (
            <a href={temporalWorkflowsUrl(temporal, { eventId })} target="_blank" rel="noreferrer">
              Temporal UI
            </a>
          )}
        </span>
      </header>
      {event && (
        <details data-testid="event-payload">
          <summary>Payload</summary>
          <pre aria-label={`Payload of ${eventId}`}>
            <code>{event.data_withheld ? `Withheld: reading it needs ${event.data_withheld.join(', ')}` : payloadText(event.data)}</code>
          </pre>
        </details>
      )}
      <DeliveryTimelineView client={client} subscriptionId={subscriptionId} eventId={eventId} stamp={`${state}:${count}`} />
      {filtered && <p class="muted">Attempts matching the filter:</p>}
      {attempts.length ? <AttemptTable attempts={attempts} /> : <p data-testid="no-attempts">No attempt has finished yet.</p>}
    </article>
  );
}

/** An event's attempts, newest first; on a phone each row becomes a small labelled block. */
function AttemptTable({ attempts }: { attempts: DeliveryAttempt[] }) {
  return (
    <div class="overflow-auto">
      <table class="striped attempts">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Time</th>
            <th scope="col">Outcome</th>
            <th scope="col">Status</th>
            <th scope="col">Duration</th>
            <th scope="col">Next attempt</th>
            <th scope="col">Response</th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((a) => (
            <tr key={a.id} data-testid="attempt-row" data-outcome={a.outcome} data-state={a.state}>
              <td data-label="#">{a.attempt}</td>
              <td data-label="Time">{formatTime(a.started_at)}</td>
              <td data-label="Outcome">
                <span class={`state state-${a.state}`}>{a.outcome}</span>
              </td>
              <td data-label="Status">{a.status_code ?? '—'}</td>
              <td data-label="Duration">{formatDuration(a.duration_ms)}</td>
              <td data-label="Next attempt" data-testid="next-attempt">
                {a.next_attempt_at ? formatTime(a.next_attempt_at) : '—'}
              </td>
              <td data-label="Response">
                <code class="excerpt">{a.response_excerpt ?? a.error ?? ''}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
