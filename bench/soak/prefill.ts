/**
 * The soak's prefill: orders, their order.created events and delivery attempts, written with
 * the driver in bulk, in the shapes the service writes them (its own doc types and builders:
 * OrderDoc with its outbox, EventDoc as the dispatcher logs it, toAttemptDoc), dated over the
 * last few days (inside the default 30-day retention), spread over a few hundred subscriptions
 * of other owners, with a realistic share for the soak's owner, subscriptions and probed user.
 */
import type { Collection, Db, Document, OptionalUnlessRequiredId } from 'mongodb';
import { type AttemptDoc, type AttemptLogEntry, AttemptRepository, type CounterDoc, createdEventData, demoProducts, type EventDoc, EventRepository, eventWorkflowId, generateSigningSecret, newId, newOutboxEvent, type OrderDoc, orderKey, OrderRepository, orderTotal, seriesId, type SubscriptionDoc, toAttemptDoc, type UserDoc } from '../lib/service';
import type { PrefillSpec } from './options';

const DAY_MS = 86_400_000;

/** Who the prefill is for: the soak's owner, subscriptions and probed user. */
export interface PrefillPlan {
  spec: PrefillSpec;
  now: number;
  /** Documents are dated over this many ms before `now`. */
  spanMs: number;
  /** The first prefilled order's number (above every id handed out so far). */
  firstOrderId: number;
  /** Owner of the soak's API key: its orders' events go to `soakSubscriptions`. */
  soakOwner: string;
  soakSubscriptions: ReadonlyArray<{ id: string; url: string }>;
  probedUser: number;
  /** Users 1..users own the orders. */
  users: number;
  /** Other owners, each with `subscriptionsPerOwner` subscriptions to order.created. */
  otherOwners: number;
  subscriptionsPerOwner: number;
}

/** The defaults of a soak: 3 days of data, 100 other owners × 3 subscriptions, 100 users. */
export function defaultPlan(spec: PrefillSpec, soak: Pick<PrefillPlan, 'soakOwner' | 'soakSubscriptions' | 'firstOrderId'>): PrefillPlan {
  return { spec, now: Date.now(), spanMs: 3 * DAY_MS, probedUser: 1, users: 100, otherOwners: 100, subscriptionsPerOwner: 3, ...soak };
}

/** Users 1..count that are not among `have` (the demo seeds 1–5). */
export function missingUsers(count: number, have: ReadonlySet<number>, now: number): UserDoc[] {
  const out: UserDoc[] = [];
  for (let id = 1; id <= count; id++) if (!have.has(id)) out.push({ _id: id, name: `Soak User ${id}`, email: `user${id}@soak.example`, created_at: new Date(now - 30 * DAY_MS) });
  return out;
}

/**
 * The other owners' subscriptions (to order.created, on a port nothing listens on: no new event
 * reaches them) and 15 of the soak owner's to order.updated, which the load never emits, so
 * its subscription list is longer than the soak's own. `seal` is the service's SecretBox.seal.
 */
export function buildSubscriptions(plan: PrefillPlan, seal: (secret: string, id: string) => string): SubscriptionDoc[] {
  const created = plan.now - plan.spanMs - DAY_MS;
  const make = (owner: string, i: number, events: SubscriptionDoc['events']): SubscriptionDoc => {
    const at = new Date(created + i * 1000);
    const id = newId('sub', at.getTime());
    return { _id: id, owner_id: owner, url: `http://127.0.0.1:9/prefill/${i}`, events, status: 'active', version: 1, description: `prefill ${i}`, secrets: [{ secret: seal(generateSigningSecret(), id), created_at: at }], created_at: at, updated_at: at };
  };
  const out: SubscriptionDoc[] = [];
  for (let o = 0; o < plan.otherOwners; o++) for (let s = 0; s < plan.subscriptionsPerOwner; s++) out.push(make(otherOwner(o), out.length, ['order.created']));
  for (let s = 0; s < 15; s++) out.push(make(plan.soakOwner, out.length, ['order.updated']));
  return out;
}

