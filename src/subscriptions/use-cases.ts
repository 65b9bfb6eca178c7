import type { Principal } from '../auth/api-keys';
import { actsForAllOwners } from '../auth/ownership';
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
import type { SubscriptionDoc, SubscriptionRepository } from './repository';
import { checkFields, checkHosts, type FieldContext, patchOf, storedOnCreate, toSubscription } from './fields';
import { assertDestinationFields, assertUrlFitsDestination, destinationKind, hasBrokerCredentials } from './destination';
import { assertNoAuthorizationHeader } from './outgoing-auth';
import { assertSqsFits } from './sqs-queue';
import type { SecretBox } from './secret-box';
import { generateSigningKeyPair, generateSigningSecret } from './secrets';
import { assertMayChange } from './authority';
import type { RetryOverride } from '../../workflows/delivery-model';
import { drainingUntil, drainRate, pausedAtAfter, readsHeld } from './hold';

export interface SubscriptionDeps {
  subscriptions: SubscriptionRepository;
  /** Seals signing secrets before they are stored. */
  secrets: SecretBox;
  /** Checks a callback URL (scheme, credentials, private or metadata addresses). */
  checkUrl: (raw: string, schemes?: readonly string[]) => ReturnType<typeof checkCallbackUrl>;
  /** Scopes each event type needs from a subscribing key (the catalogue's `required_scopes`). */
  eventScopes: ReadonlyMap<string, readonly string[]>;
  /** The service's retry schedule (DELIVERY_RETRY_SCHEDULE, DELIVERY_MAX_ATTEMPTS), shown for subscriptions that set none. */
  retryDefaults: RetryOverride;
  /** Most subscriptions one owner may have (MAX_SUBSCRIPTIONS_PER_OWNER). */
  maxPerOwner: number;
  now?: () => Date;
  /** Counts what a paused subscription holds, for reads (absent: `held` is not shown). */
  held?: { count(subscriptionId: string): Promise<number>; oldestHeldAt(subscriptionId: string): Promise<Date | undefined> };
  /**
   * Starts a resumed subscription's drain (src/temporal/start-drain.ts). A start that fails is
   * left to the hold sweep, which starts a drain for every active subscription still holding.
   */
  startDrain?: (subscriptionId: string) => Promise<void>;
  /** Told of a drain start that failed (the sweep starts it later). */
  drainDeferred?: (subscriptionId: string, err: unknown) => void;
}

function notFound(id: string): DomainError {
  return DomainError.notFound(`No subscription ${id}`);
}

/** What the table's checks and writes use for one request of `principal` on subscription `id`. */
function fieldContext(deps: SubscriptionDeps, principal: Principal, id: string): FieldContext {
  return { principal, eventScopes: deps.eventScopes, checkUrl: deps.checkUrl, secrets: deps.secrets, id };
}

/** 422 for a caller-chosen secret on an ed25519 subscription: the service makes the key pair, and a private key sent over the API would defeat the point. */
function assertSchemeTakesSecret(input: SubscriptionCreate): void {
  if (input.signature !== 'ed25519' || input.secret === undefined) return;
  throw DomainError.unprocessable('secret cannot be set with signature ed25519: the service generates the key pair and returns the public key', [
    { field: ['secret'], message: 'not allowed with signature ed25519' },
  ]);
}

/**
 * 422 when the subscription would have both auth and a custom `Authorization` header (auth sets
 * it): what `input` sends, over what `current` has.
 */
function assertAuthOwnsAuthorization(input: SubscriptionCreate | SubscriptionUpdate, current?: SubscriptionDoc): void {
  const authAfter = input.auth === undefined ? current?.auth : (input.auth ?? undefined);
  if (!authAfter) return;
  const names = input.headers !== undefined ? Object.keys(input.headers) : (current?.headers ?? []).map((h) => h.name);
  assertNoAuthorizationHeader(names, input.headers !== undefined ? 'headers' : 'auth');
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
    ...(hasBrokerCredentials(current.destination) && input.destination === undefined ? [{ field: ['destination'], message: 'the subscription has broker credentials: send its destination again with the new url' }] : []),
  ];
  if (!errors.length) return;
  const fields = errors.map((e) => fieldName(e.field)).join(' and ');
  throw DomainError.unprocessable(`a new url must come with ${fields} again: stored credentials are never sent to a url they were not set for`, errors);
}

