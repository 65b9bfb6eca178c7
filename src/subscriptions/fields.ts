import type { Principal } from '../auth/api-keys';
import { missingScopes } from '../auth/scopes';
import type { Subscription, SubscriptionCreate, SubscriptionUpdate, SubscriptionWithSecret } from '../contract/types';
import { MAX_RATE_LIMIT, MIN_RATE_LIMIT } from '../deliveries/delivery-rate';
import { DomainError } from '../errors/domain-error';
import { fieldName } from '../errors/field-issue';
import type { checkCallbackUrl } from '../webhooks/callback-url';
import type { RetryOverride } from '../../workflows/delivery-model';
import { assertHeaders, maskHeaders, sealHeaders } from './custom-headers';
import { ALL_DESTINATION_SCHEMES, isPullUrl, pullUrlProblem, sealDestination, type SubscriptionDestination, viewDestination } from './destination';
import { type Filter as EventFilter, validateFilter } from './filter';
import { assertTokenUrl, sealAuth, viewAuth } from './outgoing-auth';
import type { SubscriptionDoc } from './repository';
import { checkedRetry, effectiveRetry } from './retry-schedule';
import type { SecretBox } from './secret-box';
import { signingSecretProblem } from './secrets';
import { MAX_DRAIN_RATE } from './hold';

/**
 * Every subscription field in one table: what the contract calls it, where the document keeps
 * it, its own check, what create and PATCH write for it, how reads show it, whether delivery
 * reads it and whether the portal's form sets it. Cross-field rules (a new url needs its
 * credentials again, ed25519 makes its own key, auth owns `Authorization`, status moves) are
 * not columns: they stay named in use-cases.ts.
 */

type CreateField = keyof SubscriptionCreate;
type PatchField = keyof SubscriptionUpdate;
type ReadField = keyof Subscription;

/** A field integrators may send, on create or PATCH. */
export type SentField = CreateField | PatchField;
/** Every field the contract's subscription schemas name: sent, shown, or both. */
export type SubscriptionField = SentField | keyof SubscriptionWithSecret;

/** A sent field's value, as create or PATCH carries it (PATCH's `null` apart). */
type Sent<K extends SentField> = NonNullable<(K extends CreateField ? SubscriptionCreate[K] : never) | (K extends PatchField ? SubscriptionUpdate[K] : never)>;
/** `null` where the contract lets PATCH send it to remove the field. */
type Removal<K extends SentField> = K extends PatchField ? (null extends SubscriptionUpdate[K] ? null : never) : never;

/** What one request's checks and writes use. */
export interface FieldContext {
  principal: Principal;
  /** Scopes each event type needs from a subscribing key (the catalogue's `required_scopes`). */
  eventScopes: ReadonlyMap<string, readonly string[]>;
  /** Checks a callback URL (scheme, credentials, private or metadata addresses). */
  checkUrl: (raw: string, schemes?: readonly string[]) => ReturnType<typeof checkCallbackUrl>;
  /** Seals credentials before they are stored. */
  secrets: SecretBox;
  /** The subscription's id: what is sealed is bound to it. */
  id: string;
}

/** Document fields a request writes; `null` removes one (on create: nothing is stored). */
export type DocChange = { [D in keyof SubscriptionDoc]?: SubscriptionDoc[D] | null };

/** A column whose work is done outside the table: by a named rule, another operation, or the service. */
export interface Elsewhere {
  elsewhere: string;
}

/** Whether the portal's form sets a field integrators may send; when it does not, why. */
export type PortalRule = 'form' | { settable: false; why: string };

/** Who in delivery reads a field: fan-out (who gets an event), the attempt activity (how it is sent), the failure streaks. */
export type DeliveryUse = 'fan-out' | 'attempt' | 'streak';

/** How a read shows a field: `masked` hides stored values (header values, credentials). */
interface Shown<K extends ReadField> {
  as: 'plain' | 'masked';
  read: (doc: SubscriptionDoc, retryDefaults: RetryOverride) => Subscription[K];
}

/** What a sent value writes to the document. */
type Apply<K extends SentField> = (value: Sent<K> | Removal<K>, ctx: FieldContext) => DocChange;

