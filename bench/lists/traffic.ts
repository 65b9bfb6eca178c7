/**
 * The soak's traffic as it stands after a while of load, written straight through the
 * repositories: `rate` orders a second for the last `minutes`, every one the soak owner's, each
 * with its order.created event to the soak's subscriptions and one delivered attempt to each.
 * What the lists read at the head of a busy subscription, without running the load.
 */
import type { Db } from 'mongodb';
import { AttemptRepository, createdEventData, type EventDoc, EventRepository, newOutboxEvent, type OrderDoc, OrderRepository } from '../../stack/harness/service';
import { buildAttempts, buildEvent, buildOrder, type PrefillPlan, soakUsers } from '../soak/prefill';

/** How much recent traffic to write. */
export interface RecentTraffic {
  minutes: number;
  /** Orders a second (the soak's 20). */
  rate: number;
}

/** Orders written per round: with their events and attempts, one insert each. */
const CHUNK = 2000;

/** Writes the traffic up to `now`, after the prefill's orders (ids from `plan.firstOrderId + plan.spec.orders`); the documents written. */
export async function writeRecentTraffic(db: Db, plan: PrefillPlan, traffic: RecentTraffic, now = Date.now()): Promise<{ orders: number; events: number; attempts: number }> {
  const count = Math.round(traffic.minutes * 60 * traffic.rate);
  const after = { ...plan, firstOrderId: plan.firstOrderId + plan.spec.orders };
  // Every document here is written with its tenth, so its busy buckets are recorded dense as a live API's are.
  const lists = { denseSince: 0 };
  const [orders, events, attempts] = [new OrderRepository(db, undefined, lists), new EventRepository(db, lists), new AttemptRepository(db, lists)];
  const written = { orders: 0, events: 0, attempts: 0 };
  for (let from = 0; from < count; from += CHUNK) {
    const [o, e, a]: [OrderDoc[], EventDoc[], ReturnType<typeof buildAttempts>] = [[], [], []];
    for (let j = from; j < Math.min(count, from + CHUNK); j++) {
      const date = new Date(now - ((count - j) * 1000) / traffic.rate);
      // As the load places them: the soak owner's, users in turn.
      const order: OrderDoc = { ...buildOrder(after, j), owner_id: plan.soakOwner, user_id: 1 + (j % soakUsers), date, updated_at: date, outbox: [] };
      order.outbox.push(newOutboxEvent('order.created', createdEventData(order), { now: date, ownerId: plan.soakOwner }));
      o.push(order);
      const event = buildEvent(order, plan.soakSubscriptions.map((s) => s.id));
      e.push(event);
      // The soak's receiver answers 200 at once: one delivered attempt per subscription.
      for (const sub of plan.soakSubscriptions) a.push(...buildAttempts(event, sub, 1));
    }
    const attemptBatches = async () => {
      for (let i = 0; i < a.length; i += 5000) await attempts.recordMany(a.slice(i, i + 5000));
    };
    await Promise.all([orders.insertAll(o), events.insertAll(e), attemptBatches()]);
    written.orders += o.length;
    written.events += e.length;
    written.attempts += a.length;
  }
  await orders.raiseCounterTo(after.firstOrderId + count);
  return written;
}
