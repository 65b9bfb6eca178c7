/**
 * The run's subscribers: one harness receiver process (stack/harness/receiver.ts) per subscription, so
 * one of them can refuse connections (its socket closed) while the others answer 200; one ordered
 * subscription (`ordering: per_key`, order.created and order.updated) whose receiver records each
 * delivery's ordering key; with a broker, one more whose receiver process consumes the broker
 * subscription's Redis stream instead.
 * Each records every (webhook-id, subscription) it got and counts repeats; every 10th signature is
 * verified with the receiver kit.
 */
import type { ApiClient } from '../../stack/harness/api-client';
import { sleep } from '../../stack/harness/stats';
import type { OrderedArrival } from './ordering';
import { createStreamSubscription, createSubscription, newSecret } from '../../stack/harness/subscribe';
import type { Cleanup } from '../../stack/harness/stack';
import { ReceiverProcess } from '../../stack/harness/receiver-client';
import type { RedisStreamSource } from '../../stack/harness/stream-consumer';

export interface Subscriber {
  /** Path tag at its receiver, `s<i>`; `b0` for the broker subscription. */
  tag: string;
  subscriptionId: string;
  receiver: ReceiverProcess;
  /** How its deliveries arrive: POSTs to the receiver, or entries of a Redis stream it consumes. */
  kind: 'http' | 'redis';
  /** The event types it subscribed to. */
  events: readonly string[];
  /** Subscribed with `ordering: per_key`: its receiver records each delivery's key. */
  ordered: boolean;
}

/** What the receivers got from one subscription. */
export interface SubscriberReceipts {
  duplicates: number;
  verified: number;
}

/** What the receivers got, per subscription. */
export interface Receipts {
  /** Subscription id → event id → first arrival, epoch ms. */
  firstArrival: Map<string, Map<string, number>>;
  /** Receipts beyond the first per (webhook-id, subscription). */
  duplicates: number;
  /** Per subscription id. */
  bySubscription: Map<string, SubscriberReceipts>;
  /** Every POST answered 200. */
  total: number;
  badSignatures: string[];
  verified: number;
  /** Per ordered subscription id, its first arrivals with their ordering key. */
  ordered: Map<string, OrderedArrival[]>;
}

/** Starts `count` receivers and subscribes each to order.created through `api`. */
export async function startSubscribers(count: number, api: ApiClient, cleanups: Cleanup[]): Promise<Subscriber[]> {
  const out: Subscriber[] = [];
  for (let i = 0; i < count; i++) {
    const receiver = await ReceiverProcess.start();
    cleanups.push({ name: `receiver s${i}`, fn: () => receiver.stop() });
    const tag = `s${i}`;
    const secret = newSecret();
    await receiver.request({ type: 'configure', secrets: { [tag]: secret }, sampleEvery: 10 });
    out.push({ tag, subscriptionId: await createSubscription({ api, receiver }, tag, secret), receiver, kind: 'http', events: ['order.created'], ordered: false });
  }
  return out;
}

/** The order events the ordered subscription gets. */
const orderEvents = ['order.created', 'order.updated'];

/** Starts a receiver and subscribes it, `ordering: per_key`, to order.created and order.updated through `api`. */
export async function startOrderedSubscriber(api: ApiClient, cleanups: Cleanup[]): Promise<Subscriber> {
  const receiver = await ReceiverProcess.start();
  const tag = 'o0';
  cleanups.push({ name: `receiver ${tag}`, fn: () => receiver.stop() });
  const secret = newSecret();
  await receiver.request({ type: 'configure', secrets: { [tag]: secret }, sampleEvery: 10 });
  const subscriptionId = await createSubscription({ api, receiver }, tag, secret, { events: orderEvents, ordering: 'per_key' });
  return { tag, subscriptionId, receiver, kind: 'http', events: orderEvents, ordered: true };
}