/** 422 unless the url and the destination kind after `input` fit each other (see assertUrlFitsDestination), naming what it sent. */
function assertDestinationFits(input: SubscriptionCreate | SubscriptionUpdate, current?: SubscriptionDoc): void {
  if (input.destination) assertDestinationFields(input.destination);
  const url = input.url ?? current?.url;
  if (url === undefined) return;
  const kind = input.destination?.type ?? destinationKind(current?.destination);
  const hasAuth = input.auth === undefined ? current?.auth !== undefined : input.auth !== null;
  assertUrlFitsDestination(url, kind, input.url !== undefined || input.destination === undefined ? 'url' : 'destination', hasAuth);
  if (kind === 'pull') assertNothingPullIgnores(input, current);
  if (kind === 'sqs') {
    const region = input.destination?.type === 'sqs' ? input.destination.region : current?.destination?.type === 'sqs' ? current.destination.region : undefined;
    const headerNames = input.headers === undefined ? (current?.headers ?? []).map((h) => h.name) : Object.keys(input.headers ?? {});
    assertSqsFits(url, region, headerNames);
  }
}

/** 422 naming each of `headers`, `max_in_flight`, `rate_limit` a pull subscription would have after `input`: nothing is sent, so they would mean nothing. */
function assertNothingPullIgnores(input: SubscriptionCreate | SubscriptionUpdate, current?: SubscriptionDoc): void {
  const set = {
    headers: input.headers === undefined ? (current?.headers?.length ?? 0) > 0 : Object.keys(input.headers).length > 0,
    max_in_flight: input.max_in_flight === undefined ? current?.max_in_flight !== undefined : input.max_in_flight !== null,
    rate_limit: input.rate_limit === undefined ? current?.rate_limit !== undefined : input.rate_limit !== null,
  };
  const errors = Object.entries(set).flatMap(([field, on]) => (on ? [{ field: [field], message: `${field} is for what the service sends; a pull consumer reads at its own pace and authenticates with its own key` }] : []));
  if (errors.length) throw DomainError.unprocessable(`a pull destination takes no ${errors.map((e) => e.field[0]).join(', ')}`, errors);
}

