import { useEffect, useRef, useState } from 'preact/hooks';
import type { WebhookServiceClient } from '../../client';
import { idempotencyKey, outcome } from './api';
import { describeAuth } from './auth-fields';
import { describeDestination } from './destination-fields';
import { EventsPanel } from './events-panel';
import { formatTime } from './format';
import { RotateSecretForm } from './rotate-secret-form';
import type { ShownSecret } from './secret-notice';
import { StatsPanel } from './stats-panel';
import { SubscriptionForm } from './subscription-form';
import { temporalWorkflowsUrl, type TemporalUi } from './temporal-links';
import type { EventTypeInfo, SignatureScheme, Subscription } from './types';

interface Props {
  client: WebhookServiceClient;
  subscription: Subscription;
  eventTypes: EventTypeInfo[] | string;
  grants: readonly string[];
  canWrite: boolean;
  temporal: TemporalUi | undefined;
  onChanged: (s: Subscription) => void;
  onDeleted: (id: string) => void;
  onSecret: (s: ShownSecret) => void;
  onBack: () => void;
}

type Notice = { tone: 'ok' | 'error'; text: string } | undefined;

/** One subscription: its settings and actions, its 24-hour chart and its delivery attempts. */
export function SubscriptionDetail({ client, subscription: s, eventTypes, grants, canWrite, temporal, onChanged, onDeleted, onSecret, onBack }: Props) {
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>();
  // Bumped after a test send so the attempts panel polls for the new attempt.
  const [activity, setActivity] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const path = { params: { path: { subscription_id: s.id } } };

  const run = async <T,>(call: () => Promise<{ ok: true; data: T } | { ok: false; message: string }>, done: (data: T) => string) => {
    setBusy(true);
    setNotice(undefined);
    const r = await call();
    setBusy(false);
    setNotice(r.ok ? { tone: 'ok', text: done(r.data) } : { tone: 'error', text: r.message });
    return r.ok;
  };

  const setStatus = (status: 'active' | 'paused') =>
    run(
      () => outcome(client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { ...path, body: { status } })),
      (updated) => {
        onChanged(updated);
        return status === 'paused' ? 'Paused: nothing is sent until you resume; new events and pending retries are held, not lost.' : 'Active: held deliveries are sent in the order they were emitted.';
      },
    );
  const sendTest = () =>
    run(
      () => outcome(client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path: { subscription_id: s.id }, header: { 'Idempotency-Key': idempotencyKey() } } })),
      (r) => {
        setActivity((n) => n + 1);
        return `Test event ${r.event_id} sent.`;
      },
    );
  const rotate = async (overlapSeconds: number, scheme: SignatureScheme) => {
    const ok = await run(
      () =>
        outcome(
          client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/rotate-secret', {
            ...path,
            body: { expire_previous_in_seconds: overlapSeconds, ...(scheme !== s.signature ? { signature: scheme } : {}) },
          }),
        ),
      (r) => {
        onSecret({ subscriptionId: s.id, secret: r.secret, kind: 'rotated', previousExpiresAt: r.previous_secret_expires_at, overlapSeconds, scheme: r.signature });
        // The scheme and public key shown here changed with the rotation.
        onChanged({ ...s, signature: r.signature, ...(r.signature === 'ed25519' ? { public_key: r.secret } : { public_key: undefined }) });
        return overlapSeconds ? `Secret rotated; the previous one keeps signing until ${formatTime(r.previous_secret_expires_at)}.` : 'Secret rotated; the previous one no longer signs.';
      },
    );
    if (ok) setRotating(false);
  };
  const remove = async () => {
    const ok = await run(
      () => outcome(client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', path)),
      () => 'Deleted.',
    );
    if (ok) onDeleted(s.id);
  };

  return (
    <section aria-labelledby="detail-heading" data-testid="subscription-detail">
      <button type="button" class="outline secondary" onClick={onBack}>
        ← All subscriptions
      </button>
      <h1 id="detail-heading" tabIndex={-1} ref={heading} class="wrap">
        {s.url}
      </h1>
      <p>
        <span class={`status status-${s.status}`} data-testid="subscription-status">
          {s.status}
        </span>{' '}
        · events {s.events.join(', ')} · envelope v{s.version} · <code>{s.id}</code>
      </p>
      {s.description && <p>{s.description}</p>}
      <p data-testid="subscription-signature">
        Signatures: {s.signature === 'ed25519' ? 'Ed25519 (v1a)' : 'HMAC-SHA256 (v1)'}
        {s.public_key && (
          <>
            {' '}
            · public key <code class="wrap" data-testid="public-key">{s.public_key}</code>
          </>
        )}
      </p>
      {s.headers && (
        <p data-testid="subscription-headers">
          Custom headers:{' '}
          {Object.entries(s.headers).map(([name, masked], i) => (
            <span key={name}>
              {i > 0 && ', '}
              <code>
                {name}: {masked}
              </code>
            </span>
          ))}
        </p>
      )}
      {s.destination && <p data-testid="subscription-destination">Destination: {describeDestination(s.destination)}</p>}
      {s.auth && <p data-testid="subscription-auth">Authentication: {describeAuth(s.auth)}</p>}
      {s.filter && (
        <p>
          Delivers only events matching <code data-testid="subscription-filter">{JSON.stringify(s.filter)}</code>
        </p>
      )}
      <p data-testid="subscription-retry">
        Retries after {s.retry.schedule.join(', ')} (the last repeating), {s.retry.max_attempts} attempts in all ·{' '}
        {s.retry.source === 'subscription' ? 'its own schedule' : 'the service’s schedule'}
      </p>
      {s.rate_limit !== undefined && <p data-testid="subscription-rate-limit">At most {s.rate_limit} deliveries per second</p>}
      {s.max_in_flight !== undefined && <p data-testid="subscription-max-in-flight">At most {s.max_in_flight} deliveries at once</p>}
      {s.ordering === 'per_key' && <p data-testid="subscription-ordering">In order per key: each order’s (or product’s) events arrive in the order they happened</p>}
      {s.disabled_reason && <p class="error">Disabled by the service: {s.disabled_reason}</p>}
      {s.failing_since && <p class="error">Every delivery has failed since {formatTime(s.failing_since)}.</p>}
      {s.held && (
        <p data-testid="subscription-held">
          {s.held.count} {s.held.count === 1 ? 'delivery' : 'deliveries'} held{s.held.since ? ` since ${formatTime(s.held.since)}` : ''}
          {s.status === 'paused' ? ': Resume sends them in the order they were emitted.' : ': being sent in the order they were emitted.'}
        </p>
      )}
      {temporal && (
        <p>
          <a href={temporalWorkflowsUrl(temporal, { subscriptionId: s.id })} target="_blank" rel="noreferrer">
            Delivery workflows of this subscription in the Temporal UI
          </a>
        </p>
      )}
      {canWrite && !editing && (
        <div class="actions" role="group" aria-label="Subscription actions">
          <button type="button" disabled={busy} onClick={() => void sendTest()}>
            Send test event
          </button>
          {s.status === 'active' ? (
            <button type="button" class="secondary" disabled={busy} onClick={() => void setStatus('paused')}>
              Pause
            </button>
          ) : (
            <button type="button" class="secondary" disabled={busy} onClick={() => void setStatus('active')}>
              {s.status === 'disabled' ? 'Re-enable' : 'Resume'}
            </button>
          )}
          <button type="button" class="secondary" disabled={busy} onClick={() => setEditing(true)}>
            Edit
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={() => setRotating(true)}>
            Rotate secret
          </button>
          <button type="button" class="contrast" disabled={busy} onClick={() => setConfirmDelete(true)}>
            Delete
          </button>
        </div>
      )}
      {rotating && <RotateSecretForm busy={busy} current={s.signature} onRotate={(seconds, scheme) => void rotate(seconds, scheme)} onCancel={() => setRotating(false)} />}
      {confirmDelete && (
        <article aria-labelledby="confirm-delete" data-testid="confirm-delete">
          <p id="confirm-delete">Delete this subscription? Pending retries are abandoned and it cannot be undone.</p>
          <div class="actions">
            <button type="button" class="contrast" onClick={() => void remove()} autoFocus>
              Yes, delete
            </button>
            <button type="button" class="secondary" onClick={() => setConfirmDelete(false)}>
              Keep it
            </button>
          </div>
        </article>
      )}
      <p role="status" class={notice?.tone === 'error' ? 'error' : 'ok'} data-testid="detail-notice">
        {notice?.text}
      </p>
      {editing && (
        <SubscriptionForm
          client={client}
          eventTypes={eventTypes}
          grants={grants}
          editing={s}
          onCancel={() => setEditing(false)}
          onSaved={(updated) => {
            setEditing(false);
            onChanged(updated);
            setNotice({ tone: 'ok', text: 'Saved.' });
          }}
        />
      )}
      <StatsPanel client={client} subscriptionId={s.id} refresh={activity} />
      <EventsPanel client={client} subscriptionId={s.id} canWrite={canWrite} temporal={temporal} activity={activity} onActivity={() => setActivity((n) => n + 1)} />
    </section>
  );
}
