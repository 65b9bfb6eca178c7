/**
 * The run's subscribers: one harness receiver process (stack/harness/receiver.ts) per subscription, so
 * one of them can refuse connections (its socket closed) while the others answer 200. Each
 * records every (webhook-id, subscription) it got and counts repeats; every 10th signature is
 * verified with the receiver kit.
 */
import type { ApiClient } from '../../stack/harness/api-client';
import { createSubscription, newSecret } from '../../stack/harness/subscribe';
import type { Cleanup } from '../../stack/harness/stack';
import { ReceiverProcess } from '../../stack/harness/receiver-client';

export interface Subscriber {
  /** Path tag at its receiver, `s<i>`. */
  tag: string;
  subscriptionId: string;
  receiver: ReceiverProcess;
}

/** What the receivers got, per subscription. */
export interface Receipts {
  /** Subscription id → event id → first arrival, epoch ms. */
  firstArrival: Map<string, Map<string, number>>;
  /** Receipts beyond the first per (webhook-id, subscription). */
  duplicates: number;
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
    out.push({ tag, subscriptionId: await createSubscription({ api, receiver }, tag, secret), receiver });
  }
  return out;
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
  const receipts: Receipts = { firstArrival: new Map(), duplicates: 0, total: 0, badSignatures: [], verified: 0 };
  for (const s of subs) {
    const dump = await s.receiver.request({ type: 'dump' }, 60_000);
    const mine = new Map<string, number>();
    for (const a of dump.arrivals) if (a.tag === s.tag) mine.set(a.eventId, a.t);
    receipts.firstArrival.set(s.subscriptionId, mine);
    receipts.duplicates += dump.duplicates;
    receipts.total += dump.total;
    receipts.verified += dump.verified;
    receipts.badSignatures.push(...dump.badSignatures.map((b) => `${s.tag}: ${b}`));
  }
  return receipts;
}
