/**
 * The run's subscribers: one harness receiver process (stack/harness/receiver.ts) per subscription, so
 * one of them can refuse connections (its socket closed) while the others answer 200; with a
 * broker, one more whose receiver process consumes the broker subscription's Redis stream instead.
 * Each records every (webhook-id, subscription) it got and counts repeats; every 10th signature is
 * verified with the receiver kit.
 */
import type { ApiClient } from '../../stack/harness/api-client';
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
    out.push({ tag, subscriptionId: await createSubscription({ api, receiver }, tag, secret), receiver, kind: 'http' });
  }
  return out;
}

/** Subscribes `stream` (a Redis Streams destination) to order.created, with a receiver process consuming it. */
export async function startStreamSubscriber(api: ApiClient, stream: RedisStreamSource, cleanups: Cleanup[]): Promise<Subscriber> {
  const receiver = await ReceiverProcess.start();
  const tag = 'b0';
  cleanups.push({ name: `stream consumer ${tag}`, fn: () => receiver.stop() });
  const secret = newSecret();
  await receiver.request({ type: 'configure', secrets: { [tag]: secret }, sampleEvery: 10 });
  await receiver.request({ type: 'consume', tag, redis: { url: stream.url, password: stream.password, stream: stream.stream } });
  return { tag, subscriptionId: await createStreamSubscription(api, stream, tag, secret), receiver, kind: 'redis' };
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

/** Owed (event, subscription) pairs that arrived so far, summed over the receivers. */
export async function arrivedSoFar(subs: readonly Subscriber[]): Promise<number> {
  const all = await Promise.all(subs.map((s) => s.receiver.request({ type: 'progress' })));
  return all.reduce((sum, p) => sum + p.seenExpected, 0);
}

/** Everything every receiver recorded. */
export async function collectReceipts(subs: readonly Subscriber[]): Promise<Receipts> {
  const receipts: Receipts = { firstArrival: new Map(), duplicates: 0, bySubscription: new Map(), total: 0, badSignatures: [], verified: 0 };
  for (const s of subs) {
    const dump = await s.receiver.request({ type: 'dump' }, 60_000);
    const mine = new Map<string, number>();
    for (const a of dump.arrivals) if (a.tag === s.tag) mine.set(a.eventId, a.t);
    receipts.firstArrival.set(s.subscriptionId, mine);
    receipts.duplicates += dump.duplicates;
    receipts.bySubscription.set(s.subscriptionId, { duplicates: dump.duplicates, verified: dump.verified });
    receipts.total += dump.total;
    receipts.verified += dump.verified;
    receipts.badSignatures.push(...dump.badSignatures.map((b) => `${s.tag}: ${b}`));
  }
  return receipts;
}