/** The columns of a field integrators may send. */
interface SentColumns<K extends SentField> {
  /** Its own rule, on create and PATCH alike (a PATCH `null` is not checked); absent: the contract's schema says it all. */
  check?: (value: Sent<K>, ctx: FieldContext) => void;
  /** A rule that resolves a host: run after every other check. */
  checkHost?: (value: Sent<K>, ctx: FieldContext) => Promise<void>;
  /**
   * What create stores and PATCH sets for it; a `null` change removes the field (create: stores
   * nothing). Only a field PATCH cannot send may be applied elsewhere: PATCH would drop it unseen.
   */
  apply: K extends PatchField ? Apply<K> : Apply<K> | Elsewhere;
  portal: PortalRule;
}

/** One row of the table. */
export type FieldSpec<K extends SubscriptionField> = {
  /** The SubscriptionDoc field that keeps it. */
  doc: keyof SubscriptionDoc;
  shown: K extends ReadField ? Shown<K> : Elsewhere;
  delivery: readonly DeliveryUse[];
} & (K extends SentField ? SentColumns<K> : { apply: Elsewhere });

/** The table's type: a row for every contract field, and nothing else. */
export type FieldTable = { [K in SubscriptionField]: FieldSpec<K> };

/** 400 naming `url` unless the URL passes the rules (a scheme of some destination kind, no credentials, address); which kind is use-cases.ts's rule. */
async function assertCallbackUrl(url: string, ctx: FieldContext): Promise<void> {
  // Nothing connects to a pull consumer's label: only its shape has rules.
  if (isPullUrl(url)) {
    const problem = pullUrlProblem(url);
    if (problem) throw DomainError.invalid('Invalid Callback URL', `url ${problem}`, [{ field: ['url'], message: problem }]);
    return;
  }
  const check = await ctx.checkUrl(url, ALL_DESTINATION_SCHEMES);
  if (!check.ok) throw DomainError.invalid('Invalid Callback URL', `url ${check.reason}`, [{ field: ['url'], message: check.reason }]);
}

/** 400 naming the broker unless each further Kafka bootstrap broker passes the address rules of `url`. */
async function assertBrokerHosts(destination: SubscriptionDestination, ctx: FieldContext): Promise<void> {
  if (destination.type !== 'kafka') return;
  for (const [i, broker] of (destination.brokers ?? []).entries()) {
    const check = await ctx.checkUrl(`kafka://${broker}`, ['kafka']);
    if (!check.ok) throw DomainError.invalid('Invalid Broker Address', `destination.brokers[${i}] ${check.reason}`, [{ field: ['destination', 'brokers', i], message: check.reason }]);
  }
}

/** 403 unless the key may receive every event type it subscribes to: its data must not reach a key that could not read it. */
function assertEventScopes(events: readonly string[], ctx: FieldContext): void {
  const errors = events.flatMap((type, i) => {
    const missing = missingScopes(ctx.principal.scopes, ctx.eventScopes.get(type) ?? []);
    return missing.length ? [{ field: ['events', i], message: `${type} needs the scope ${missing.join(', ')}` }] : [];
  });
  if (errors.length) throw DomainError.forbidden(`This API key may not subscribe to ${errors.map((e) => e.message).join('; ')}`, errors);
}

/** 422 naming the place unless `filter` is a valid, bounded filter. */
function assertFilter(filter: Record<string, unknown>): void {
  const err = validateFilter(filter);
  if (err) throw DomainError.unprocessable(`${fieldName(err.field)} ${err.message}`, [err]);
}

/** 422 naming the field unless `rateLimit` is a whole number of deliveries per second within the bounds. */
function assertRateLimit(rateLimit: number): void {
  if (Number.isInteger(rateLimit) && rateLimit >= MIN_RATE_LIMIT && rateLimit <= MAX_RATE_LIMIT) return;
  const message = `must be a whole number of deliveries per second from ${MIN_RATE_LIMIT} to ${MAX_RATE_LIMIT}`;
  throw DomainError.unprocessable(`rate_limit ${message}`, [{ field: ['rate_limit'], message }]);
}

/** 422 naming the field unless `drainRate` is a whole number of deliveries per second within the contract's bounds. */
function assertDrainRate(drainRate: number): void {
  if (Number.isInteger(drainRate) && drainRate >= 1 && drainRate <= MAX_DRAIN_RATE) return;
  const message = `must be a whole number of deliveries per second from 1 to ${MAX_DRAIN_RATE}`;
  throw DomainError.unprocessable(`drain_rate ${message}`, [{ field: ['drain_rate'], message }]);
}