/** Subscribes `stream` (a Redis Streams destination) to order.created, with a receiver process consuming it. */
export async function startStreamSubscriber(api: ApiClient, stream: RedisStreamSource, cleanups: Cleanup[]): Promise<Subscriber> {
  const receiver = await ReceiverProcess.start();
  const tag = 'b0';
  cleanups.push({ name: `stream consumer ${tag}`, fn: () => receiver.stop() });
  const secret = newSecret();
  await receiver.request({ type: 'configure', secrets: { [tag]: secret }, sampleEvery: 10 });
  await receiver.request({ type: 'consume', tag, redis: { url: stream.url, password: stream.password, stream: stream.stream } });
  return { tag, subscriptionId: await createStreamSubscription(api, stream, tag, secret), receiver, kind: 'redis', events: ['order.created'], ordered: false };
}

/**
 * PATCHes the subscription's status (`paused` holds its deliveries, `active` drains them), trying
 * again for up to 60 s while the API answers otherwise (a fault just before may leave it slow).
 * Returns the held count the answer shows (a pause's answer shows none yet).
 */
export async function setStatus(api: ApiClient, s: Subscriber, status: 'paused' | 'active'): Promise<number | undefined> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await api.request('PATCH', `/api/webhooks/v1/subscriptions/${s.subscriptionId}`, { status }, 10_000).catch((err: Error) => ({ status: 0, body: err.message }));
    if (res.status === 200) return (res.body as { held?: { count?: number } } | undefined)?.held?.count;
    if (Date.now() > deadline) throw new Error(`PATCH ${s.tag} to ${status}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    await sleep(1000);
  }
}

/** How many deliveries the subscription holds (GET shows `held: {count}` while paused). */
export async function heldCount(api: ApiClient, s: Subscriber): Promise<number | undefined> {
  const res = await api.request('GET', `/api/webhooks/v1/subscriptions/${s.subscriptionId}`, undefined, 10_000).catch(() => undefined);
  return res?.status === 200 ? (res.body as { held?: { count?: number } } | undefined)?.held?.count : undefined;
}

/** Closes the subscriber's socket: the service's POSTs get connection refused. */
export async function receiverDown(s: Subscriber): Promise<void> {
  await s.receiver.request({ type: 'down' });
}

/** Listens again on the same port. */
export async function receiverUp(s: Subscriber): Promise<void> {
  await s.receiver.request({ type: 'up' });
}

/** Tells every receiver which events it is owed, so `progress` counts them cheaply. */
export async function expectEvents(subs: readonly Subscriber[], eventIds: string[]): Promise<void> {
  await Promise.all(subs.map((s) => s.receiver.request({ type: 'expect', eventIds })));
}

/** Owed (event, subscription) pairs that arrived so far, per receiver (in `subs`' order). */
export async function arrivedSoFar(subs: readonly Subscriber[]): Promise<number[]> {
  const all = await Promise.all(subs.map((s) => s.receiver.request({ type: 'progress' })));
  return all.map((p) => p.seenExpected);
}

/** Everything every receiver recorded. */
export async function collectReceipts(subs: readonly Subscriber[]): Promise<Receipts> {
  const receipts: Receipts = { firstArrival: new Map(), duplicates: 0, bySubscription: new Map(), total: 0, badSignatures: [], verified: 0, ordered: new Map() };
  for (const s of subs) {
    const dump = await s.receiver.request({ type: 'dump' }, 60_000);
    const mine = new Map<string, number>();
    const ordered: OrderedArrival[] = [];
    for (const a of dump.arrivals) {
      if (a.tag !== s.tag) continue;
      mine.set(a.eventId, a.t);
      if (s.ordered) ordered.push({ eventId: a.eventId, t: a.t, ...(a.key !== undefined ? { key: a.key } : {}), ...(a.event !== undefined ? { event: a.event } : {}), ...(a.previousStatus !== undefined ? { previousStatus: a.previousStatus } : {}) });
    }
    receipts.firstArrival.set(s.subscriptionId, mine);
    if (s.ordered) receipts.ordered.set(s.subscriptionId, ordered);
    receipts.duplicates += dump.duplicates;
    receipts.bySubscription.set(s.subscriptionId, { duplicates: dump.duplicates, verified: dump.verified });
    receipts.total += dump.total;
    receipts.verified += dump.verified;
    receipts.badSignatures.push(...dump.badSignatures.map((b) => `${s.tag}: ${b}`));
  }
  return receipts;
}
