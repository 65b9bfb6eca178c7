/**
 * The soak's prefill (also the bench's `--prefill`): orders, their order.created events and
 * delivery attempts, built with the service's own doc types and builders and written through its
 * repositories in bulk, dated over the last 3 days (inside the default 30-day retention), spread
 * over 100 other owners with 3 subscriptions each, with a share for the soak's owner and user.
 */
import type { Db } from 'mongodb';
import { type AttemptDoc, AttemptRepository, createdEventData, demoProducts, type EventDoc, EventRepository, eventWorkflowId, generateSigningSecret, newId, newOutboxEvent, type OrderDoc, orderKey, OrderRepository, orderTotal, seriesId, type SubscriptionDoc, toAttemptDoc, type UserDoc } from '../../stack/harness/service';
import type { PrefillSpec } from './options';

const DAY_MS = 86_400_000;
const SPAN_MS = 3 * DAY_MS;
const OTHER_OWNERS = 100;
const SUBSCRIPTIONS_PER_OWNER = 3;
/** Orders go to users 1..soakUsers (the demo seeds 1–5; the prefill adds the rest). */
export const soakUsers = 100;
/** The user whose orders list the soak probes: every 50th prefilled order is theirs and the soak owner's. */
export const probedUser = 1;

/** What to write, dated before `now`; the soak owner's events go to `soakSubscriptions`. */
export interface PrefillPlan {
  spec: PrefillSpec;
  now: number;
  /** The first prefilled order's number (above every id handed out so far). */
  firstOrderId: number;
  soakOwner: string;
  soakSubscriptions: ReadonlyArray<{ id: string; url: string }>;
}

/** A plan dated now. */
export function defaultPlan(spec: PrefillSpec, soak: Omit<PrefillPlan, 'spec' | 'now'>): PrefillPlan {
  return { spec, now: Date.now(), ...soak };
}

const otherOwner = (o: number) => `prefill-${o}`;

/**
 * The other owners' subscriptions to order.created (on a port nothing listens on; no new event
 * reaches them), then 15 of the soak owner's to order.updated, which the load never emits, so its
 * subscription list is longer than the soak's own. `seal` is the service's SecretBox.seal.
 */
export function buildSubscriptions(plan: PrefillPlan, seal: (secret: string, id: string) => string): SubscriptionDoc[] {
  const owners = Array.from({ length: OTHER_OWNERS * SUBSCRIPTIONS_PER_OWNER }, (_, i) => otherOwner(Math.floor(i / SUBSCRIPTIONS_PER_OWNER)));
  return [...owners, ...Array<string>(15).fill(plan.soakOwner)].map((owner, i) => {
    const at = new Date(plan.now - SPAN_MS - DAY_MS + i * 1000);
    const id = newId('sub', at.getTime());
    const events: SubscriptionDoc['events'] = owner === plan.soakOwner ? ['order.updated'] : ['order.created'];
    return { _id: id, owner_id: owner, url: `http://127.0.0.1:9/prefill/${i}`, events, status: 'active', version: 1, description: `prefill ${i}`, secrets: [{ secret: seal(generateSigningSecret(), id), created_at: at }], created_at: at, updated_at: at };
  });
}

/** Every 5th order is the soak owner's, every 50th also the probed user's; the rest spread over other owners and users. */
function ownerAndUser(plan: PrefillPlan, i: number): { owner: string; user: number } {
  if (i % 50 === 0) return { owner: plan.soakOwner, user: probedUser };
  return { owner: i % 5 === 0 ? plan.soakOwner : otherOwner(Math.floor(i / 5) % OTHER_OWNERS), user: 1 + ((i * 7919) % soakUsers) };
}