/** 422 unless a caller-chosen HMAC secret is canonical and long enough. */
function assertSigningSecret(secret: string): void {
  const problem = signingSecretProblem(secret);
  if (problem) throw DomainError.unprocessable(`secret ${problem}`, [{ field: ['secret'], message: problem }]);
}

/**
 * The table. Typed over the contract's keys: a field added to a subscription schema without a
 * row here, or a row for a field the contract does not have, does not compile; so does a row
 * missing a column its field needs (a sent field's `apply` and `portal`, a shown field's `read`).
 * Rows are in the order reads show the fields; checks run in it too.
 */
export const subscriptionFields = {
  id: {
    doc: '_id',
    apply: { elsewhere: 'createSubscription: a new sub_ id' },
    shown: { as: 'plain', read: (d) => d._id },
    delivery: ['fan-out', 'attempt'],
  },
  url: {
    doc: 'url',
    checkHost: assertCallbackUrl,
    apply: (url) => ({ url }),
    shown: { as: 'plain', read: (d) => d.url },
    delivery: ['attempt'],
    portal: 'form',
  },
  events: {
    doc: 'events',
    check: assertEventScopes,
    apply: (events) => ({ events: [...events] }),
    shown: { as: 'plain', read: (d) => d.events },
    delivery: ['fan-out'],
    portal: 'form',
  },
  status: {
    doc: 'status',
    // Create makes it active; which moves PATCH may make is assertStatusMove's to say.
    apply: (status) => ({ status }),
    shown: { as: 'plain', read: (d) => d.status },
    delivery: ['fan-out', 'attempt'],
    portal: { settable: false, why: "the detail page's Pause and Resume buttons set it" },
  },
  version: {
    doc: 'version',
    // Create takes it from the path; every attempt renders with the version it reads, a pending delivery's next one too.
    apply: (version) => ({ version }),
    shown: { as: 'plain', read: (d) => d.version },
    delivery: ['attempt'],
    portal: 'form',
  },
  description: {
    doc: 'description',
    apply: (description) => ({ description }),
    shown: { as: 'plain', read: (d) => d.description },
    delivery: [],
    portal: 'form',
  },
  created_at: {
    doc: 'created_at',
    apply: { elsewhere: 'createSubscription: the time of creation' },
    shown: { as: 'plain', read: (d) => d.created_at.toISOString() },
    delivery: ['fan-out'],
  },
  updated_at: {
    doc: 'updated_at',
    apply: { elsewhere: 'createSubscription and updateSubscription: the time of the change' },
    shown: { as: 'plain', read: (d) => d.updated_at.toISOString() },
    delivery: [],
  },
  disabled_reason: {
    doc: 'disabled_reason',
    apply: { elsewhere: 'the worker disabling it (SubscriptionRepository.disable); re-enabling removes it (updateSubscription)' },
    shown: { as: 'plain', read: (d) => (d.status === 'disabled' && d.disabled_reason ? d.disabled_reason : undefined) },
    delivery: [],
  },
  max_in_flight: {
    doc: 'max_in_flight',
    apply: (max_in_flight) => ({ max_in_flight }),
    shown: { as: 'plain', read: (d) => d.max_in_flight },
    delivery: ['attempt'],
    portal: 'form',
  },
  rate_limit: {
    doc: 'rate_limit',
    check: assertRateLimit,
    // Each attempt reads it with the subscription: the next one of a pending delivery follows.
    apply: (rate_limit) => ({ rate_limit }),
    shown: { as: 'plain', read: (d) => d.rate_limit },
    delivery: ['attempt'],
    portal: 'form',
  },
  ordering: {
    doc: 'ordering',
    // Read into each event's fan-out snapshot (events emitted after a change follow it); each attempt reads it for the key header.
    apply: (ordering) => ({ ordering: ordering === 'per_key' ? 'per_key' : null }),
    shown: { as: 'plain', read: (d) => d.ordering ?? 'none' },
    delivery: ['fan-out', 'attempt'],
    portal: 'form',
  },
  headers: {
    doc: 'headers',
    check: assertHeaders,
    // The whole set is replaced (values are masked on read, so there is nothing to merge with); `{}` removes it.
    apply: (headers, ctx) => ({ headers: Object.keys(headers).length ? sealHeaders(ctx.secrets, ctx.id, headers) : null }),
    shown: { as: 'masked', read: (d) => (d.headers?.length ? maskHeaders(d.headers) : undefined) },
    delivery: ['attempt'],
    portal: 'form',
  },
  auth: {
    doc: 'auth',
    checkHost: (auth, ctx) => assertTokenUrl(auth, ctx.checkUrl),
    // Replaced whole (nothing secret is ever read back to merge with).
    apply: (auth, ctx) => ({ auth: auth && sealAuth(ctx.secrets, ctx.id, auth) }),
    shown: { as: 'masked', read: (d) => (d.auth ? viewAuth(d.auth) : undefined) },
    delivery: ['attempt'],
    portal: 'form',
  },
  destination: {
    doc: 'destination',
    checkHost: assertBrokerHosts,
    // Replaced whole (nothing secret is ever read back to merge with); `http` removes it.
    apply: (destination, ctx) => ({ destination: sealDestination(ctx.secrets, ctx.id, destination) }),
    shown: { as: 'masked', read: (d) => (d.destination ? viewDestination(d.destination) : undefined) },
    delivery: ['attempt'],
    portal: 'form',
  },
  drain_rate: {
    doc: 'drain_rate',
    check: assertDrainRate,
    // Read by the drain at each page: a change applies to what is still held.
    apply: (drain_rate) => ({ drain_rate }),
    shown: { as: 'plain', read: (d) => d.drain_rate },
    delivery: [],
    portal: { settable: false, why: 'set through the API; the detail page shows what a resume sends' },
  },
  held: {
    // `since` is paused_at: set by a pause (src/subscriptions/hold.ts), removed by a resume.
    doc: 'paused_at',
    apply: { elsewhere: 'updateSubscription sets and removes paused_at; the attempt activity holds deliveries (held_deliveries), the drain and the hold sweep end them' },
    // A count of another collection: getSubscription, listSubscriptions and updateSubscription add it when readsHeld says so.
    shown: { as: 'plain', read: () => undefined },
    delivery: ['fan-out', 'attempt'],
  },
  failing_since: {
    doc: 'failing_since',
    apply: { elsewhere: 'the worker: set by a failed attempt, removed by a delivered one or by re-enabling (updateSubscription)' },
    shown: { as: 'plain', read: (d) => d.failing_since?.toISOString() },
    delivery: ['streak'],
  },
  filter: {
    doc: 'filter',
    check: assertFilter,
    // Stored as JSON text: its keys (`$gte`, `data.total`) are not field names a document store accepts. `{}` removes it.
    apply: (filter) => ({ filter: Object.keys(filter).length ? JSON.stringify(filter) : null }),
    shown: { as: 'plain', read: (d) => (d.filter !== undefined ? (JSON.parse(d.filter) as EventFilter) : undefined) },
    delivery: ['fan-out'],
    portal: 'form',
  },
  signature: {
    doc: 'signature',
    apply: { elsewhere: 'createSubscription (newSigningKey); later rotate-secret with signature, a rotation' },
    shown: { as: 'plain', read: (d) => d.signature ?? 'hmac-sha256' },
    // The attempt signs with the stored keys, whose prefix says the scheme.
    delivery: [],
    portal: 'form',
  },
  public_key: {
    doc: 'public_key',
    apply: { elsewhere: 'createSubscription (newSigningKey) and rotate-secret: the new ed25519 key pair' },
    shown: { as: 'plain', read: (d) => (d.signature === 'ed25519' && d.public_key ? d.public_key : undefined) },
    delivery: [],
  },
  retry: {
    doc: 'retry',
    check: (retry) => void checkedRetry(retry),
    // The next attempt of a pending delivery is settled by it (the activity reads it with the subscription); null: the service's again.
    apply: (retry) => ({ retry: retry && checkedRetry(retry) }),
    shown: { as: 'plain', read: (d, defaults) => effectiveRetry(d.retry, defaults) },
    delivery: ['attempt'],
    portal: 'form',
  },
  secret: {
    doc: 'secrets',
    check: assertSigningSecret,
    apply: { elsewhere: 'createSubscription (newSigningKey, not with ed25519); later rotate-secret' },
    shown: { elsewhere: 'the creation response only, as what deliveries verify with (SubscriptionWithSecret)' },
    delivery: ['attempt'],
    portal: { settable: false, why: 'the service generates one; choosing it is for moving an existing receiver over, through the API' },
  },
} satisfies FieldTable;