/** 409 for pausing a disabled subscription: the owner moves active ⇄ paused and re-enables with active. */
function assertStatusMove(current: SubscriptionDoc, input: SubscriptionUpdate): void {
  if (input.status !== 'paused' || current.status !== 'disabled') return;
  throw DomainError.conflict('Invalid Status Transition', 'A disabled subscription cannot be paused; set status to active to re-enable it first.', [
    { field: ['status'], message: 'disabled → paused is not allowed' },
  ]);
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
  const id = newId('sub');
  const ctx = fieldContext(deps, principal, id);
  assertSchemeTakesSecret(input);
  checkFields(input, ctx);
  assertAuthOwnsAuthorization(input);
  assertDestinationFits(input);
  await checkHosts(input, ctx);
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
  const key = newSigningKey(input.signature ?? 'hmac-sha256', input.secret);
  const doc: SubscriptionDoc = {
    _id: id,
    owner_id: principal.ownerId,
    ...(actsForAllOwners(principal) ? { all_owners: true as const } : {}),
    status: 'active',
    version,
    ...storedOnCreate(input, ctx),
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
  // Counted only for those readsHeld names: a page of active subscriptions costs no more reads.
  const now = deps.now?.() ?? new Date();
  return toPage(await Promise.all(rows.map((r) => withHeld(deps, r, toSubscription(r, deps.retryDefaults), now))), limit);
}

export async function getSubscription(deps: SubscriptionDeps, principal: Principal, id: string): Promise<Subscription> {
  const doc = await deps.subscriptions.findOwned(principal.ownerId, id);
  if (!doc) throw notFound(id);
  return withHeld(deps, doc, toSubscription(doc, deps.retryDefaults), deps.now?.() ?? new Date());
}

/**
 * The subscription with what it holds: `held` while it is paused and holding, or while its
 * resume's drain runs and anything is still to be sent; one count by subscription id, only when
 * readsHeld says so (src/subscriptions/hold.ts), or none when `counted` gives it.
 */
async function withHeld(deps: SubscriptionDeps, doc: SubscriptionDoc, shown: Subscription, now: Date, counted?: number): Promise<Subscription> {
  const holding = doc.status === 'paused' && doc.paused_at !== undefined;
  if (!deps.held || (counted === undefined && !readsHeld(doc, now))) return shown;
  const count = counted ?? (await deps.held.count(doc._id));
  if (!holding && count === 0) return shown;
  return { ...shown, held: { count, ...(holding ? { since: doc.paused_at!.toISOString() } : {}) } };
}

/**
 * Changes what `input` sends, each field as its row in fields.ts applies it. The owner moves
 * active ⇄ paused and re-enables a disabled subscription with `active`; pausing a disabled one is a 409.
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
  const ctx = fieldContext(deps, principal, id);
  checkFields(input, ctx);
  assertCredentialsFollow(current, input);
  assertAuthOwnsAuthorization(input, current);
  assertDestinationFits(input, current);
  assertStatusMove(current, input);
  await checkHosts(input, ctx);
  const { set, unset } = patchOf(input, ctx);
  // Always later than the time read, so a second change within the same millisecond is still seen as a change.
  const now = deps.now?.() ?? new Date();
  set.updated_at = now > current.updated_at ? now : new Date(current.updated_at.getTime() + 1);
  // Re-enabling starts a fresh streak: one more failure must not disable it again at once.
  if (input.status === 'active' && current.status === 'disabled') unset.push('disabled_reason', 'failing_since');
  // A pause holds from now on; a resume ends the hold (src/subscriptions/hold.ts).
  let resumedHolding: number | undefined;
  if (input.status !== undefined) {
    const pausing = input.status === 'paused' && current.status !== 'paused';
    const oldest = pausing && deps.held ? await deps.held.oldestHeldAt(id) : undefined;
    const pausedAt = pausedAtAfter(current, input.status, now, oldest);
    if (pausedAt.set) set.paused_at = pausedAt.set;
    if (pausedAt.unset) unset.push('paused_at');
    // A resume of a pause that held: counted before the write (while paused), for reads during the drain.
    if (input.status === 'active' && current.status === 'paused' && current.paused_at !== undefined && deps.held) {
      resumedHolding = await deps.held.count(id);
      if (resumedHolding > 0) set.draining_until = drainingUntil(resumedHolding, drainRate({ ...current, ...set }), now);
      else if (current.draining_until !== undefined) unset.push('draining_until');
    }
  }
  // Conditional on the state checked above: a concurrent PATCH {headers} and PATCH {url} must not combine into credentials following a new URL.
  const updated = await deps.subscriptions.updateOwned(principal.ownerId, id, set, unset, current.updated_at);
  if (!updated) throw (await deps.subscriptions.findOwned(principal.ownerId, id)) ? changedConcurrently(id) : notFound(id);
  const shown = await withHeld(deps, updated, toSubscription(updated, deps.retryDefaults), now, resumedHolding);
  // A resume with nothing held starts nothing; a delivery held as it resumed is the sweep's to drain.
  if ((resumedHolding ?? 0) > 0) await startDrain(deps, id);
  return shown;
}

/** Starts the drain of what a resumed subscription held; a failed start is the hold sweep's to make. */
async function startDrain(deps: SubscriptionDeps, id: string): Promise<void> {
  if (!deps.startDrain) return;
  try {
    await deps.startDrain(id);
  } catch (err) {
    deps.drainDeferred?.(id, err);
  }
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
