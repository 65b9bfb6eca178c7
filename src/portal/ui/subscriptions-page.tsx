import { useCallback, useEffect, useState } from 'preact/hooks';
import type { WebhookServiceClient } from '../../client';
import { outcome } from './api';
import { formatTime } from './format';
import { SecretNotice, type ShownSecret } from './secret-notice';
import { SubscriptionDetail } from './subscription-detail';
import { SubscriptionForm } from './subscription-form';
import type { TemporalUi } from './temporal-links';
import type { EventTypeInfo, PortalSessionInfo, Subscription, SubscriptionHealth } from './types';

interface Props {
  client: WebhookServiceClient;
  session: PortalSessionInfo;
  temporal: TemporalUi | undefined;
}

type ListState = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; items: Subscription[]; next?: string | undefined };

/** The owner's subscriptions: the list, the create form, and the one being managed. */
export function SubscriptionsPage({ client, session, temporal }: Props) {
  const [list, setList] = useState<ListState>({ kind: 'loading' });
  const [eventTypes, setEventTypes] = useState<EventTypeInfo[] | string>([]);
  const [creating, setCreating] = useState(false);
  const [selected, setSelected] = useState<string | undefined>();
  const [secret, setSecret] = useState<ShownSecret | undefined>();
  const canWrite = session.grants.includes('webhooks:write');

  const [health, setHealth] = useState<ReadonlyMap<string, SubscriptionHealth>>(new Map());

  const load = useCallback(async (cursor?: string) => {
    const r = await outcome(client.GET('/api/webhooks/v1/subscriptions', { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } }));
    if (!r.ok) return setList({ kind: 'error', message: r.message });
    // One request for the whole page's health, not one per subscription.
    const ids = r.data.data.map((s) => s.id);
    if (ids.length) {
      void outcome(client.GET('/api/webhooks/v1/subscription-health', { params: { query: { subscription_ids: ids.join(',') } } })).then((h) => {
        if (h.ok) setHealth((prev) => new Map([...prev, ...h.data.data.map((x) => [x.subscription_id, x] as const)]));
      });
    }
    setList((prev) => ({
      kind: 'ready',
      items: cursor && prev.kind === 'ready' ? [...prev.items, ...r.data.data] : r.data.data,
      next: r.data.next_cursor,
    }));
  }, [client]);

  useEffect(() => {
    void load();
    void outcome(client.GET('/api/webhooks/v1/event-types')).then((r) => setEventTypes(r.ok ? r.data.data : r.message));
  }, [client, load]);

  const replace = (s: Subscription) => setList((prev) => (prev.kind === 'ready' ? { ...prev, items: prev.items.map((x) => (x.id === s.id ? s : x)) } : prev));
  const remove = (id: string) => {
    setSelected(undefined);
    setList((prev) => (prev.kind === 'ready' ? { ...prev, items: prev.items.filter((x) => x.id !== id) } : prev));
  };
  const current = list.kind === 'ready' ? list.items.find((s) => s.id === selected) : undefined;

  return (
    <>
      {secret && <SecretNotice shown={secret} onDismiss={() => setSecret(undefined)} />}
      {current ? (
        <SubscriptionDetail
          key={current.id}
          client={client}
          subscription={current}
          eventTypes={eventTypes}
          grants={session.grants}
          canWrite={canWrite}
          temporal={temporal}
          onChanged={replace}
          onDeleted={remove}
          onSecret={setSecret}
          onBack={() => {
            setSelected(undefined);
            // Back to the list with each subscription's health as it is now.
            void load();
          }}
        />
      ) : (
        <section aria-labelledby="subs-heading">
          <hgroup>
            <h1 id="subs-heading">Subscriptions</h1>
            <p>Where your events are delivered, and how each delivery went.</p>
          </hgroup>
          {canWrite && !creating && (
            <button type="button" onClick={() => setCreating(true)}>
              New subscription
            </button>
          )}
          {creating && (
            <SubscriptionForm
              client={client}
              eventTypes={eventTypes}
              grants={session.grants}
              onCancel={() => setCreating(false)}
              onSaved={(s, shownSecret) => {
                setCreating(false);
                setList((prev) => (prev.kind === 'ready' ? { ...prev, items: [s, ...prev.items] } : prev));
                if (shownSecret) setSecret({ subscriptionId: s.id, secret: shownSecret, kind: 'created', scheme: s.signature });
              }}
            />
          )}
          <SubscriptionList state={list} health={health} onOpen={setSelected} onMore={(c) => void load(c)} />
        </section>
      )}
    </>
  );
}

interface ListProps {
  state: ListState;
  health: ReadonlyMap<string, SubscriptionHealth>;
  onOpen: (id: string) => void;
  onMore: (cursor: string) => void;
}

function SubscriptionList({ state, health, onOpen, onMore }: ListProps) {
  if (state.kind === 'loading') return <p aria-busy="true">Loading subscriptions…</p>;
  if (state.kind === 'error') return <p role="alert" class="error">Could not load the subscriptions: {state.message}</p>;
  if (!state.items.length) return <p data-testid="subscriptions-empty">No subscriptions yet. Create one to start receiving events.</p>;
  return (
    <>
      <ul class="cards" data-testid="subscription-list">
        {state.items.map((s) => (
          <li key={s.id}>
            <article>
              <header>
                <span class={`status status-${s.status}`}>{s.status}</span>
                {s.status === 'active' && s.failing_since && (
                  <>
                    {' '}
                    <span class="status status-failing" data-testid="subscription-health">
                      failing
                    </span>
                  </>
                )}{' '}
                <code class="wrap">{s.url}</code>
              </header>
              {s.failing_since && (
                <p class="error" data-testid="subscription-failing-since">
                  Every delivery has failed since {formatTime(s.failing_since)}.
                </p>
              )}
              {s.held && (
                <p data-testid="subscription-list-held">
                  {s.held.count} {s.held.count === 1 ? 'delivery' : 'deliveries'} held{s.held.since ? ` since ${formatTime(s.held.since)}` : ''}
                </p>
              )}
              <HealthLine health={health.get(s.id)} />
              <p>
                Events: {s.events.join(', ')} · envelope v{s.version}
              </p>
              {s.description && <p>{s.description}</p>}
              {s.disabled_reason && <p class="error">Disabled: {s.disabled_reason}</p>}
              <button type="button" class="secondary" onClick={() => onOpen(s.id)} aria-label={`Manage ${s.url}`}>
                Manage
              </button>
            </article>
          </li>
        ))}
      </ul>
      {state.next && (
        <button type="button" class="outline" onClick={() => onMore(state.next!)}>
          Load more
        </button>
      )}
    </>
  );
}

/** The last hour's success rate of a subscription, once loaded. */
function HealthLine({ health }: { health: SubscriptionHealth | undefined }) {
  if (!health) return null;
  const text =
    health.success_rate === undefined
      ? 'No attempts in the last hour.'
      : `Last hour: ${Math.round(health.success_rate * 100)}% delivered (${health.delivered} of ${health.attempts} ${health.attempts === 1 ? 'attempt' : 'attempts'}).`;
  return (
    <p data-testid="subscription-success-rate" class={health.attempts > 0 && health.delivered === 0 ? 'error' : undefined}>
      {text}
    </p>
  );
}
