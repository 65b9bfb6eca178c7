import type { Principal } from '../auth/api-keys';
import { actsForAllOwners } from '../auth/ownership';
import { missingScopes } from '../auth/scopes';
import { newId } from '../db/ids';
import { decodeCursor, toPage } from '../contract/pagination';
import { DomainError } from '../errors/domain-error';
import { fieldName } from '../errors/field-issue';
import type {
  RotatedSecret,
  SignatureScheme,
  Subscription,
  SubscriptionCreate,
  SubscriptionList,
  SubscriptionUpdate,
  SubscriptionVersion,
  SubscriptionWithSecret,
  QueryOf,
} from '../contract/types';
import type { checkCallbackUrl } from '../webhooks/callback-url';
import { type SubscriptionDoc, type SubscriptionRepository, toSubscription } from './repository';
import { assertHeaders, sealHeaders } from './custom-headers';
import { assertNoAuthorizationHeader, assertTokenUrl, sealAuth } from './outgoing-auth';
import type { SecretBox } from './secret-box';
import { generateSigningKeyPair, generateSigningSecret, signingSecretProblem } from './secrets';
import { validateFilter } from './filter';
import { assertMayChange } from './authority';
import { checkedRetry } from './retry-schedule';
import { MAX_RATE_LIMIT, MIN_RATE_LIMIT } from '../deliveries/delivery-rate';
import type { RetryOverride } from '../../workflows/delivery-model';

export interface SubscriptionDeps {
  subscriptions: SubscriptionRepository;
  /** Seals signing secrets before they are stored. */
  secrets: SecretBox;
  /** Checks a callback URL (scheme, credentials, private or metadata addresses). */
  checkUrl: (raw: string) => ReturnType<typeof checkCallbackUrl>;
  /** Scopes each event type needs from a subscribing key (the catalogue's `required_scopes`). */
  eventScopes: ReadonlyMap<string, readonly string[]>;
  /** The service's retry schedule (DELIVERY_RETRY_SCHEDULE, DELIVERY_MAX_ATTEMPTS), shown for subscriptions that set none. */
  retryDefaults: RetryOverride;
  /** Most subscriptions one owner may have (MAX_SUBSCRIPTIONS_PER_OWNER). */
  maxPerOwner: number;
  now?: () => Date;
}

function notFound(id: string): DomainError {
  return DomainError.notFound(`No subscription ${id}`);
}

async function assertCallbackUrl(deps: SubscriptionDeps, url: string): Promise<void> {
  const check = await deps.checkUrl(url);
  if (!check.ok) {
    throw DomainError.invalid('Invalid Callback URL', `url ${check.reason}`, [{ field: ['url'], message: check.reason }]);
  }
}

/** 422 naming the place unless `filter` is a valid, bounded filter; `{}` means none. */
function checkedFilter(filter: Record<string, unknown>): string | undefined {
  const err = validateFilter(filter);
  if (err) throw DomainError.unprocessable(`${fieldName(err.field)} ${err.message}`, [err]);
  return Object.keys(filter).length ? JSON.stringify(filter) : undefined;
}

/** 422 naming the field unless `rateLimit` is a whole number of deliveries per second within the bounds. */
function assertRateLimit(rateLimit: number): void {
  if (!Number.isInteger(rateLimit) || rateLimit < MIN_RATE_LIMIT || rateLimit > MAX_RATE_LIMIT) {
    const message = `must be a whole number of deliveries per second from ${MIN_RATE_LIMIT} to ${MAX_RATE_LIMIT}`;
    throw DomainError.unprocessable(`rate_limit ${message}`, [{ field: ['rate_limit'], message }]);
  }
}

/** 403 unless the key may receive every event type it subscribes to: its data must not reach a key that could not read it. */
function assertEventScopes(deps: SubscriptionDeps, principal: Principal, events: readonly string[]): void {
  const errors = events.flatMap((type, i) => {
    const missing = missingScopes(principal.scopes, deps.eventScopes.get(type) ?? []);
    return missing.length ? [{ field: ['events', i], message: `${type} needs the scope ${missing.join(', ')}` }] : [];
  });
  if (errors.length) {
    throw DomainError.forbidden(`This API key may not subscribe to ${errors.map((e) => e.message).join('; ')}`, errors);
  }
}