/**
 * Document fields no contract field names, and why: with the table this covers every field of
 * SubscriptionDoc, so one added to the document alone does not compile either.
 */
export const internalDocFields: Record<Exclude<keyof SubscriptionDoc, (typeof subscriptionFields)[SubscriptionField]['doc']>, string> = {
  owner_id: "the owner of the key that made it: every read and change is scoped by it, and an event carrying an owner's data reaches that owner's subscriptions",
  all_owners: "made with an admin key: it gets every owner's events",
  draining_until: "set by a resume that left deliveries held: until then reads count them (`held`), after it they cost no count (src/subscriptions/hold.ts readsHeld)",
};

/** The rows as the runners below walk them: each row's functions take that row's own value, which the key picks. */
type AnyRow = {
  check?: (value: unknown, ctx: FieldContext) => void;
  checkHost?: (value: unknown, ctx: FieldContext) => Promise<void>;
  apply: ((value: unknown, ctx: FieldContext) => DocChange) | Elsewhere;
  shown: { as: 'plain' | 'masked'; read: (doc: SubscriptionDoc, retryDefaults: RetryOverride) => unknown } | Elsewhere;
};
const rows = Object.entries(subscriptionFields) as Array<[SubscriptionField, AnyRow]>;

/** The fields `input` carries, with their values (undefined ones left out; a PATCH `null` kept). */
function sent(input: SubscriptionCreate | SubscriptionUpdate): Array<[AnyRow, unknown]> {
  const values = input as Partial<Record<SubscriptionField, unknown>>;
  return rows.filter(([key]) => values[key] !== undefined).map(([key, row]) => [row, values[key]]);
}

