import { useCallback, useEffect, useState } from 'preact/hooks';
import type { WebhookServiceClient } from '../../client';
import { outcome } from './api';
import { formatTime } from './format';
import { SecretNotice, type ShownSecret } from './secret-notice';
import { SubscriptionDetail } from './subscription-detail';
import { SubscriptionForm } from './subscription-form';
import type { TemporalUi } from './temporal-links';
import type { EventTypeInfo, PortalSessionInfo, Subscription } from './types';

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

  const load = useCallback(async (cursor?: string) => {
    const r = await outcome(client.GET('/api/webhooks/v1/subscriptions', { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } }));
    if (!r.ok) return setList({ kind: 'error', message: r.message });
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
          <SubscriptionList state={list} onOpen={setSelected} onMore={(c) => void load(c)} />
        </section>
      )}
    </>
  );
}

function SubscriptionList({ state, onOpen, onMore }: { state: ListState; onOpen: (id: string) => void; onMore: (cursor: string) => void }) {
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