/**
 * 422 naming what to re-supply when a new `url` would receive sealed credentials (custom header
 * values, auth) that were set for the old one: they go only where their owner sent them.
 */
function assertCredentialsFollow(current: SubscriptionDoc, input: SubscriptionUpdate): void {
  if (input.url === undefined || input.url === current.url) return;
  const errors = [
    ...(current.headers?.length && input.headers === undefined ? [{ field: ['headers'], message: 'the subscription has custom headers: send them again (or {} to drop them) with the new url' }] : []),
    ...(current.auth && input.auth === undefined ? [{ field: ['auth'], message: 'the subscription has auth: send it again (or null to drop it) with the new url' }] : []),
  ];
  if (!errors.length) return;
  const fields = errors.map((e) => fieldName(e.field)).join(' and ');
  throw DomainError.unprocessable(`a new url must come with ${fields} again: stored credentials are never sent to a url they were not set for`, errors);
}

/**
 * A new signing key of `scheme`: what is stored (sealed by the caller), what the subscriber
 * verifies with, and the document fields that say which scheme signs.
 */
function newSigningKey(scheme: SignatureScheme, provided?: string): { secret: string; verifyWith: string; fields: Pick<SubscriptionDoc, 'signature' | 'public_key'> } {
  if (scheme === 'ed25519') {
    const pair = generateSigningKeyPair();
    return { secret: pair.privateKey, verifyWith: pair.publicKey, fields: { signature: 'ed25519', public_key: pair.publicKey } };
  }
  const secret = provided ?? generateSigningSecret();
  return { secret, verifyWith: secret, fields: {} };
}

/** Creates a subscription under the envelope version of the path it was called on. */
export async function createSubscription(
  deps: SubscriptionDeps,
  principal: Principal,
  input: SubscriptionCreate,
  version: SubscriptionVersion,
): Promise<SubscriptionWithSecret> {
  assertEventScopes(deps, principal, input.events);
  if (input.headers !== undefined) assertHeaders(input.headers);
  const filter = input.filter !== undefined ? checkedFilter(input.filter) : undefined;
  const scheme = input.signature ?? 'hmac-sha256';
  if (scheme === 'ed25519' && input.secret !== undefined) {
    // The service makes the key pair: a private key sent over the API would defeat the point.
    throw DomainError.unprocessable('secret cannot be set with signature ed25519: the service generates the key pair and returns the public key', [
      { field: ['secret'], message: 'not allowed with signature ed25519' },
    ]);
  }
  const secretProblem = input.secret !== undefined && scheme !== 'ed25519' ? signingSecretProblem(input.secret) : undefined;
  if (secretProblem) throw DomainError.unprocessable(`secret ${secretProblem}`, [{ field: ['secret'], message: secretProblem }]);
  if (input.auth !== undefined) assertNoAuthorizationHeader(Object.keys(input.headers ?? {}), 'headers');
  const retry = input.retry !== undefined ? checkedRetry(input.retry) : undefined;
  if (input.rate_limit !== undefined) assertRateLimit(input.rate_limit);
  await assertCallbackUrl(deps, input.url);
  if (input.auth !== undefined) await assertTokenUrl(input.auth, deps.checkUrl);
  // Counted, then inserted: concurrent creates of one owner can each pass, so the bound may be overshot by their number.
  const owned = await deps.subscriptions.countOwned(principal.ownerId);
  if (owned >= deps.maxPerOwner) {
    throw DomainError.conflict(
      'Subscription Limit Reached',
      `An owner may have at most ${deps.maxPerOwner} subscriptions and this one has ${owned}; delete one to add another.`,
      [{ field: [], message: `at most ${deps.maxPerOwner} subscriptions per owner` }],
    );
  }
  const now = deps.now?.() ?? new Date();
  const key = newSigningKey(scheme, input.secret);
  const id = newId('sub');
  const doc: SubscriptionDoc = {
    _id: id,
    owner_id: principal.ownerId,
    ...(actsForAllOwners(principal) ? { all_owners: true as const } : {}),
    url: input.url,
    events: [...input.events],
    status: 'active',
    version,
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.max_in_flight !== undefined ? { max_in_flight: input.max_in_flight } : {}),
    ...(input.rate_limit !== undefined ? { rate_limit: input.rate_limit } : {}),
    ...(input.headers !== undefined && Object.keys(input.headers).length ? { headers: sealHeaders(deps.secrets, id, input.headers) } : {}),
    ...(filter !== undefined ? { filter } : {}),
    ...(retry !== undefined ? { retry } : {}),
    ...(input.auth !== undefined ? { auth: sealAuth(deps.secrets, id, input.auth) } : {}),
    secrets: [{ secret: deps.secrets.seal(key.secret, id), created_at: now }],
    ...key.fields,
    created_at: now,
    updated_at: now,
  };
  await deps.subscriptions.insert(doc);
  return { ...toSubscription(doc, deps.retryDefaults), secret: key.verifyWith };
}

