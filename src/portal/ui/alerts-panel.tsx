import { useEffect, useState } from 'preact/hooks';
import type { WebhookServiceClient } from '../../client';
import { outcome } from './api';
import { formatTime } from './format';
import { temporalWorkflowsUrl, type TemporalUi } from './temporal-links';
import type { Alert } from './types';

type Loaded = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; alerts: Alert[] };

/** Administrator sessions: the latest alerts, each linked to its workflows in the Temporal UI. */
export function AlertsPanel({ client, temporal }: { client: WebhookServiceClient; temporal: TemporalUi | undefined }) {
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const load = () =>
    void outcome(client.GET('/api/webhooks/v1/alerts', { params: { query: { limit: 50 } } })).then((r) =>
      setLoaded(r.ok ? { kind: 'ready', alerts: r.data.data } : { kind: 'error', message: r.message }),
    );
  useEffect(load, [client]);

  return (
    <section aria-labelledby="alerts-heading" data-testid="alerts-panel">
      <h2 id="alerts-heading">Alerts</h2>
      <button type="button" class="outline" onClick={load}>
        Refresh alerts
      </button>
      {loaded.kind === 'loading' && <p aria-busy="true">Loading alerts…</p>}
      {loaded.kind === 'error' && (
        <p role="alert" class="error">
          Could not load the alerts: {loaded.message}
        </p>
      )}
      {loaded.kind === 'ready' && !loaded.alerts.length && <p data-testid="alerts-empty">No alerts: no delivery has failed for good and no subscription was disabled.</p>}
      {loaded.kind === 'ready' && loaded.alerts.length > 0 && (
        <ul class="cards">
          {loaded.alerts.map((a) => (
            <li key={a.id}>
              <article>
                <p>
                  <strong>{a.kind === 'delivery_failed' ? 'Delivery failed' : 'Subscription disabled'}</strong> · {formatTime(a.created_at)}
                </p>
                <p>{a.message}</p>
                <p>
                  <code>{a.subscription_id}</code>
                  {a.event_id && (
                    <>
                      {' '}
                      · <code>{a.event_id}</code>
                    </>
                  )}
                </p>
                {temporal && (
                  <p class="actions">
                    {a.event_id && (
                      <a href={temporalWorkflowsUrl(temporal, { eventId: a.event_id })} target="_blank" rel="noreferrer">
                        Event workflow in the Temporal UI
                      </a>
                    )}
                    <a href={temporalWorkflowsUrl(temporal, { subscriptionId: a.subscription_id })} target="_blank" rel="noreferrer">
                      Subscription workflows in the Temporal UI
                    </a>
                  </p>
                )}
              </article>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
