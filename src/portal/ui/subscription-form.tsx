import { useState } from 'preact/hooks';
import type { WebhookServiceClient } from '../../client';
import { idempotencyKey, outcome } from './api';
import { EventTypePicker } from './event-type-picker';
import { FormActions } from './form-actions';
import { type AuthChoice, authBody, type AuthFields, emptyAuthFields } from './auth-fields';
import { parseHeaderLines } from './header-lines';
import type { EventType, EventTypeInfo, SignatureScheme, Subscription } from './types';

interface Props {
  client: WebhookServiceClient;
  eventTypes: EventTypeInfo[] | string;
  grants: readonly string[];
  /** The subscription to edit; absent: create a new one. */
  editing?: Subscription;
  onSaved: (s: Subscription, secret?: string) => void;
  onCancel: () => void;
}

/** The filter box's text as a filter: undefined when empty or not a JSON object. */
function parseFilter(text: string): { ok: true; filter?: Record<string, unknown> } | { ok: false } {
  if (!text.trim()) return { ok: true };
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ok: true, filter: value as Record<string, unknown> } : { ok: false };
  } catch {
    return { ok: false };
  }
}

/** Creates a subscription (v1 or v2 envelope) or edits one's URL, events, description, custom headers, authentication, filter and version. */
export function SubscriptionForm({ client, eventTypes, grants, editing, onSaved, onCancel }: Props) {
  const [url, setUrl] = useState(editing?.url ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  // Values are never shown again, so editing starts empty: left empty, the headers stay as they are.
  const [headerLines, setHeaderLines] = useState('');
  // Credentials are never shown again: editing keeps the stored auth unless another choice is made.
  const [authChoice, setAuthChoice] = useState<AuthChoice>(editing?.auth ? 'keep' : 'none');
  const [authFields, setAuthFields] = useState<AuthFields>(emptyAuthFields);
  const [events, setEvents] = useState<EventType[]>(editing?.events ?? []);
  const [version, setVersion] = useState<'1' | '2'>(editing?.version === 2 ? '2' : '1');
  // Chosen at creation only: a later switch is a key rotation (the detail page's Rotate).
  const [signature, setSignature] = useState<SignatureScheme>('hmac-sha256');
  const [filterText, setFilterText] = useState(editing?.filter ? JSON.stringify(editing.filter, null, 2) : '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!events.length) return setError('Choose at least one event type.');
    const lines = parseHeaderLines(headerLines);
    if ('error' in lines) return setError(lines.error);
    const custom = Object.keys(lines.headers).length ? { headers: lines.headers } : {};
    const auth = authBody(authChoice, authFields, editing !== undefined);
    if ('error' in auth) return setError(auth.error);
    const parsed = parseFilter(filterText);
    if (!parsed.ok) return setError('The filter must be a JSON object, e.g. {"data": {"total": {"$gte": 100}}}.');
    const filter = parsed.filter;
    setBusy(true);
    setError(undefined);
    if (editing) {
      const r = await outcome(
        client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', {
          params: { path: { subscription_id: editing.id } },
          body: {
            url,
            events,
            description,
            ...custom,
            ...auth,
            // An emptied box removes the filter the subscription had.
            ...(filter ? { filter } : editing.filter ? { filter: {} } : {}),
            ...(Number(version) !== editing.version ? { version: version === '2' ? 2 : 1 } : {}),
          },
        }),
      );
      setBusy(false);
      if (r.ok) onSaved(r.data);
      else setError(r.message);
      return;
    }
    const body = { url, events, ...(description ? { description } : {}), ...custom, ...(auth.auth ? { auth: auth.auth } : {}), ...(filter ? { filter } : {}), ...(signature === 'ed25519' ? { signature } : {}) };
    const headers = { 'Idempotency-Key': idempotencyKey() };
    const r = await outcome(
      version === '2' ? client.POST('/api/webhooks/v2/subscribe', { body, params: { header: headers } }) : client.POST('/api/webhooks/v1/subscribe', { body, params: { header: headers } }),
    );
    setBusy(false);
    if (!r.ok) return setError(r.message);
    const { secret, ...subscription } = r.data;
    onSaved(subscription, secret);
  };

  return (
    <form onSubmit={(e) => void submit(e)} aria-labelledby="sub-form-heading" data-testid="subscription-form">
      <h2 id="sub-form-heading">{editing ? 'Edit subscription' : 'New subscription'}</h2>
      <label>
        Endpoint URL
        <input type="url" name="url" required maxLength={2048} placeholder="https://example.com/webhooks" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      </label>
      <label>
        Description
        <input type="text" name="description" maxLength={500} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </label>
      <label>
        Custom headers
        <textarea
          name="headers"
          rows={3}
          placeholder={'X-Api-Key: your-gateway-key\nX-Tenant: acme'}
          value={headerLines}
          onInput={(e) => setHeaderLines(e.currentTarget.value)}
        />
        <small>
          One <code>Name: value</code> per line, sent with every delivery; values are stored sealed and shown only as <code>********</code>.
          {editing?.headers && ` Now set: ${Object.keys(editing.headers).join(', ')}. Leave empty to keep them; anything entered replaces them all.`}
        </small>
      </label>
      <fieldset data-testid="auth-fields">
        <legend>Authentication towards the endpoint</legend>
        <label>
          Authentication
          <select name="auth" value={authChoice} onChange={(e) => setAuthChoice(e.currentTarget.value as AuthChoice)}>
            {editing?.auth && <option value="keep">Keep as it is</option>}
            <option value="none">None (signature only)</option>
            <option value="bearer">Bearer token</option>
            <option value="basic">HTTP Basic</option>
            <option value="oauth2_client_credentials">OAuth 2.0 client credentials</option>
          </select>
        </label>
        {authChoice === 'bearer' && (
          <label>
            Bearer token
            <input type="password" name="auth-token" autoComplete="off" maxLength={4096} value={authFields.token} onInput={(e) => setAuthFields({ ...authFields, token: e.currentTarget.value })} />
          </label>
        )}
        {authChoice === 'basic' && (
          <>
            <label>
              User name
              <input type="text" name="auth-username" autoComplete="off" maxLength={256} value={authFields.username} onInput={(e) => setAuthFields({ ...authFields, username: e.currentTarget.value })} />
            </label>
            <label>
              Password
              <input type="password" name="auth-password" autoComplete="off" maxLength={1024} value={authFields.password} onInput={(e) => setAuthFields({ ...authFields, password: e.currentTarget.value })} />
            </label>
          </>
        )}
        {authChoice === 'oauth2_client_credentials' && (
          <>
            <label>
              Token URL
              <input type="url" name="auth-token-url" maxLength={2048} placeholder="https://auth.example.com/oauth2/token" value={authFields.tokenUrl} onInput={(e) => setAuthFields({ ...authFields, tokenUrl: e.currentTarget.value })} />
            </label>
            <label>
              Client id
              <input type="text" name="auth-client-id" autoComplete="off" maxLength={256} value={authFields.clientId} onInput={(e) => setAuthFields({ ...authFields, clientId: e.currentTarget.value })} />
            </label>
            <label>
              Client secret
              <input type="password" name="auth-client-secret" autoComplete="off" maxLength={1024} value={authFields.clientSecret} onInput={(e) => setAuthFields({ ...authFields, clientSecret: e.currentTarget.value })} />
            </label>
            <label>
              Scope (optional)
              <input type="text" name="auth-scope" maxLength={1024} value={authFields.scope} onInput={(e) => setAuthFields({ ...authFields, scope: e.currentTarget.value })} />
            </label>
          </>
        )}
        <small>Sent as the <code>Authorization</code> header of every delivery; credentials are stored sealed and never shown again.</small>
      </fieldset>
      <EventTypePicker eventTypes={eventTypes} selected={events} onChange={setEvents} grants={grants} />
      <label>
        Filter (optional JSON; only matching events are delivered)
        <textarea
          name="filter"
          rows={4}
          maxLength={4096}
          placeholder='{"data": {"total": {"$gte": 100}}}'
          value={filterText}
          onInput={(e) => setFilterText(e.currentTarget.value)}
        />
        <small>
          Matched against <code>{'{type, id, data}'}</code> with <code>$eq</code>, <code>$neq</code>, <code>$gt</code>, <code>$gte</code>, <code>$lt</code>,{' '}
          <code>$lte</code>, <code>$in</code>, <code>$nin</code>, <code>$exists</code>, <code>$startsWith</code>, <code>$and</code>, <code>$or</code>, <code>$not</code>.
        </small>
      </label>
      <fieldset>
        <legend>Envelope version</legend>
        <label>
          <input type="radio" name="version" value="1" checked={version === '1'} onChange={() => setVersion('1')} />
          v1: <code>{'{event, id, data}'}</code>
        </label>
        <label>
          <input type="radio" name="version" value="2" checked={version === '2'} onChange={() => setVersion('2')} />
          v2: v1 plus <code>api_version</code> and <code>created_at</code>
        </label>
        {editing && <small>Changing it applies from the next attempt, retries of pending deliveries included.</small>}
      </fieldset>
      {!editing && (
        <fieldset>
          <legend>Signatures</legend>
          <label>
            <input type="radio" name="signature" value="hmac-sha256" checked={signature === 'hmac-sha256'} onChange={() => setSignature('hmac-sha256')} />
            HMAC-SHA256 (<code>v1</code>): a shared secret, shown once
          </label>
          <label>
            <input type="radio" name="signature" value="ed25519" checked={signature === 'ed25519'} onChange={() => setSignature('ed25519')} />
            Ed25519 (<code>v1a</code>): your receiver verifies with a public key; the private key never leaves the service
          </label>
        </fieldset>
      )}
      {error && (
        <p role="alert" class="error" data-testid="form-error">
          {error}
        </p>
      )}
      <FormActions label={editing ? 'Save changes' : 'Create subscription'} busy={busy} onCancel={onCancel} />
    </form>
  );
}
