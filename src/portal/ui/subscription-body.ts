import { type AuthChoice, authBody, type AuthFields, emptyAuthFields } from './auth-fields';
import { type DestinationChoice, destinationBody, type DestinationFields, emptyDestinationFields } from './destination-fields';
import { parseHeaderLines } from './header-lines';
import { parseMaxInFlight, parseRateLimit, parseRetryFields } from './retry-fields';
import type { EventType, SignatureScheme, Subscription, SubscriptionCreate, SubscriptionUpdate } from './types';

/** What the subscription form's boxes hold. */
export interface FormState {
  url: string;
  description: string;
  /** Custom headers, one `Name: value` a line. */
  headerLines: string;
  authChoice: AuthChoice;
  authFields: AuthFields;
  destinationChoice: DestinationChoice;
  destinationFields: DestinationFields;
  events: EventType[];
  version: '1' | '2';
  /** Chosen at creation only: a later switch is a key rotation (the detail page's Rotate). */
  signature: SignatureScheme;
  filterText: string;
  retryWaits: string;
  retryAttempts: string;
  rateText: string;
  maxInFlightText: string;
  /** Each ordering key's events in emission order. */
  ordered: boolean;
}

/** The boxes for a new subscription, or for editing `editing`: values never shown again (headers, credentials) start empty. */
export function initialFormState(editing?: Subscription): FormState {
  // Filled in only when the subscription has its own schedule: empty means the service's.
  const ownRetry = editing?.retry.source === 'subscription' ? editing.retry : undefined;
  return {
    url: editing?.url ?? '',
    description: editing?.description ?? '',
    // Left empty when editing, the headers stay as they are.
    headerLines: '',
    // Editing keeps the stored auth unless another choice is made.
    authChoice: editing?.auth ? 'keep' : 'none',
    authFields: emptyAuthFields,
    // Editing keeps the stored broker (its credentials are never shown) unless another choice is made.
    destinationChoice: editing?.destination ? 'keep' : 'http',
    // A pull subscription's deadline is shown to edit; broker credentials never are.
    destinationFields: editing?.destination?.type === 'pull' ? { ...emptyDestinationFields, ackDeadlineSeconds: String(editing.destination.ack_deadline_seconds ?? '') } : emptyDestinationFields,
    events: editing?.events ?? [],
    version: editing?.version === 2 ? '2' : '1',
    signature: 'hmac-sha256',
    filterText: editing?.filter ? JSON.stringify(editing.filter, null, 2) : '',
    retryWaits: ownRetry ? ownRetry.schedule.join(', ') : '',
    retryAttempts: ownRetry ? String(ownRetry.max_attempts) : '',
    rateText: editing?.rate_limit !== undefined ? String(editing.rate_limit) : '',
    maxInFlightText: editing?.max_in_flight !== undefined ? String(editing.max_in_flight) : '',
    ordered: editing?.ordering === 'per_key',
  };
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

/** The boxes read and checked for what the server cannot say better; the first problem as `error`. */
function readBoxes(f: FormState, editing: Subscription | undefined) {
  if (!f.events.length) return { error: 'Choose at least one event type.' };
  const lines = parseHeaderLines(f.headerLines);
  if ('error' in lines) return lines;
  const auth = authBody(f.authChoice, f.authFields, editing !== undefined);
  if ('error' in auth) return auth;
  const destination = destinationBody(f.destinationChoice, f.destinationFields, editing?.destination !== undefined);
  if ('error' in destination) return destination;
  const parsed = parseFilter(f.filterText);
  if (!parsed.ok) return { error: 'The filter must be a JSON object, e.g. {"data": {"total": {"$gte": 100}}}.' };
  const retry = parseRetryFields(f.retryWaits, f.retryAttempts);
  if ('error' in retry) return retry;
  const rate = parseRateLimit(f.rateText);
  if ('error' in rate) return rate;
  const inFlight = parseMaxInFlight(f.maxInFlightText);
  if ('error' in inFlight) return inFlight;
  const headers = Object.keys(lines.headers).length ? { headers: lines.headers } : {};
  return { headers, auth, destination, filter: parsed.filter, retry: retry.retry, rateLimit: rate.rateLimit, maxInFlight: inFlight.maxInFlight };
}

/** The body of `POST /subscribe` from the boxes, and the version whose path it goes to. */
export function createBody(f: FormState): { body: SubscriptionCreate; version: 1 | 2 } | { error: string } {
  const r = readBoxes(f, undefined);
  if ('error' in r) return r;
  const body: SubscriptionCreate = {
    url: f.url,
    events: f.events,
    ...(f.description ? { description: f.description } : {}),
    ...r.headers,
    ...(r.auth.auth ? { auth: r.auth.auth } : {}),
    ...r.destination,
    ...(r.filter ? { filter: r.filter } : {}),
    ...(r.retry ? { retry: r.retry } : {}),
    ...(f.signature === 'ed25519' ? { signature: f.signature } : {}),
    ...(r.rateLimit !== undefined ? { rate_limit: r.rateLimit } : {}),
    ...(r.maxInFlight !== undefined ? { max_in_flight: r.maxInFlight } : {}),
    ...(f.ordered ? { ordering: 'per_key' as const } : {}),
  };
  return { body, version: f.version === '2' ? 2 : 1 };
}

/** The body of `PATCH` for `editing` from the boxes: an emptied box removes what the subscription had, where the contract allows it. */
export function patchBody(f: FormState, editing: Subscription): { body: SubscriptionUpdate } | { error: string } {
  const r = readBoxes(f, editing);
  if ('error' in r) return r;
  const ownRetry = editing.retry.source === 'subscription';
  const body: SubscriptionUpdate = {
    url: f.url,
    events: f.events,
    description: f.description,
    ...r.headers,
    ...r.auth,
    ...r.destination,
    // An emptied box removes the filter the subscription had.
    ...(r.filter ? { filter: r.filter } : editing.filter ? { filter: {} } : {}),
    ...(Number(f.version) !== editing.version ? { version: f.version === '2' ? 2 : 1 } : {}),
    // Emptied boxes go back to the service's schedule, no rate limit and the service's bound on POSTs at once.
    ...(r.retry ? { retry: r.retry } : ownRetry ? { retry: null } : {}),
    ...(r.rateLimit !== undefined ? { rate_limit: r.rateLimit } : editing.rate_limit !== undefined ? { rate_limit: null } : {}),
    ...(r.maxInFlight !== undefined ? { max_in_flight: r.maxInFlight } : editing.max_in_flight !== undefined ? { max_in_flight: null } : {}),
    ...(f.ordered !== (editing.ordering === 'per_key') ? { ordering: f.ordered ? ('per_key' as const) : ('none' as const) } : {}),
  };
  return { body };
}
