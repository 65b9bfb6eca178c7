import { examplePayload, type JsonSchema } from './example-payload';
import type { EventType, EventTypeInfo } from './types';

interface Props {
  eventTypes: EventTypeInfo[] | string;
  selected: EventType[];
  onChange: (events: EventType[]) => void;
  /** The session's grants: a type needing a scope the session lacks is shown but cannot be picked. */
  grants: readonly string[];
}

/** Whether the session may subscribe to a type (`admin` never reaches a portal session's grants). */
function allowed(type: EventTypeInfo, grants: readonly string[]): boolean {
  return type.required_scopes.every((s) => s === 'webhooks:write' || s === 'webhooks:read' || grants.includes(s));
}

/** Checkboxes over the event catalogue, each with its description, JSON schema and an example payload. */
export function EventTypePicker({ eventTypes, selected, onChange, grants }: Props) {
  if (typeof eventTypes === 'string') return <p role="alert" class="error">Could not load the event types: {eventTypes}</p>;
  if (!eventTypes.length) return <p aria-busy="true">Loading event types…</p>;
  const toggle = (name: EventType, on: boolean) => onChange(on ? [...selected, name] : selected.filter((e) => e !== name));
  return (
    <fieldset data-testid="event-type-picker">
      <legend>Events to deliver</legend>
      {eventTypes.map((t) => (
        <div key={t.name} class="event-type">
          <label>
            <input
              type="checkbox"
              name="events"
              value={t.name}
              checked={selected.includes(t.name)}
              disabled={!allowed(t, grants) && !selected.includes(t.name)}
              onChange={(e) => toggle(t.name, e.currentTarget.checked)}
            />
            <code>{t.name}</code> — {t.description}
            {!allowed(t, grants) && <small> (this link does not allow it: needs {t.required_scopes.join(', ')})</small>}
          </label>
          <details>
            <summary>Schema and example of {t.name}</summary>
            <p>
              Example <code>data</code> payload:
            </p>
            <pre tabIndex={0} aria-label={`Example payload of ${t.name}`}>
              {JSON.stringify(examplePayload(t.schema as JsonSchema), null, 2)}
            </pre>
            <p>JSON Schema:</p>
            <pre tabIndex={0} aria-label={`JSON schema of ${t.name}`}>
              {JSON.stringify(t.schema, null, 2)}
            </pre>
          </details>
        </div>
      ))}
    </fieldset>
  );
}