/** One page of the caller's subscriptions, newest first. */
export async function listSubscriptions(
  deps: SubscriptionDeps,
  principal: Principal,
  query: QueryOf<'listSubscriptions'>,
): Promise<SubscriptionList> {
  const limit = query.limit ?? 20;
  const rows = await deps.subscriptions.listOwned(principal.ownerId, limit + 1, decodeCursor(query.cursor));
  return toPage(rows.map((r) => toSubscription(r, deps.retryDefaults)), limit);
}

export async function getSubscription(deps: SubscriptionDeps, principal: Principal, id: string): Promise<Subscription> {
  const doc = await deps.subscriptions.findOwned(principal.ownerId, id);
  if (!doc) throw notFound(id);
  return toSubscription(doc, deps.retryDefaults);
}

/**
 * Changes url, events, description or status. The owner moves active ⇄ paused and
 * re-enables a disabled subscription with `active`; pausing a disabled one is a 409.
 */
export async function updateSubscription(
  deps: SubscriptionDeps,
  principal: Principal,
  id: string,
  input: SubscriptionUpdate,
): Promise<Subscription> {
  const current = await deps.subscriptions.findOwned(principal.ownerId, id);
  if (!current) throw notFound(id);
  assertMayChange(principal, current, deps.eventScopes);
  if (input.events !== undefined) assertEventScopes(deps, principal, input.events);
  assertCredentialsFollow(current, input);
  if (input.headers !== undefined) assertHeaders(input.headers);
  const filter = input.filter !== undefined ? checkedFilter(input.filter) : undefined;
  const retry = input.retry ? checkedRetry(input.retry) : undefined;
  if (input.rate_limit !== undefined && input.rate_limit !== null) assertRateLimit(input.rate_limit);
  if (input.url !== undefined) await assertCallbackUrl(deps, input.url);
  // The auth and headers the subscription will have: one custom Authorization header and auth never meet.
  const authAfter = input.auth === undefined ? current.auth : (input.auth ?? undefined);
  if (authAfter) {
    const names = input.headers !== undefined ? Object.keys(input.headers) : (current.headers ?? []).map((h) => h.name);
    assertNoAuthorizationHeader(names, input.headers !== undefined ? 'headers' : 'auth');
  }
  if (input.auth) await assertTokenUrl(input.auth, deps.checkUrl);
  if (input.status === 'paused' && current.status === 'disabled') {
    throw DomainError.conflict(
      'Invalid Status Transition',
      'A disabled subscription cannot be paused; set status to active to re-enable it first.',
      [{ field: ['status'], message: 'disabled → paused is not allowed' }],
    );
  }
  // Always later than the time read, so a second change within the same millisecond is still seen as a change.
  const now = deps.now?.() ?? new Date();
  const set: Partial<SubscriptionDoc> = { updated_at: now > current.updated_at ? now : new Date(current.updated_at.getTime() + 1) };
  if (input.url !== undefined) set.url = input.url;
  if (input.events !== undefined) set.events = [...input.events];
  if (input.description !== undefined) set.description = input.description;
  if (input.status !== undefined) set.status = input.status;
  if (input.max_in_flight !== undefined) set.max_in_flight = input.max_in_flight;
  // Every attempt renders with the subscription as it is then: a pending delivery's next one follows.
  if (input.version !== undefined) set.version = input.version;
  // Re-enabling starts a fresh streak: one more failure must not disable it again at once.
  const unset: Array<keyof SubscriptionDoc> = input.status === 'active' && current.status === 'disabled' ? ['disabled_reason', 'failing_since'] : [];
  // The whole set is replaced (values are masked on read, so there is nothing to merge with); `{}` removes it.
  if (input.headers !== undefined) {
    if (Object.keys(input.headers).length) set.headers = sealHeaders(deps.secrets, id, input.headers);
    else unset.push('headers');
  }
  if (filter !== undefined) set.filter = filter;
  else if (input.filter !== undefined) unset.push('filter');
  // Replaced whole (nothing secret is ever read back to merge with); `null` removes it.
  if (input.auth) set.auth = sealAuth(deps.secrets, id, input.auth);
  else if (input.auth === null) unset.push('auth');
  // The next attempt of a pending delivery is settled by it (the activity reads it with the subscription); null: the service's again.
  if (retry !== undefined) set.retry = retry;
  else if (input.retry === null) unset.push('retry');
  // Each attempt reads it with the subscription: the next one of a pending delivery follows; null removes the limit.
  if (typeof input.rate_limit === 'number') set.rate_limit = input.rate_limit;
  else if (input.rate_limit === null) unset.push('rate_limit');
  // Conditional on the state checked above: a concurrent PATCH {headers} and PATCH {url} must not combine into credentials following a new URL.
  const updated = await deps.subscriptions.updateOwned(principal.ownerId, id, set, unset, current.updated_at);
  if (!updated) throw (await deps.subscriptions.findOwned(principal.ownerId, id)) ? changedConcurrently(id) : notFound(id);
  return toSubscription(updated, deps.retryDefaults);
}