/** Runs the own rule of every field `input` sends, in table order; host lookups are {@link checkHosts}'. */
export function checkFields(input: SubscriptionCreate | SubscriptionUpdate, ctx: FieldContext): void {
  for (const [row, value] of sent(input)) if (value !== null) row.check?.(value, ctx);
}

/** Runs the rules that resolve a host (url, an OAuth 2.0 token URL): after every cheaper check passed. */
export async function checkHosts(input: SubscriptionCreate | SubscriptionUpdate, ctx: FieldContext): Promise<void> {
  for (const [row, value] of sent(input)) if (value !== null) await row.checkHost?.(value, ctx);
}

/** What `input` writes to the document by the table; fields applied elsewhere are left to their rules. */
export function changesOf(input: SubscriptionCreate | SubscriptionUpdate, ctx: FieldContext): DocChange {
  const change: DocChange = {};
  for (const [row, value] of sent(input)) if (typeof row.apply === 'function') Object.assign(change, row.apply(value, ctx));
  return change;
}

/** A create's share of the document: what the table stores, removals dropped (there is nothing to remove). */
export function storedOnCreate(input: SubscriptionCreate, ctx: FieldContext): Pick<SubscriptionDoc, 'url' | 'events'> & Partial<SubscriptionDoc> {
  const stored = Object.fromEntries(Object.entries(changesOf(input, ctx)).filter(([, v]) => v !== null));
  // url and events are required by the contract, so their rows always store them.
  return stored as Pick<SubscriptionDoc, 'url' | 'events'> & Partial<SubscriptionDoc>;
}

/** A PATCH's update: the fields to set, and those a `null` removes. */
export function patchOf(input: SubscriptionUpdate, ctx: FieldContext): { set: Partial<SubscriptionDoc>; unset: Array<keyof SubscriptionDoc> } {
  const set: Partial<SubscriptionDoc> = {};
  const unset: Array<keyof SubscriptionDoc> = [];
  for (const [key, value] of Object.entries(changesOf(input, ctx)) as Array<[keyof SubscriptionDoc, unknown]>) {
    if (value === null) unset.push(key);
    else Object.assign(set, { [key]: value });
  }
  return { set, unset };
}

/** The API shape of a stored subscription, each field as its row shows it (no secrets); `retryDefaults` is the service's schedule. */
export function toSubscription(doc: SubscriptionDoc, retryDefaults: RetryOverride): Subscription {
  const shown: Record<string, unknown> = {};
  for (const [key, row] of rows) {
    if ('read' in row.shown) {
      const value = row.shown.read(doc, retryDefaults);
      if (value !== undefined) shown[key] = value;
    }
  }
  // Each row's read returns its field's contract type, and every required field has a row.
  return shown as Subscription;
}
