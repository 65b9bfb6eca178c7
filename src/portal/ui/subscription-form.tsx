import { useState } from 'preact/hooks';
import type { WebhookServiceClient } from '../../client';
import { idempotencyKey, outcome } from './api';
import { EventTypePicker } from './event-type-picker';
import { FormActions } from './form-actions';
import { BrokerCredentialInputs } from './broker-credential-inputs';
import type { AuthChoice, AuthFields } from './auth-fields';
import { ACK_DEADLINE_BOUNDS, type DestinationChoice, type DestinationFields } from './destination-fields';
import { createBody, type FormState, initialFormState, patchBody } from './subscription-body';
import type { EventTypeInfo, Subscription } from './types';

interface Props {
  client: WebhookServiceClient;
  eventTypes: EventTypeInfo[] | string;
  grants: readonly string[];
  /** The subscription to edit; absent: create a new one. */
  editing?: Subscription;
  onSaved: (s: Subscription, secret?: string) => void;
  onCancel: () => void;
}

/** Creates a subscription (v1 or v2 envelope) or edits one's URL, events, description, custom headers, authentication, filter, version, retry schedule, rate limit and most deliveries at once. */
export function SubscriptionForm({ client, eventTypes, grants, editing, onSaved, onCancel }: Props) {
  const [form, setForm] = useState<FormState>(() => initialFormState(editing));
  const set = (change: Partial<FormState>) => setForm((f) => ({ ...f, ...change }));
  const setAuth = (change: Partial<AuthFields>) => setForm((f) => ({ ...f, authFields: { ...f.authFields, ...change } }));
  const setDestination = (change: Partial<DestinationFields>) => setForm((f) => ({ ...f, destinationFields: { ...f.destinationFields, ...change } }));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const submit = async (e: Event) => {
    e.preventDefault();
    if (editing) {
      const built = patchBody(form, editing);
      if ('error' in built) return setError(built.error);
      setBusy(true);
      setError(undefined);
      const r = await outcome(client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: editing.id } }, body: built.body }));
      setBusy(false);
      if (r.ok) onSaved(r.data);
      else setError(r.message);
      return;
    }
    const built = createBody(form);
    if ('error' in built) return setError(built.error);
    setBusy(true);
    setError(undefined);
    const { body } = built;
    const headers = { 'Idempotency-Key': idempotencyKey() };
    const r = await outcome(
      built.version === 2 ? client.POST('/api/webhooks/v2/subscribe', { body, params: { header: headers } }) : client.POST('/api/webhooks/v1/subscribe', { body, params: { header: headers } }),
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
        <input type="url" name="url" required maxLength={2048} placeholder="https://example.com/webhooks" value={form.url} onInput={(e) => set({ url: e.currentTarget.value })} />
      </label>
      <fieldset data-testid="destination-fields">
        <legend>Destination</legend>
        <label>
          Deliver by
          <select name="destination" value={form.destinationChoice} onChange={(e) => set({ destinationChoice: e.currentTarget.value as DestinationChoice })}>
            {editing?.destination && <option value="keep">Keep as it is</option>}
            <option value="http">HTTP POST</option>
            <option value="rabbitmq">RabbitMQ</option>
            <option value="nats">NATS JetStream</option>
            <option value="redis">Redis Streams</option>
            <option value="kafka">Kafka</option>
            <option value="sqs">Amazon SQS</option>
            <option value="pull">Pull (an inbox read over the API)</option>
          </select>
          {form.destinationChoice === 'rabbitmq' && (
            <small>
              The broker's address goes in the URL above: <code>amqps://host/vhost</code>.
            </small>
          )}
          {form.destinationChoice === 'nats' && (
            <small>
              The server's address goes in the URL above: <code>tls://host:4222</code>. A JetStream stream must capture the subject.
            </small>
          )}
          {form.destinationChoice === 'redis' && (
            <small>
              The server's address goes in the URL above: <code>rediss://host:6380/0</code>.
            </small>
          )}
          {form.destinationChoice === 'kafka' && (
            <small>
              A bootstrap broker goes in the URL above: <code>kafkas://host:9093</code> (TLS) or <code>kafka://host:9092</code>.
            </small>
          )}
          {form.destinationChoice === 'sqs' && (
            <small>
              The queue URL goes in the URL above: <code>https://sqs.eu-west-1.amazonaws.com/123456789012/orders</code> (a FIFO queue's ends in <code>.fifo</code>).
            </small>
          )}
          {form.destinationChoice === 'pull' && (
            <small>
              Name the consumer in the URL above: <code>pull://my-worker</code>. It reads the inbox and reports each outcome.
            </small>
          )}
        </label>
        {form.destinationChoice === 'pull' && (
          <label>
            Ack deadline (seconds)
            <input
              type="number"
              name="destination-ack-deadline"
              min={ACK_DEADLINE_BOUNDS.min}
              max={ACK_DEADLINE_BOUNDS.max}
              step={1}
              placeholder="30"
              value={form.destinationFields.ackDeadlineSeconds}
              onInput={(e) => setDestination({ ackDeadlineSeconds: e.currentTarget.value })}
            />
            <small>How long the consumer has to report each outcome before the attempt times out and is retried (empty: 30).</small>
          </label>
        )}
        {form.destinationChoice === 'rabbitmq' && (
          <>
            <label>
              Exchange
              <input type="text" name="destination-exchange" maxLength={255} placeholder="webhooks" value={form.destinationFields.exchange} onInput={(e) => setDestination({ exchange: e.currentTarget.value })} />
            </label>
            <label>
              Routing key
              <input type="text" name="destination-routing-key" maxLength={255} value={form.destinationFields.routingKey} onInput={(e) => setDestination({ routingKey: e.currentTarget.value })} />
            </label>
            <BrokerCredentialInputs fields={form.destinationFields} set={setDestination} userLabel="Broker user" passwordLabel="Broker password" />
          </>
        )}
        {form.destinationChoice === 'nats' && (
          <>
            <label>
              Subject
              <input type="text" name="destination-subject" maxLength={255} placeholder="webhooks.orders" value={form.destinationFields.subject} onInput={(e) => setDestination({ subject: e.currentTarget.value })} />
            </label>
            <BrokerCredentialInputs fields={form.destinationFields} set={setDestination} userLabel="User (optional)" passwordLabel="Password" />
            <label>
              Token (instead of a user and password)
              <input type="password" name="destination-token" autoComplete="off" maxLength={1024} value={form.destinationFields.token} onInput={(e) => setDestination({ token: e.currentTarget.value })} />
            </label>
          </>
        )}
        {form.destinationChoice === 'redis' && (
          <>
            <label>
              Stream
              <input type="text" name="destination-stream" maxLength={255} placeholder="webhooks:orders" value={form.destinationFields.stream} onInput={(e) => setDestination({ stream: e.currentTarget.value })} />
            </label>
            <label>
              Maximum length (optional)
              <input type="text" inputMode="numeric" name="destination-maxlen" placeholder="100000" value={form.destinationFields.maxlen} onInput={(e) => setDestination({ maxlen: e.currentTarget.value })} />
            </label>
            <BrokerCredentialInputs fields={form.destinationFields} set={setDestination} userLabel="User (optional)" passwordLabel="Password" />
          </>
        )}
        {form.destinationChoice === 'kafka' && (
          <>
            <label>
              Topic
              <input type="text" name="destination-topic" maxLength={249} placeholder="orders" value={form.destinationFields.topic} onInput={(e) => setDestination({ topic: e.currentTarget.value })} />
            </label>
            <label>
              More bootstrap brokers (optional)
              <input type="text" name="destination-brokers" placeholder="kafka-2.example.com:9093, kafka-3.example.com:9093" value={form.destinationFields.brokers} onInput={(e) => setDestination({ brokers: e.currentTarget.value })} />
            </label>
            <label>
              SASL mechanism
              <select name="destination-sasl-mechanism" value={form.destinationFields.saslMechanism} onChange={(e) => setDestination({ saslMechanism: e.currentTarget.value as DestinationFields['saslMechanism'] })}>
                <option value="plain">PLAIN</option>
                <option value="scram-sha-256">SCRAM-SHA-256</option>
                <option value="scram-sha-512">SCRAM-SHA-512</option>
              </select>
            </label>
            <BrokerCredentialInputs fields={form.destinationFields} set={setDestination} userLabel="SASL user (optional)" passwordLabel="SASL password" />
          </>
        )}
        {form.destinationChoice === 'sqs' && (
          <>
            <label>
              Region
              <input type="text" name="destination-region" maxLength={32} placeholder="eu-west-1" value={form.destinationFields.region} onInput={(e) => setDestination({ region: e.currentTarget.value })} />
            </label>
            <BrokerCredentialInputs fields={form.destinationFields} set={setDestination} userLabel="Access key ID" passwordLabel="Secret access key" />
          </>
        )}
      </fieldset>
      <label>
        Description
        <input type="text" name="description" maxLength={500} value={form.description} onInput={(e) => set({ description: e.currentTarget.value })} />
      </label>
      <label>
        Custom headers
        <textarea
          name="headers"
          rows={3}
          placeholder={'X-Api-Key: your-gateway-key\nX-Tenant: acme'}
          value={form.headerLines}
          onInput={(e) => set({ headerLines: e.currentTarget.value })}
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
          <select name="auth" value={form.authChoice} onChange={(e) => set({ authChoice: e.currentTarget.value as AuthChoice })}>
            {editing?.auth && <option value="keep">Keep as it is</option>}
            <option value="none">None (signature only)</option>
            <option value="bearer">Bearer token</option>
            <option value="basic">HTTP Basic</option>
            <option value="oauth2_client_credentials">OAuth 2.0 client credentials</option>
          </select>
        </label>
        {form.authChoice === 'bearer' && (
          <label>
            Bearer token
            <input type="password" name="auth-token" autoComplete="off" maxLength={4096} value={form.authFields.token} onInput={(e) => setAuth({ token: e.currentTarget.value })} />
          </label>
        )}
        {form.authChoice === 'basic' && (
          <>
            <label>
              User name
              <input type="text" name="auth-username" autoComplete="off" maxLength={256} value={form.authFields.username} onInput={(e) => setAuth({ username: e.currentTarget.value })} />
            </label>
            <label>
              Password
              <input type="password" name="auth-password" autoComplete="off" maxLength={1024} value={form.authFields.password} onInput={(e) => setAuth({ password: e.currentTarget.value })} />
            </label>
          </>
        )}
        {form.authChoice === 'oauth2_client_credentials' && (
          <>
            <label>
              Token URL
              <input type="url" name="auth-token-url" maxLength={2048} placeholder="https://auth.example.com/oauth2/token" value={form.authFields.tokenUrl} onInput={(e) => setAuth({ tokenUrl: e.currentTarget.value })} />
            </label>
            <label>
              Client id
              <input type="text" name="auth-client-id" autoComplete="off" maxLength={256} value={form.authFields.clientId} onInput={(e) => setAuth({ clientId: e.currentTarget.value })} />
            </label>
            <label>
              Client secret
              <input type="password" name="auth-client-secret" autoComplete="off" maxLength={1024} value={form.authFields.clientSecret} onInput={(e) => setAuth({ clientSecret: e.currentTarget.value })} />
            </label>
            <label>
              Scope (optional)
              <input type="text" name="auth-scope" maxLength={1024} value={form.authFields.scope} onInput={(e) => setAuth({ scope: e.currentTarget.value })} />
            </label>
          </>
        )}
        <small>Sent as the <code>Authorization</code> header of every delivery; credentials are stored sealed and never shown again.</small>
      </fieldset>
      <EventTypePicker eventTypes={eventTypes} selected={form.events} onChange={(events) => set({ events })} grants={grants} />
      <label>
        Filter (optional JSON; only matching events are delivered)
        <textarea
          name="filter"
          rows={4}
          maxLength={4096}
          placeholder='{"data": {"total": {"$gte": 100}}}'
          value={form.filterText}
          onInput={(e) => set({ filterText: e.currentTarget.value })}
        />
        <small>
          Matched against <code>{'{type, id, data}'}</code> with <code>$eq</code>, <code>$neq</code>, <code>$gt</code>, <code>$gte</code>, <code>$lt</code>,{' '}
          <code>$lte</code>, <code>$in</code>, <code>$nin</code>, <code>$exists</code>, <code>$startsWith</code>, <code>$and</code>, <code>$or</code>, <code>$not</code>.
        </small>
      </label>
      <fieldset>
        <legend>Retries</legend>
        <label>
          Retry waits
          <input type="text" name="retry-schedule" placeholder={editing ? editing.retry.schedule.join(', ') : '30s, 5m, 1h'} value={form.retryWaits} onInput={(e) => set({ retryWaits: e.currentTarget.value })} />
        </label>
        <label>
          Attempts in all
          <input type="number" name="retry-attempts" min={1} max={10} placeholder={editing ? String(editing.retry.max_attempts) : '5'} value={form.retryAttempts} onInput={(e) => set({ retryAttempts: e.currentTarget.value })} />
        </label>
        <small>
          Waits after attempt 1, 2, … (<code>s</code>, <code>m</code>, <code>h</code>; the last repeats), each 1s to 6h, at most 10; 1 to 10 attempts; 12h of retries in all. Leave both empty for the service’s
          schedule.
        </small>
      </fieldset>
      <label>
        Rate limit (deliveries per second, optional)
        <input type="number" name="rate-limit" min={1} max={100} value={form.rateText} onInput={(e) => set({ rateText: e.currentTarget.value })} />
        <small>At most this many deliveries a second, over every worker (1 to 100); attempts beyond it wait, not counted as attempts. Empty: no limit.</small>
      </label>
      <label>
        Most deliveries at once (optional)
        <input type="number" name="max-in-flight" min={1} max={1000} value={form.maxInFlightText} onInput={(e) => set({ maxInFlightText: e.currentTarget.value })} />
        <small>At most this many POSTs from one worker to the endpoint at a time (1 to 1000); others wait their turn, not counted as attempts. Empty: the service’s default.</small>
      </label>
      <fieldset>
        <legend>Ordering</legend>
        <label>
          <input type="checkbox" name="ordering" checked={form.ordered} onChange={(e) => set({ ordered: e.currentTarget.checked })} />
          Deliver in order per key
        </label>
        {/* Not inside the label: Pico pulls a <small> right after an input up over it, and the text node between does not count. */}
        <small>Events of one order (or one product’s stock) arrive in the order they happened: each waits until the one before it was delivered or finally failed; other keys keep flowing.</small>
      </fieldset>
      <fieldset>
        <legend>Envelope version</legend>
        <label>
          <input type="radio" name="version" value="1" checked={form.version === '1'} onChange={() => set({ version: '1' })} />
          v1: <code>{'{event, id, data}'}</code>
        </label>
        <label>
          <input type="radio" name="version" value="2" checked={form.version === '2'} onChange={() => set({ version: '2' })} />
          v2: v1 plus <code>api_version</code> and <code>created_at</code>
        </label>
        {editing && <small>Changing it applies from the next attempt, retries of pending deliveries included.</small>}
      </fieldset>
      {!editing && (
        <fieldset>
          <legend>Signatures</legend>
          <label>
            <input type="radio" name="signature" value="hmac-sha256" checked={form.signature === 'hmac-sha256'} onChange={() => set({ signature: 'hmac-sha256' })} />
            HMAC-SHA256 (<code>v1</code>): a shared secret, shown once
          </label>
          <label>
            <input type="radio" name="signature" value="ed25519" checked={form.signature === 'ed25519'} onChange={() => set({ signature: 'ed25519' })} />
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