/** 409 for a subscription changed by another request between this one's read and its write; sending it again is safe. */
function changedConcurrently(id: string): DomainError {
  return DomainError.conflict(
    'Subscription Changed Concurrently',
    `Subscription ${id} was changed by another request while this one was checked against it; nothing was done. Read it again and send the change again.`,
  );
}

/** Deletes the caller's subscription; like any change, only by a caller that could have created it. */
export async function deleteSubscription(deps: SubscriptionDeps, principal: Principal, id: string): Promise<void> {
  const current = await deps.subscriptions.findOwned(principal.ownerId, id);
  if (!current) throw notFound(id);
  assertMayChange(principal, current, deps.eventScopes);
  if (!(await deps.subscriptions.deleteOwned(principal.ownerId, id))) throw notFound(id);
}

/**
 * Issues a new signing key: of `scheme`, or of the subscription's current scheme. The previous
 * one keeps signing (as a second signature, of its own scheme) for `expirePreviousInSeconds`, so
 * receivers can switch without dropping deliveries; switching schemes is a rotation like any other.
 */
export async function rotateSecret(
  deps: SubscriptionDeps,
  principal: Principal,
  id: string,
  expirePreviousInSeconds = 86_400,
  scheme?: SignatureScheme,
): Promise<RotatedSecret> {
  const current = await deps.subscriptions.findOwned(principal.ownerId, id);
  if (!current) throw notFound(id);
  assertMayChange(principal, current, deps.eventScopes);
  const now = deps.now?.() ?? new Date();
  const expiresAt = new Date(now.getTime() + expirePreviousInSeconds * 1000);
  const previous = current.secrets[0];
  const next = scheme ?? current.signature ?? 'hmac-sha256';
  const key = newSigningKey(next);
  // Older secrets still inside their own overlap are dropped: one previous secret at a time.
  const secrets = [{ secret: deps.secrets.seal(key.secret, id), created_at: now }, ...(previous ? [{ ...previous, expires_at: expiresAt }] : [])];
  const unset: Array<keyof SubscriptionDoc> = next !== 'ed25519' && current.signature ? ['signature', 'public_key'] : [];
  const updated = await deps.subscriptions.updateOwned(principal.ownerId, id, { secrets, ...key.fields, updated_at: now }, unset);
  if (!updated) throw notFound(id);
  return { secret: key.verifyWith, signature: next, previous_secret_expires_at: expiresAt.toISOString() };
}