const otherOwner = (o: number) => `prefill-${o}`;

/** Every 5th order is the soak owner's, every 50th also the probed user's; the rest spread over other owners and users. */
function ownerAndUser(plan: PrefillPlan, i: number): { owner: string; user: number } {
  if (i % 50 === 0) return { owner: plan.soakOwner, user: plan.probedUser };
  const owner = i % 5 === 0 ? plan.soakOwner : otherOwner(Math.floor(i / 5) % plan.otherOwners);
  return { owner, user: 1 + ((i * 7919) % plan.users) };
}

/** One prefilled order as createOrder writes it: pending, priced from the catalog, its order.created in the outbox. */
export function buildOrder(plan: PrefillPlan, i: number): OrderDoc {
  const id = plan.firstOrderId + i;
  const { owner, user } = ownerAndUser(plan, i);
  const date = new Date(plan.now - plan.spanMs + Math.floor((i * plan.spanMs) / Math.max(1, plan.spec.orders)));
  const a = demoProducts[i % demoProducts.length]!;
  const b = demoProducts[(i + 5) % demoProducts.length]!;
  const items = [
    { product_id: a._id, quantity: 1 + (i % 3), unit_price: a.price },
    { product_id: b._id, quantity: 1, unit_price: b.price },
  ];
  const order: OrderDoc = { _id: orderKey(id), id, owner_id: owner, user_id: user, status: 'pending', items, total: orderTotal(items), currency: 'EUR', date, updated_at: date, outbox: [] };
  order.outbox.push(newOutboxEvent('order.created', createdEventData(order), { now: date, ownerId: owner }));
  return order;
}

/** The order's event as the dispatcher logs it: the outbox entry, its source and the fan-out snapshot. */
export function buildEvent(order: OrderDoc, subscriptionIds: string[]): EventDoc {
  const e = order.outbox[0]!;
  return { _id: e.id, type: e.type, data: e.data, created_at: e.created_at, source: { collection: 'orders', id: order.id }, subscription_ids: subscriptionIds };
}

/** `count` attempts of one event to one subscription: failed ones (503, retrying) before the last, delivered. */
export function buildAttempts(event: EventDoc, sub: { id: string; url: string }, count: number): AttemptDoc[] {
  const series = seriesId(eventWorkflowId(event._id), sub.id);
  const out: AttemptDoc[] = [];
  let at = event.created_at.getTime() + 40;
  for (let n = 1; n <= count; n++) {
    const last = n === count;
    const delay = 1000 * 2 ** (n - 1);
    const entry: AttemptLogEntry = {
      eventId: event._id,
      subscriptionId: sub.id,
      attempt: n,
      series,
      result: { startedAt: at, durationMs: 3, outcome: last ? 'delivered' : 'http_error', statusCode: last ? 200 : 503, responseExcerpt: last ? '{}' : 'busy', url: sub.url },
      ...(last ? {} : { nextAttemptAt: at + delay }),
      state: last ? 'delivered' : 'retrying',
    };
    out.push(toAttemptDoc(entry));
    at += delay;
  }
  return out;
}

/** What the prefill wrote and how long it took. */
export interface PrefillResult {
  counts: { users: number; subscriptions: number; orders: number; events: number; attempts: number };
  seconds: number;
  docsPerSecond: number;
}

const batchSize = 5000;

/** insertMany in unordered batches of `batchSize`. */
async function insertAll<T extends Document>(collection: Collection<T>, docs: T[]): Promise<void> {
  for (let i = 0; i < docs.length; i += batchSize) await collection.insertMany(docs.slice(i, i + batchSize) as OptionalUnlessRequiredId<T>[], { ordered: false });
}

/**
 * Writes the users the load needs (always) and, per `plan.spec`, subscriptions, orders, events
 * and attempts; moves the order counter past the prefilled ids. The events are those of the
 * newest orders; the attempts are spread evenly over the events' (event, subscription) pairs.
 */