/** The i-th order as createOrder writes it: pending, priced from the catalog, its order.created in the outbox. */
export function buildOrder(plan: PrefillPlan, i: number): OrderDoc {
  const id = plan.firstOrderId + i;
  const { owner, user } = ownerAndUser(plan, i);
  const date = new Date(plan.now - SPAN_MS + Math.floor((i * SPAN_MS) / Math.max(1, plan.spec.orders)));
  const [a, b] = [demoProducts[i % demoProducts.length]!, demoProducts[(i + 5) % demoProducts.length]!];
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

/** `count` attempts of one event to one subscription, as the worker logs them: failed ones (503, retrying), the last delivered. */
export function buildAttempts(event: EventDoc, sub: { id: string; url: string }, count: number): AttemptDoc[] {
  const series = seriesId(eventWorkflowId(event._id), sub.id);
  let at = event.created_at.getTime() + 40;
  return Array.from({ length: count }, (_, i) => {
    const last = i === count - 1;
    const startedAt = at;
    at += 1000 * 2 ** i;
    const result = { startedAt, durationMs: 3, outcome: last ? ('delivered' as const) : ('http_error' as const), statusCode: last ? 200 : 503, responseExcerpt: last ? '{}' : 'busy', url: sub.url };
    return toAttemptDoc({ eventId: event._id, subscriptionId: sub.id, attempt: i + 1, series, result, ...(last ? {} : { nextAttemptAt: at }), state: last ? 'delivered' : 'retrying' });
  });
}

/** What the prefill wrote and how long it took. */
export interface PrefillResult {
  counts: { users: number; subscriptions: number; orders: number; events: number; attempts: number };
  seconds: number;
  docsPerSecond: number;
}

/** Writes in batches of 5,000: one insertMany each. */
async function inBatches<T>(docs: T[], write: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < docs.length; i += 5000) await write(docs.slice(i, i + 5000));
}

/** Orders are built 2,000 at a time (so orders and events fit one batch), with their events and attempts. */
const CHUNK = 2000;

/**
 * Writes the users the load needs (always) and, per `plan.spec`, subscriptions, orders, events
 * (those of the newest orders) and attempts (an even share per (event, subscription) pair, the
 * remainder to the first pairs); moves the order counter past the prefilled ids.
 */
export async function prefill(db: Db, plan: PrefillPlan, seal: (secret: string, id: string) => string, log: (line: string) => void): Promise<PrefillResult> {
  const t0 = performance.now();
  const { spec } = plan;
  const users = db.collection<UserDoc>('users');
  const have = new Set((await users.find({}, { projection: { _id: 1 } }).toArray()).map((u) => u._id));
  const newUsers: UserDoc[] = [];
  for (let id = 1; id <= soakUsers; id++) if (!have.has(id)) newUsers.push({ _id: id, name: `Soak User ${id}`, email: `user${id}@soak.example`, created_at: new Date(plan.now - 30 * DAY_MS) });
  if (newUsers.length) await users.insertMany(newUsers);
  const counts: PrefillResult['counts'] = { users: newUsers.length, subscriptions: 0, orders: 0, events: 0, attempts: 0 };
  const result = (): PrefillResult => {
    const seconds = (performance.now() - t0) / 1000;
    return { counts, seconds, docsPerSecond: (counts.orders + counts.events + counts.attempts) / seconds };
  };
  if (spec.orders === 0) return result();

  const subscriptions = buildSubscriptions(plan, seal);
  await db.collection<SubscriptionDoc>('subscriptions').insertMany(subscriptions);
  counts.subscriptions = subscriptions.length;
  const targets = new Map([[plan.soakOwner, [...plan.soakSubscriptions]]]);
  for (const s of subscriptions) if (s.events.includes('order.created')) targets.set(s.owner_id, [...(targets.get(s.owner_id) ?? []), { id: s._id, url: s.url }]);
  const firstEvent = spec.orders - spec.events;
  let pairs = 0;
  for (let i = firstEvent; i < spec.orders; i++) pairs += targets.get(ownerAndUser(plan, i).owner)?.length ?? 0;
  const each = pairs ? Math.floor(spec.attempts / pairs) : 0;
  let extra = pairs ? spec.attempts % pairs : 0;

  const [orders, events, attempts] = [new OrderRepository(db), new EventRepository(db), new AttemptRepository(db)];
  let lastLog = performance.now();
  for (let from = 0; from < spec.orders; from += CHUNK) {
    const [o, e, a]: [OrderDoc[], EventDoc[], AttemptDoc[]] = [[], [], []];
    for (let i = from; i < Math.min(spec.orders, from + CHUNK); i++) {
      const order = buildOrder(plan, i);
      o.push(order);
      if (i < firstEvent) continue;
      const subs = targets.get(order.owner_id) ?? [];
      const event = buildEvent(order, subs.map((s) => s.id));
      e.push(event);
      for (const sub of subs) a.push(...buildAttempts(event, sub, each + (extra-- > 0 ? 1 : 0)));
    }
    // The three collections in parallel: the database, not the bench, is the bottleneck.
    await Promise.all([orders.insertAll(o), events.insertAll(e), inBatches(a, (b) => attempts.recordMany(b))]);
    counts.orders += o.length;
    counts.events += e.length;
    counts.attempts += a.length;
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      log(`prefill: ${JSON.stringify(counts)} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
  }
  await orders.raiseCounterTo(plan.firstOrderId + spec.orders);
  return result();
}
