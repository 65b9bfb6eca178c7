import type { StoredDestination } from './destination';
import type { Collection, Db, Filter, UpdateFilter } from 'mongodb';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import type { StoredHeader } from './custom-headers';
import type { StoredAuth } from './outgoing-auth';
import type { EventType, SubscriptionStatus, SubscriptionVersion } from '../contract/types';
import type { StoredRetry } from './retry-schedule';
import { type HoldState, takesEvents } from './hold';

/** One signing secret; the previous one keeps signing until `expires_at` after a rotation. */
export interface StoredSecret {
  secret: string;
  created_at: Date;
  expires_at?: Date;
}

/** The stored fields that hold sealed credentials besides the signing secrets. */
type Credentials = Pick<SubscriptionDoc, 'headers' | 'auth' | 'destination'>;

/** How a subscription is stored; fields.ts says which contract field each one keeps. Secrets never leave through `toSubscription`. */
export interface SubscriptionDoc {
  _id: string;
  owner_id: string;
  url: string;
  events: EventType[];
  status: SubscriptionStatus;
  version: SubscriptionVersion;
  description?: string;
  /** Newest first: `whsec_` HMAC secrets, or `whsk_` Ed25519 private keys (sealed alike). */
  secrets: StoredSecret[];
  /** `ed25519` when the newest key is an Ed25519 one (absent: HMAC-SHA256, as before the field existed). */
  signature?: 'ed25519';
  /** The newest key's `whpk_` public key, when `signature` is `ed25519`; public, so not sealed. */
  public_key?: string;
  created_at: Date;
  updated_at: Date;
  disabled_reason?: string;
  /** Made with an admin key: gets every owner's events, not only its owner's. */
  all_owners?: true;
  /** Most POSTs a worker sends to it at once (absent: the service default). */
  max_in_flight?: number;
  /** Custom request headers, values sealed (absent: none). */
  headers?: StoredHeader[];
  /** How deliveries authenticate to the receiver, credentials sealed (absent: not at all). */
  auth?: StoredAuth;
  /** A broker its deliveries are published to, credentials sealed (absent: POSTs to `url`). */
  destination?: StoredDestination;
  /** Start of the current streak of failed attempts; unset by a delivered one. */
  failing_since?: Date;
  /**
   * Which events it gets (src/subscriptions/filter.ts) as JSON text: its keys (`$gte`,
   * `data.total`) are not field names a document store accepts. Absent: every event of its types.
   */
  filter?: string;
  /** Its own retry schedule (absent: the service's). */
  retry?: StoredRetry;
  /** Most deliveries per second to it, over every worker (absent: no limit). */
  rate_limit?: number;
  /** When it was last paused: a pause with it holds deliveries (src/subscriptions/hold.ts); absent: not paused, or paused before holds existed, or its hold expired. */
  paused_at?: Date;
  /** Set by a resume that left deliveries held: reads count them until then (src/subscriptions/hold.ts readsHeld). */
  draining_until?: Date;
  /** Deliveries per second a resume sends its held ones at (absent: its rate_limit, else the service's drain rate). */
  drain_rate?: number;
  /** `per_key`: the events of one ordering key reach it in emission order (absent: `none`). */
  ordering?: 'per_key';
}

/** A fan-out candidate: its id, and its filter when it has one. */
export interface FanoutCandidate {
  _id: string;
  /** JSON text, as stored. */
  filter?: string;
  /** `per_key` when it wants each key's events in emission order. */
  ordering?: 'per_key';
}

/** A fan-out candidate with its creation time: an event goes only to those created by its time. */
export interface FanoutMember extends FanoutCandidate {
  created_at: Date;
}

/** A fan-out read's document as before status was read with it: only the projected fields. */
function withoutHoldState<T extends object>(doc: T & HoldState): Omit<T, keyof HoldState> {
  const out: Partial<T & HoldState> = { ...doc };
  delete out.status;
  delete out.paused_at;
  return out as Omit<T, keyof HoldState>;
}