export async function prefill(db: Db, plan: PrefillPlan, seal: (secret: string, id: string) => string, log: (line: string) => void): Promise<PrefillResult> {
  const t0 = performance.now();
  const { spec } = plan;
  const users = db.collection<UserDoc>('users');
  const have = new Set((await users.find({}, { projection: { _id: 1 } }).toArray()).map((u) => u._id));
  const newUsers = missingUsers(plan.users, have, plan.now);
  if (newUsers.length) await users.insertMany(newUsers);
  const counts: PrefillResult['counts'] = { users: newUsers.length, subscriptions: 0, orders: 0, events: 0, attempts: 0 };
  if (spec.orders === 0) return { counts, seconds: (performance.now() - t0) / 1000, docsPerSecond: 0 };

  const subscriptions = buildSubscriptions(plan, seal);
  await insertAll(db.collection<SubscriptionDoc>('subscriptions'), subscriptions);
  counts.subscriptions = subscriptions.length;
  const targets = new Map<string, Array<{ id: string; url: string }>>([[plan.soakOwner, [...plan.soakSubscriptions]]]);
  for (const s of subscriptions) if (s.events.includes('order.created')) targets.set(s.owner_id, [...(targets.get(s.owner_id) ?? []), { id: s._id, url: s.url }]);

  // Attempts per (event, subscription) pair: an even share, the remainder to the first pairs.
  const firstEvent = spec.orders - spec.events;
  let pairs = 0;
  for (let i = firstEvent; i < spec.orders; i++) pairs += targets.get(ownerAndUser(plan, i).owner)?.length ?? 0;
  const each = pairs ? Math.floor(spec.attempts / pairs) : 0;
  let extra = pairs ? spec.attempts % pairs : 0;

  // Through the repositories' own bulk writes, so the documents are listed as the service lists them.
  const orders = new OrderRepository(db);
  const events = new EventRepository(db);
  const attempts = new AttemptRepository(db);
  const inBatches = async <T>(docs: T[], write: (batch: T[]) => Promise<unknown>) => {
    for (let i = 0; i < docs.length; i += batchSize) await write(docs.slice(i, i + batchSize));
  };
  const chunk = 2000;
  let lastLog = performance.now();
  for (let from = 0; from < spec.orders; from += chunk) {
    const o: OrderDoc[] = [];
    const e: EventDoc[] = [];
    const a: AttemptDoc[] = [];
    for (let i = from; i < Math.min(spec.orders, from + chunk); i++) {
      const order = buildOrder(plan, i);
      o.push(order);
      if (i < firstEvent) continue;
      const subs = targets.get(order.owner_id) ?? [];
      const event = buildEvent(order, subs.map((s) => s.id));
      e.push(event);
      for (const sub of subs) {
        const n = each + (extra > 0 ? 1 : 0);
        if (extra > 0) extra--;
        if (n > 0) a.push(...buildAttempts(event, sub, n));
      }
    }
    // The three collections in parallel: the database, not the bench, is the bottleneck.
    await Promise.all([inBatches(o, (b) => orders.insertAll(b)), inBatches(e, (b) => events.insertAll(b)), inBatches(a, (b) => attempts.recordMany(b))]);
    counts.orders += o.length;
    counts.events += e.length;
    counts.attempts += a.length;
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      log(`prefill: ${counts.orders} orders, ${counts.events} events, ${counts.attempts} attempts (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
  }
  // Never move the counter backwards; the API's next ids come after the prefilled ones.
  await db.collection<CounterDoc>('counters').updateOne({ _id: 'orders' }, { $max: { seq: plan.firstOrderId + spec.orders } }, { upsert: true });
  const seconds = (performance.now() - t0) / 1000;
  const total = counts.orders + counts.events + counts.attempts;
  return { counts, seconds, docsPerSecond: total / seconds };
}
