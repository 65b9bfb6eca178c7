/**
 * After the load: finds the events of every accepted order (in the order's outbox, written with
 * the order: its order.created and its order.updated), waits until every one reached every
 * subscriber of its type or the drain window passes, and
 * for what is missing gathers the evidence: the logged event and its snapshot, its dispatch
 * note, its workflow and the attempts logged for it.
 */
import type { Db } from 'mongodb';
import { type AttemptDoc, type DispatchNote, drainWorkflowId, type EventDoc, eventWorkflowId, type HeldDoc, heldDeliveryWorkflowId, type OrderDoc, orderKey, type TemporalGateway } from '../../stack/harness/service';
import { nowMs, sleep } from '../../stack/harness/stats';
import { arrivedSoFar, expectEvents, type Subscriber } from './receivers';

/** An accepted order's event, and the snapshot it was logged with (absent: never logged). */
export interface OwedEvent {
  orderId: number;
  /** Undefined: the order has no order.created in its outbox. */
  eventId: string | undefined;
  /** order.created, or order.updated. */
  type: string;
  /** Its place in the order's key (outbox `seq`), when it has one. */
  seq?: number;
  snapshot: string[] | undefined;
}

/** Retries a read while the database may still be coming back; each try bounded too, as a read on a dead connection may never answer. */
async function withRetry<T>(what: string, fn: () => Promise<T>, timeoutMs = 60_000, tryMs = 15_000): Promise<T> {
  const deadline = nowMs() + timeoutMs;
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([fn(), new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${tryMs} ms`)), tryMs)))]);
    } catch (err) {
      if (nowMs() > deadline) throw new Error(`${what}: ${(err as Error).message}`);
      await sleep(1000);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Runs `fn` over `items`, `concurrency` at a time, in order. */
async function mapBounded<T, R>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += concurrency) out.push(...(await Promise.all(items.slice(i, i + concurrency).map(fn))));
  return out;
}

/**
 * The order.created (one per accepted order, found or not) and order.updated events of each
 * accepted order, from its outbox, with the event log's snapshots. Point reads by `_id`: FerretDB
 * v1 scans the collection for `$in`, which on a database busy with the backlog took minutes.
 */
export async function owedEvents(db: Db, orderIds: readonly number[]): Promise<OwedEvent[]> {
  const orders = db.collection<OrderDoc>('orders');
  const events = db.collection<EventDoc>('events');
  const outboxes = await mapBounded(orderIds, 16, (orderId) =>
    withRetry(`reading order ${orderId}`, () => orders.findOne({ _id: orderKey(orderId) }, { projection: { outbox: 1 } })).then((o) => ({
      orderId,
      events: (o?.outbox ?? []).filter((e) => e.type === 'order.created' || e.type === 'order.updated'),
    })),
  );
  const ids = outboxes.flatMap((o) => o.events.map((e) => e.id));
  const logged = await mapBounded(ids, 16, (id) => withRetry(`reading event ${id}`, () => events.findOne({ _id: id }, { projection: { subscription_ids: 1 } })));
  const snapshots = new Map(logged.flatMap((e) => (e ? [[e._id, e.subscription_ids] as const] : [])));
  const out: OwedEvent[] = [];
  for (const { orderId, events: own } of outboxes) {
    if (!own.some((e) => e.type === 'order.created')) out.push({ orderId, eventId: undefined, type: 'order.created', snapshot: undefined });
    for (const e of own) out.push({ orderId, eventId: e.id, type: e.type, ...(e.seq !== undefined ? { seq: e.seq } : {}), snapshot: snapshots.get(e.id) });
  }
  return out;
}

/**
 * Polls the receivers until each got its `owed` count (in `subs`' order) or `timeoutS` passed;
 * returns whether all did. Logs progress every 10 s.
 */
export async function awaitDrain(subs: readonly Subscriber[], eventIds: string[], owed: readonly number[], timeoutS: number, log: (line: string) => void): Promise<boolean> {
  await expectEvents(subs, eventIds);
  const deadline = nowMs() + timeoutS * 1000;
  const total = owed.reduce((a, b) => a + b, 0);
  let lastLog = nowMs();
  for (;;) {
    const bySub = await arrivedSoFar(subs);
    const arrived = bySub.reduce((a, b) => a + b, 0);
    if (arrived >= total) return true;
    if (nowMs() > deadline) return false;
    if (nowMs() - lastLog > 10_000) {
      lastLog = nowMs();
      // Which subscribers lag: a plain one behind its outage, or the ordered one behind its turns.
      const lagging = subs.flatMap((s, i) => (bySub[i]! < owed[i]! ? [`${s.tag} ${bySub[i]}/${owed[i]}`] : []));
      log(`drain: ${arrived}/${total} deliveries arrived (behind: ${lagging.join(', ')})`);
    }
    await sleep(500);
  }
}

/**
 * Where each missing delivery stands, counted per subscription pair: still on its way (its
 * dispatch note waits for the relay, or its workflow runs), its workflow closed, or gone (no
 * note and no workflow: nothing will ever deliver it, the real loss). Bounded by `timeoutMs`;
 * what it had no time for is `unchecked`.
 */
export async function classifyMissing(
  db: Db,
  temporal: TemporalGateway,
  missing: ReadonlyArray<{ eventId: string | undefined; subscriptionIds: string[]; logged: boolean }>,
  timeoutMs: number,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const add = (state: string, n: number) => (counts[state] = (counts[state] ?? 0) + n);
  const deadline = nowMs() + timeoutMs;
  const client = await temporal.client();
  for (const m of missing) {
    if (!m.eventId) {
      add('GONE: accepted order without an event in its outbox', m.subscriptionIds.length);
      continue;
    }
    if (nowMs() > deadline) {
      add('unchecked (no time left)', m.subscriptionIds.length);
      continue;
    }
    const note = await db.collection<DispatchNote>('dispatch_notes').findOne({ _id: m.eventId }, { projection: { _id: 1 } });
    if (note) {
      add(`on its way: dispatch note waiting for the relay${m.logged ? '' : ' (event not logged yet)'}`, m.subscriptionIds.length);
      continue;
    }
    const status = await client.workflow
      .getHandle(eventWorkflowId(m.eventId))
      .describe()
      .then((d) => d.status.name, (err: Error) => (err.name === 'WorkflowNotFoundError' ? 'none' : `unknown (${err.name})`));
    if (status === 'RUNNING') add('on its way: workflow running', m.subscriptionIds.length);
    else if (status === 'none') add(m.logged ? 'GONE: logged, no dispatch note, no workflow' : 'GONE: not logged, no dispatch note', m.subscriptionIds.length);
    else add(`workflow ${status}`, m.subscriptionIds.length);
  }
  return counts;
}

/** Temporal's history event types seen in delivery workflows (temporal.api.enums.v1.EventType). */
const historyEventNames: Record<number, string> = {
  1: 'started',
  5: 'task-scheduled',
  6: 'task-started',
  7: 'task-completed',
  8: 'TASK-TIMED-OUT',
  9: 'TASK-FAILED',
  17: 'timer-started',
  18: 'timer-fired',
  19: 'timer-canceled',
  25: 'marker',
  26: 'signaled',
  40: 'search-attributes',
};

/** What the service recorded about one missing (event, subscription) delivery. */
export async function diagnoseLost(db: Db, temporal: TemporalGateway, orderId: number, eventId: string | undefined, subscriptionIds: string[]): Promise<string> {
  if (!eventId) return `order ${orderId}: no order.created event in its outbox (order ${(await db.collection<OrderDoc>('orders').countDocuments({ _id: orderKey(orderId) })) ? 'exists' : 'missing'})`;
  const parts: string[] = [`order ${orderId} event ${eventId} → ${subscriptionIds.join(',')}`];
  const event = await db.collection<EventDoc>('events').findOne({ _id: eventId });
  parts.push(event ? `logged at ${event.created_at.toISOString()} with snapshot [${event.subscription_ids.join(',')}]` : 'not in the event log');
  const note = await db.collection<DispatchNote>('dispatch_notes').findOne({ _id: eventId });
  parts.push(note ? `dispatch note still there (created ${note.created_at.toISOString()})` : 'no dispatch note');
  try {
    const client = await temporal.client();
    const handle = client.workflow.getHandle(eventWorkflowId(eventId));
    const d = await handle.describe();
    parts.push(`workflow ${d.status.name}${d.closeTime ? ` closed ${d.closeTime.toISOString()}` : ''}, history length ${d.historyLength}`);
    // What a stuck workflow keeps doing: its last events, and why its last workflow task failed.
    const events = (await handle.fetchHistory()).events ?? [];
    parts.push(`last events: ${events.slice(-14).map((e) => historyEventNames[Number(e.eventType)] ?? `type-${String(e.eventType)}`).join(' ')}`);
    const failed = events.findLast((e) => e.workflowTaskFailedEventAttributes)?.workflowTaskFailedEventAttributes?.failure?.message;
    if (failed) parts.push(`last workflow task failure: ${failed.slice(0, 200)}`);
  } catch (err) {
    parts.push(`workflow: ${(err as Error).name}: ${(err as Error).message.split('\n')[0]}`);
  }
  const attempts = await db
    .collection<AttemptDoc>('attempts')
    .find({ event_id: eventId, subscription_id: { $in: subscriptionIds } })
    .toArray();
  for (const a of attempts.sort((x, y) => x.attempt - y.attempt)) {
    parts.push(`attempt ${a.attempt} to ${a.subscription_id}: ${a.outcome}${a.status_code ? ` ${a.status_code}` : ''}${a.error ? ` (${a.error.slice(0, 80)})` : ''} → ${a.state}`);
  }
  if (!attempts.length) parts.push('no attempts logged');
  // A paused subscription's delivery: its hold record (still there: not drained yet), the run its drain started, the drain.
  const held = await db.collection<HeldDoc>('held_deliveries').find({ event_id: eventId }).toArray();
  for (const h of held.filter((x) => subscriptionIds.includes(x.subscription_id))) parts.push(`held record ${h._id} (attempt ${h.attempt}, held ${h.held_at.toISOString()}) still there`);
  try {
    const client = await temporal.client();
    const status = (id: string) => client.workflow.getHandle(id).describe().then((d) => d.status.name, (err: Error) => (err.name === 'WorkflowNotFoundError' ? 'none' : err.name));
    for (const h of held) parts.push(`drained run ${heldDeliveryWorkflowId(eventId, h._id)}: ${await status(heldDeliveryWorkflowId(eventId, h._id))}`);
    for (const s of subscriptionIds) parts.push(`${drainWorkflowId(s)}: ${await status(drainWorkflowId(s))}`);
  } catch (err) {
    parts.push(`drain: ${(err as Error).message.split('\n')[0]}`);
  }
  return parts.join('; ');
}
