import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { WebhookServiceClient } from '../../client';
import { idempotencyKey, outcome } from './api';
import { formatDuration, formatTime, isoToLocalInput, localInputToIso } from './format';
import { anyRetrying, groupByEvent, type EventAttempts } from './group-attempts';
import { temporalWorkflowsUrl, type TemporalUi } from './temporal-links';
import type { DeliveryAttempt, DeliveryAttemptState, DeliveryOutcome } from './types';

interface Props {
  client: WebhookServiceClient;
  subscriptionId: string;
  canWrite: boolean;
  temporal: TemporalUi | undefined;
  /** Changes after an action that starts deliveries: the panel polls for the new attempts. */
  activity: number;
  onActivity: () => void;
}

const outcomes: DeliveryOutcome[] = ['delivered', 'http_error', 'timeout', 'network_error', 'blocked'];
const states: DeliveryAttemptState[] = ['delivered', 'retrying', 'failed', 'stopped'];
const pollMs = 2000;
// Bounded polling: 150 polls (5 minutes) after the last action or while retrying, then a Refresh button.
const maxPolls = 150;
const pollAfterActionMs = 30_000;

type Loaded = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; groups: EventAttempts<DeliveryAttempt>[]; more: boolean };

/** Recent events and every attempt of one subscription, filterable, with redeliver and recover. */
export function AttemptsPanel({ client, subscriptionId, canWrite, temporal, activity, onActivity }: Props) {
  const [outcomeFilter, setOutcomeFilter] = useState<DeliveryOutcome | ''>('');
  const [stateFilter, setStateFilter] = useState<DeliveryAttemptState | ''>('');
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [notice, setNotice] = useState<{ tone: 'ok' | 'error'; text: string } | undefined>();
  const [since, setSince] = useState(() => isoToLocalInput(new Date(Date.now() - 24 * 3600_000)));
  const polls = useRef(0);
  const pollUntil = useRef(0);
  const retrying = useRef(false);

  const load = useCallback(async () => {
    const query = { limit: 100, ...(outcomeFilter ? { outcome: outcomeFilter } : {}), ...(stateFilter ? { state: stateFilter } : {}) };
    const r = await outcome(client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/attempts', { params: { path: { subscription_id: subscriptionId }, query } }));
    if (!r.ok) return setLoaded({ kind: 'error', message: r.message });
    const groups = groupByEvent(r.data.data);
    retrying.current = anyRetrying(groups);
    setLoaded({ kind: 'ready', groups, more: r.data.next_cursor !== undefined });
  }, [client, subscriptionId, outcomeFilter, stateFilter]);

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
      if (!retrying.current && Date.now() > pollUntil.current) return;
      polls.current += 1;
      void load();
    }, pollMs);
    return () => clearInterval(timer);
  }, [load]);

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

  return (
    <section aria-labelledby="attempts-heading" data-testid="attempts-panel">
      <h2 id="attempts-heading">Events and delivery attempts</h2>
      <div class="grid filters">
        <FilterSelect label="Outcome" anyLabel="Any outcome" options={outcomes} value={outcomeFilter} onChange={setOutcomeFilter} />
        <FilterSelect label="State after the attempt" anyLabel="Any state" options={states} value={stateFilter} onChange={setStateFilter} />
      </div>
      <button type="button" class="outline" onClick={() => { polls.current = 0; void load(); }}>
        Refresh
      </button>
      <p role="status" class={notice?.tone === 'error' ? 'error' : 'ok'} data-testid="attempts-notice">
        {notice?.text}
      </p>
      <AttemptGroups loaded={loaded} canWrite={canWrite} temporal={temporal} onRedeliver={(id) => void redeliver(id)} />
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

interface GroupsProps {
  loaded: Loaded;
  canWrite: boolean;
  temporal: TemporalUi | undefined;
  onRedeliver: (eventId: string) => void;
}

function AttemptGroups({ loaded, canWrite, temporal, onRedeliver }: GroupsProps) {
  if (loaded.kind === 'loading') return <p aria-busy="true">Loading attempts…</p>;
  if (loaded.kind === 'error') return <p role="alert" class="error">Could not load the attempts: {loaded.message}</p>;
  if (!loaded.groups.length) return <p data-testid="attempts-empty">No delivery attempts match. Send a test event to see one here.</p>;
  return (
    <>
      {loaded.groups.map((g) => (
        <article key={g.eventId} data-testid="event-group" data-event-id={g.eventId} data-state={g.state}>
          <header class="event-header">
            <span>
              Event <code>{g.eventId}</code> · <span class={`state state-${g.state}`}>{g.state}</span>
            </span>
            <span class="actions">
              {canWrite && (
                <button type="button" class="outline" onClick={() => onRedeliver(g.eventId)} aria-label={`Redeliver ${g.eventId}`}>
                  Redeliver
                </button>
              )}
              {temporal && (
                <a href={temporalWorkflowsUrl(temporal, { eventId: g.eventId })} target="_blank" rel="noreferrer">
                  Temporal UI
                </a>
              )}
            </span>
          </header>
          <div class="overflow-auto">
            <table class="striped">
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
                {g.attempts.map((a) => (
                  <tr key={a.id} data-testid="attempt-row" data-outcome={a.outcome} data-state={a.state}>
                    <td>{a.attempt}</td>
                    <td>{formatTime(a.started_at)}</td>
                    <td>
                      <span class={`state state-${a.state}`}>{a.outcome}</span>
                    </td>
                    <td>{a.status_code ?? '—'}</td>
                    <td>{formatDuration(a.duration_ms)}</td>
                    <td data-testid="next-attempt">{a.next_attempt_at ? formatTime(a.next_attempt_at) : '—'}</td>
                    <td>
                      <code class="excerpt">{a.response_excerpt ?? a.error ?? ''}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </article>
      ))}
      {loaded.more && <p>Showing the latest 100 attempts; filter to see older ones.</p>}
    </>
  );
}