/** Subscriptions, always scoped to their owner. */
export class SubscriptionRepository {
  static readonly indexes: readonly IndexSpec[] = [
    { collection: 'subscriptions', name: 'owner_newest', key: { owner_id: 1, _id: -1 } },
    { collection: 'subscriptions', name: 'fanout', key: { events: 1, status: 1 } },
    // An owner's event reads only that owner's and the all-owner subscribers, not every owner's.
    { collection: 'subscriptions', name: 'owner_fanout', key: { owner_id: 1, events: 1, status: 1 } },
    { collection: 'subscriptions', name: 'all_owners_fanout', key: { all_owners: 1, events: 1, status: 1 } },
    // Who is still on a deprecated envelope version (the admin list, the daily count).
    { collection: 'subscriptions', name: 'version_status_newest', key: { version: 1, status: 1, _id: -1 } },
  ];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'subscriptions', method: 'SubscriptionRepository.insert', equality: ['_id'], index: '_id_' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.findOwned', equality: ['_id', 'owner_id'], index: '_id_' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.countOwned', equality: ['owner_id'], index: 'owner_newest' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.listOwned', equality: ['owner_id'], range: ['_id'], sort: { _id: -1 }, index: 'owner_newest' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.updateOwned', equality: ['_id', 'owner_id', 'updated_at'], index: '_id_' },
    {
      collection: 'subscriptions',
      method: 'SubscriptionRepository.activeSubscribers (no data owner)',
      equality: ['events'],
      range: ['created_at'],
      index: 'fanout',
    },
    {
      collection: 'subscriptions',
      method: "SubscriptionRepository.activeSubscribers (the data owner's)",
      equality: ['owner_id', 'events'],
      range: ['created_at'],
      index: 'owner_fanout',
    },
    {
      collection: 'subscriptions',
      method: 'SubscriptionRepository.activeSubscribers (every owner\'s)',
      equality: ['all_owners', 'events'],
      range: ['created_at'],
      index: 'all_owners_fanout',
    },
    { collection: 'subscriptions', method: 'SubscriptionRepository.currentSubscribers (no data owner)', equality: ['events'], index: 'fanout' },
    { collection: 'subscriptions', method: "SubscriptionRepository.currentSubscribers (the data owner's)", equality: ['owner_id', 'events'], index: 'owner_fanout' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.currentSubscribers (every owner\'s)', equality: ['all_owners', 'events'], index: 'all_owners_fanout' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.deleteOwned', equality: ['_id', 'owner_id'], index: '_id_' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.ownedIds', equality: ['_id', 'owner_id'], index: '_id_' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.ownedAuthority', equality: ['_id', 'owner_id'], index: '_id_' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.findForDelivery', equality: ['_id'], index: '_id_' },
    { collection: 'subscriptions', method: "SubscriptionRepository.findRoundForDelivery (the owner's)", equality: ['owner_id', 'events'], index: 'owner_fanout' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.disable', equality: ['_id'], range: ['status'], index: '_id_' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.clearFailing', equality: ['_id'], range: ['failing_since'], index: '_id_' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.markFailing', equality: ['_id'], range: ['failing_since'], index: '_id_' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.failingSince', equality: ['_id', 'status'], range: ['failing_since'], index: '_id_' },
    {
      collection: 'subscriptions',
      method: 'SubscriptionRepository.listActiveOnVersion',
      equality: ['version', 'status'],
      range: ['_id'],
      sort: { _id: -1 },
      index: 'version_status_newest',
    },
    { collection: 'subscriptions', method: 'SubscriptionRepository.countActiveOnVersion', equality: ['version', 'status'], index: 'version_status_newest' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.allSecrets', equality: [], index: '_id_' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.replaceSecrets', equality: ['_id', 'secrets'], index: '_id_' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.allCredentials', equality: [], index: '_id_' },
    { collection: 'subscriptions', method: 'SubscriptionRepository.replaceCredentials', equality: ['_id', 'headers', 'auth', 'destination'], index: '_id_' },
  ];

  readonly #collection: Collection<SubscriptionDoc>;
  readonly #changed: () => void;

  /** @param options `onFanoutChange` runs after each write that may change who gets an event (insert, update, delete, disable), failed ones too */
  constructor(db: Db, options: { onFanoutChange?: () => void } = {}) {
    this.#collection = db.collection<SubscriptionDoc>('subscriptions');
    this.#changed = options.onFanoutChange ?? (() => undefined);
  }

  async insert(doc: SubscriptionDoc): Promise<void> {
    await this.#collection.insertOne(doc).finally(this.#changed);
  }

  /** The owner's subscription, or undefined (another owner's looks exactly like a missing one). */
  async findOwned(ownerId: string, id: string): Promise<SubscriptionDoc | undefined> {
    return (await this.#collection.findOne({ _id: id, owner_id: ownerId })) ?? undefined;
  }

  /** How many subscriptions the owner has. */
  countOwned(ownerId: string): Promise<number> {
    return this.#collection.countDocuments({ owner_id: ownerId });
  }

  /** Newest first; `after` is the last id of the previous page. */
  async listOwned(ownerId: string, limit: number, after?: string): Promise<SubscriptionDoc[]> {
    const filter: Filter<SubscriptionDoc> = { owner_id: ownerId, ...(after ? { _id: { $lt: after } } : {}) };
    return this.#collection.find(filter).sort({ _id: -1 }).limit(limit).toArray();
  }

  /**
   * Applies `set` to the owner's subscription and returns the result, or undefined if absent or,
   * with `unchangedSince`, if its `updated_at` is no longer that (changed since it was read).
   */
  async updateOwned(
    ownerId: string,
    id: string,
    set: Partial<SubscriptionDoc>,
    unset: Array<keyof SubscriptionDoc> = [],
    unchangedSince?: Date,
  ): Promise<SubscriptionDoc | undefined> {
    const update: UpdateFilter<SubscriptionDoc> = { $set: set };
    if (unset.length) update.$unset = Object.fromEntries(unset.map((k) => [k, '' as const]));
    // Atomic on MongoDB; FerretDB v1 reads then writes the document, so there it narrows the race without closing it.
    const filter: Filter<SubscriptionDoc> = { _id: id, owner_id: ownerId, ...(unchangedSince ? { updated_at: unchangedSince } : {}) };
    const result = await this.#collection
      .findOneAndUpdate(filter, update, {
        returnDocument: 'after',
      })
      .finally(this.#changed);
    return result ?? undefined;
  }

  /**
   * The subscriptions an event of `type` emitted at `at` goes to, before their filters: active
   * or holding while paused (src/subscriptions/hold.ts), subscribed to it, created by then and, for an event carrying `dataOwner`'s data, that
   * owner's or an admin key's. The same read as without filters, with `filter` projected too.
   */
  async activeSubscribers(type: EventType, at: Date, dataOwner?: string): Promise<FanoutCandidate[]> {
    return this.#fanoutRead(type, dataOwner, { created_at: { $lte: at } }, { _id: 1, filter: 1, ordering: 1 });
  }

  /**
   * Every subscription an event of `type` carrying `dataOwner`'s data would go to now, before
   * filters, with its creation time: what a cache filters by event time itself.
   */
  currentSubscribers(type: EventType, dataOwner?: string): Promise<FanoutMember[]> {
    return this.#fanoutRead(type, dataOwner, {}, { _id: 1, filter: 1, ordering: 1, created_at: 1 });
  }

  async #fanoutRead<T extends FanoutCandidate>(type: EventType, dataOwner: string | undefined, extra: Filter<SubscriptionDoc>, projection: Record<string, 1>): Promise<T[]> {
    // Status is matched here, not in the query: a paused subscription that holds takes events too,
    // and FerretDB v1 pushes only a top-level equality down (a `$in` of statuses would read them all).
    const read = async (filter: Filter<SubscriptionDoc>) => {
      const docs = await this.#collection.find<T & HoldState>({ ...filter, events: type, ...extra }, { projection: { ...projection, status: 1, paused_at: 1 } }).toArray();
      return docs.filter(takesEvents).map((d) => withoutHoldState(d) as T);
    };
    if (dataOwner === undefined) return read({});
    // Two equality reads, not one `$or`: FerretDB v1 pushes no `$or` down, so that read every
    // owner's subscribers of the type and grew with them.
    const [own, everyOwner] = await Promise.all([read({ owner_id: dataOwner }), read({ all_owners: true })]);
    const byId = new Map<string, T>();
    for (const s of [...own, ...everyOwner]) byId.set(s._id, s);
    return [...byId.values()];
  }

  /** Ids of `activeSubscribers`, filters not applied. */
  async activeSubscriberIds(type: EventType, at: Date, dataOwner?: string): Promise<string[]> {
    return (await this.activeSubscribers(type, at, dataOwner)).map((s) => s._id);
  }

  async deleteOwned(ownerId: string, id: string): Promise<boolean> {
    return (await this.#collection.deleteOne({ _id: id, owner_id: ownerId }).finally(this.#changed)).deletedCount === 1;
  }

  /** Which of `ids` are the owner's (in no particular order). */
  async ownedIds(ownerId: string, ids: readonly string[]): Promise<string[]> {
    return (await this.ownedAuthority(ownerId, ids)).map((s) => s._id);
  }

  /** Those of `ids` that are the owner's, with what changing them needs (their types, `all_owners`). */
  ownedAuthority(ownerId: string, ids: readonly string[]): Promise<Array<Pick<SubscriptionDoc, '_id' | 'events' | 'all_owners'>>> {
    return this.#collection.find({ _id: { $in: [...ids] }, owner_id: ownerId }, { projection: { _id: 1, events: 1, all_owners: 1 } }).toArray();
  }

  /** Any owner's subscription by id, for the worker (which acts for every owner), or null. */
  async findForDelivery(id: string): Promise<SubscriptionDoc | undefined> {
    return (await this.#collection.findOne({ _id: id })) ?? undefined;
  }

  /**
   * The subscriptions of one delivery round by id (a deleted one is absent). When most of them
   * are `likely`'s owner's subscriptions to its type, one equality read serves them: FerretDB v1
   * pushes no `$in` down, so `{_id: {$in: ids}}` would read every subscription. The rest (an
   * admin's, one that changed its types) are read by id.
   */
  async findRoundForDelivery(ids: readonly string[], likely?: { ownerId: string; type: EventType }): Promise<Map<string, SubscriptionDoc>> {
    const found = new Map<string, SubscriptionDoc>();
    const wanted = new Set(ids);
    if (likely && wanted.size > 1) {
      for (const doc of await this.#collection.find({ owner_id: likely.ownerId, events: likely.type }).toArray()) {
        if (wanted.has(doc._id)) found.set(doc._id, doc);
      }
    }
    const rest = [...wanted].filter((id) => !found.has(id));
    for (const doc of await Promise.all(rest.map((id) => this.findForDelivery(id)))) if (doc) found.set(doc._id, doc);
    return found;
  }

  /** Disables the subscription with `reason`, unless disabled already (the first reason stays). */
  async disable(id: string, reason: string, at: Date): Promise<void> {
    await this.#collection.updateOne({ _id: id, status: { $ne: 'disabled' } }, { $set: { status: 'disabled', disabled_reason: reason, updated_at: at } }).finally(this.#changed);
  }

  /** Ends the failure streak of those of `ids` that have one (a delivery succeeded). */
  async clearFailing(ids: readonly string[]): Promise<void> {
    await this.#collection.updateMany({ _id: { $in: [...ids] }, failing_since: { $exists: true } }, { $unset: { failing_since: '' } });
  }

  /** Starts the subscription's failure streak at `since`, unless one is running already. */
  async markFailing(id: string, since: Date): Promise<void> {
    await this.#collection.updateOne({ _id: id, failing_since: { $exists: false } }, { $set: { failing_since: since } });
  }

  /** Those of `ids` still active whose failure streak started at or before `cutoff`. */
  failingSince(ids: readonly string[], cutoff: Date): Promise<Array<Pick<SubscriptionDoc, '_id' | 'failing_since'>>> {
    return this.#collection
      .find({ _id: { $in: [...ids] }, status: 'active', failing_since: { $lte: cutoff } }, { projection: { _id: 1, failing_since: 1 } })
      .toArray();
  }

  /** Every owner's active subscriptions of envelope `version`, newest first; `after` is the last id of the previous page. */
  listActiveOnVersion(version: SubscriptionVersion, limit: number, after?: string): Promise<SubscriptionDoc[]> {
    const filter: Filter<SubscriptionDoc> = { version, status: 'active', ...(after ? { _id: { $lt: after } } : {}) };
    return this.#collection.find(filter, { projection: { secrets: 0 } }).sort({ _id: -1 }).limit(limit).toArray();
  }

  /** How many active subscriptions, every owner's, use envelope `version`. */
  countActiveOnVersion(version: SubscriptionVersion): Promise<number> {
    return this.#collection.countDocuments({ version, status: 'active' });
  }

  /** Every subscription's id and secrets, one at a time (resealing at start). */
  allSecrets(): AsyncIterable<Pick<SubscriptionDoc, '_id' | 'secrets'>> {
    return this.#collection.find({}, { projection: { secrets: 1 } });
  }

  /** Every subscription that has custom headers or auth, with only those: for the sealing migration. */
  allCredentials(): AsyncIterable<Pick<SubscriptionDoc, '_id' | 'headers' | 'auth' | 'destination'>> {
    return this.#collection.find(
      { $or: [{ headers: { $exists: true } }, { auth: { $exists: true } }, { destination: { $exists: true } }] },
      { projection: { headers: 1, auth: 1, destination: 1 } },
    );
  }

  /** Replaces headers, auth and destination if all are still as `read` (a PATCH in between wins); true when replaced. */
  async replaceCredentials(id: string, read: Credentials, next: Credentials): Promise<boolean> {
    // A field absent when read must still be absent: `null` matches a missing field.
    const { modifiedCount } = await this.#collection.updateOne(
      { _id: id, headers: read.headers ?? null, auth: read.auth ?? null, destination: read.destination ?? null } as Filter<SubscriptionDoc>,
      { $set: { ...(next.headers ? { headers: next.headers } : {}), ...(next.auth ? { auth: next.auth } : {}), ...(next.destination ? { destination: next.destination } : {}) } },
    );
    return modifiedCount === 1;
  }

  /** Replaces the secrets if they are still `read` (a rotation in between wins); true when replaced. */
  async replaceSecrets(id: string, read: StoredSecret[], secrets: StoredSecret[]): Promise<boolean> {
    const { modifiedCount } = await this.#collection.updateOne({ _id: id, secrets: read }, { $set: { secrets } });
    return modifiedCount === 1;
  }
}
