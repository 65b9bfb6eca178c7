/** What a run of orders delivered: counted at the receiver and in the database, checked, timed. */
import { type AttemptDoc, type AttemptFilter, AttemptRepository, eventWorkflowId, type OrderDoc, orderKey } from '../../stack/harness/service';
import type { OrderResult } from '../../stack/harness/api-client';
import type { Ctx } from './context';
import { VoidRun } from '../../stack/harness/lifecycle';
import { type Summary, nowMs, sleep, summarize } from '../../stack/harness/stats';

/** Event id → its order's POST start (epoch ms), order id and the event's created_at. */
type RunEvents = Map<string, { orderId: number; postStart: number; createdAt: number }>;

/** What {@link awaitDeliveries} found. */
export type DeliveryOutcome = Awaited<ReturnType<typeof awaitDeliveries>>;

/**
 * The order.created event of each accepted order, read from the order's own outbox (written with
 * the order, before the 201): one lookup by `_id` per order, so the cost does not grow with what
 * the database holds. An order's other events (stock.*) go to no bench subscription.
 */
async function eventsForOrders(ctx: Ctx, orders: OrderResult[]): Promise<RunEvents> {
  const out: RunEvents = new Map();
  const accepted = orders.filter((o) => o.ok);
  const stored = ctx.stack.db.collection<Pick<OrderDoc, '_id' | 'outbox'>>('orders');
  for (let i = 0; i < accepted.length; i += 16) {
    await Promise.all(
      accepted.slice(i, i + 16).map(async (o) => {
        const doc = await stored.findOne({ _id: orderKey(o.orderId!) }, { projection: { outbox: 1 } });
        const created = doc?.outbox.find((e) => e.type === 'order.created');
        if (created) out.set(created.id, { orderId: o.orderId!, postStart: o.startedAt, createdAt: created.created_at.getTime() });
      }),
    );
  }
  return out;
}

/**
 * The attempts of this run's events to the bench's subscriptions, newest first: each
 * subscription's own list (src/db/timeline.ts), at most `perSubscription` each, so the cost does not
 * grow with what a prefilled database holds (a `$in` on event ids is a scan on FerretDB v1).
 */
async function attemptsOfRun(ctx: Ctx, eventIds: readonly string[], filter: AttemptFilter = {}, perSubscription = Math.min(20_000, eventIds.length * 4 + 100)): Promise<AttemptDoc[]> {
  const wanted = new Set(eventIds);
  const repo = new AttemptRepository(ctx.stack.db);
  const out: AttemptDoc[] = [];
  for (const id of ctx.subs.values()) for (const a of await repo.listForSubscription(id, perSubscription, filter)) if (wanted.has(a.event_id)) out.push(a);
  return out;
}

/** (event, subscription) pairs that ended failed or stopped, from the attempts and alerts collections. */
async function failedPairs(ctx: Ctx, eventIds: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const state of ['failed', 'stopped'] as const) for (const a of await attemptsOfRun(ctx, eventIds, { state })) out.add(`${a.event_id}|${a.subscription_id}`);
  // Alerts are few: this scan stays small.
  const alerts = await ctx.stack.db
    .collection<{ event_id?: string; subscription_id: string }>('alerts')
    .find({ kind: 'delivery_failed', event_id: { $in: eventIds } }, { projection: { event_id: 1, subscription_id: 1 } })
    .toArray();
  for (const a of alerts) out.add(`${a.event_id}|${a.subscription_id}`);
  return out;
}

/**
 * Waits until every expected (event, subscription) is delivered at the receiver or failed in
 * the database, or the drain timeout passes; then collects what arrived and checks it
 * ({@link checkComplete}: VOID when something is missing).
 */
export async function awaitDeliveries(ctx: Ctx, label: string, orders: OrderResult[], strict = false) {
  const m = ctx.subs.size;
  const emitted = orders.length * m;
  const events = await eventsForOrders(ctx, orders);
  const eventIds = [...events.keys()];
  await ctx.receiver.request({ type: 'expect', eventIds });
  // Gives up only after --drain-timeout seconds without any delivery completing (a stall, not a slow drain).
  let deadline = nowMs() + ctx.opts.drainTimeout * 1000;
  let done = -1;
  let failed = new Set<string>();
  let lastDbCheck = nowMs();
  let timedOut = false;
  for (;;) {
    const p = await ctx.receiver.request({ type: 'progress' });
    if (p.seenExpected + failed.size >= eventIds.length * m) break;
    if (p.seenExpected + failed.size > done) {
      done = p.seenExpected + failed.size;
      deadline = nowMs() + ctx.opts.drainTimeout * 1000;
    }
    if (nowMs() - lastDbCheck > 2000) {
      failed = await failedPairs(ctx, eventIds);
      lastDbCheck = nowMs();
      continue;
    }
    if (nowMs() > deadline) {
      timedOut = true;
      break;
    }
    await sleep(50);
  }
  failed = await failedPairs(ctx, eventIds);
  const dump = await ctx.receiver.request({ type: 'dump' }, 60_000);
  const tags = new Set(ctx.subs.keys());
  const arrivals = dump.arrivals.filter((a) => events.has(a.eventId) && tags.has(a.tag));
  const delivered = new Set(arrivals.map((a) => `${a.eventId}|${ctx.subs.get(a.tag)}`));
  const union = new Set([...delivered, ...failed]);
  const retriedAttempts = (await attemptsOfRun(ctx, eventIds)).filter((a) => a.outcome !== 'delivered').length;
  const ordersOk = orders.filter((x) => x.ok).length;
  const outcome = {
    emitted,
    ordersOk,
    ordersFailed: orders.length - ordersOk,
    firstOrderError: orders.find((x) => !x.ok)?.error,
    delivered: delivered.size,
    failed: union.size - delivered.size,
    duplicates: arrivals.reduce((s, a) => s + a.n - 1, 0),
    retriedAttempts,
    timedOut,
    arrivals,
    events,
    badSignatures: dump.badSignatures,
    verified: dump.verified,
  };
  checkComplete(ctx, label, outcome, strict);
  return outcome;
}

/**
 * Voids the bench when a delivery went missing or a signature did not verify. `strict` (the
 * throughput run) counts every order sent: emitted = N × M. Otherwise (ingest and latency runs)
 * emitted counts the orders the API accepted, and rejected orders are reported, not voided:
 * they are an API error (see the E11000 note in bench/README.md), not a lost delivery.
 */
function checkComplete(ctx: Ctx, name: string, o: DeliveryOutcome, strict: boolean): void {
  const problems: string[] = [];
  const expected = strict ? o.emitted : o.ordersOk * (o.emitted / Math.max(1, o.ordersOk + o.ordersFailed));
  ctx.ledger.push({ run: name, expected, delivered: o.delivered, failed: o.failed, duplicates: o.duplicates });
  if (!strict && o.ordersFailed) ctx.log(`${name}: WARNING ${o.ordersFailed} order POSTs were rejected after retrying (${o.firstOrderError ?? ''}); measured over the ${o.ordersOk} accepted`);
  if (o.delivered + o.failed !== expected) {
    const why = [
      o.ordersFailed ? `${o.ordersFailed} order POSTs failed (${o.firstOrderError ?? ''})` : '',
      o.events.size < o.ordersOk ? `${o.ordersOk - o.events.size} events not in the event log` : '',
      o.timedOut ? `gave up after ${ctx.opts.drainTimeout}s without progress` : '',
    ].filter(Boolean);
    problems.push(`delivered ${o.delivered} + failed ${o.failed} ≠ emitted ${expected}${why.length ? ` (${why.join('; ')})` : ''}`);
  }
  if (o.badSignatures.length) problems.push(`signatures that did not verify: ${o.badSignatures.slice(0, 3).join('; ')}`);
  if (problems.length) throw new VoidRun(`${name}: ${problems.join('; ')}`);
}

/** Delivery latencies (ms) from the order POST start and from the event's created_at to the receiver's first byte. */
export function latencies(o: DeliveryOutcome): { fromPost: Summary; fromCreated: Summary } {
  const fromPost: number[] = [];
  const fromCreated: number[] = [];
  for (const a of o.arrivals) {
    const e = o.events.get(a.eventId);
    if (!e) continue;
    fromPost.push(a.t - e.postStart);
    fromCreated.push(a.t - e.createdAt);
  }
  return { fromPost: summarize(fromPost), fromCreated: summarize(fromCreated) };
}

/**
 * Where the time goes, per delivery (medians, ms): POST start → event logged (created_at) →
 * event workflow started (its start time in Temporal) → attempt's POST started
 * (attempts.started_at) → receiver.
 */
export async function breakdown(ctx: Ctx, o: DeliveryOutcome, histories = false): Promise<Record<string, Summary>> {
  const eventIds = [...o.events.keys()];
  const client = await ctx.stack.temporal.client();
  const workflowStart = new Map<string, number>();
  const bulk = new Set<string>();
  for await (const wf of client.workflow.list({ query: `WorkflowType = 'eventWorkflow'` })) {
    workflowStart.set(wf.workflowId, wf.startTime.getTime());
    if (wf.taskQueue.endsWith('-bulk')) bulk.add(wf.workflowId);
  }
  const dispatchedAt = (eventId: string) => workflowStart.get(eventWorkflowId(eventId));
  const attempts = (await attemptsOfRun(ctx, eventIds)).filter((a) => a.attempt === 1);
  const started = new Map(attempts.map((a) => [`${a.event_id}|${a.subscription_id}`, a.started_at.getTime()]));
  const seg: Record<string, number[]> = { 'post→logged': [], 'logged→dispatched': [], 'dispatched→attempt': [], 'attempt→receiver': [], ...(histories ? { 'on the bulk lane': [] } : {}) };
  for (const [id, e] of o.events) {
    seg['post→logged']!.push(e.createdAt - e.postStart);
    const d = dispatchedAt(id);
    if (d !== undefined) seg['logged→dispatched']!.push(d - e.createdAt);
    if (d !== undefined && histories) seg['on the bulk lane']!.push(bulk.has(eventWorkflowId(id)) ? 1 : 0);
  }
  for (const a of o.arrivals) {
    const e = o.events.get(a.eventId);
    const s = started.get(`${a.eventId}|${ctx.subs.get(a.tag)}`);
    if (!e || s === undefined) continue;
    const d = dispatchedAt(a.eventId);
    if (d !== undefined) seg['dispatched→attempt']!.push(s - d);
    seg['attempt→receiver']!.push(a.t - s);
  }
  if (histories) Object.assign(seg, await taskSplit(ctx, o, dispatchedAt, started));
  return Object.fromEntries(Object.entries(seg).map(([k, v]) => [k, summarize(v)]));
}

/**
 * `dispatched→attempt` split at the first workflow task, from each delivered workflow's history:
 * start → the task handed to a worker's poll (WorkflowTaskStarted: time in Temporal's queue), →
 * the worker's answer (WorkflowTaskCompleted), and task handed over → attempt started (the worker).
 * A first task that timed out or failed counts in `first task retried`.
 */
async function taskSplit(ctx: Ctx, o: DeliveryOutcome, dispatchedAt: (eventId: string) => number | undefined, started: Map<string, number>): Promise<Record<string, number[]>> {
  const client = await ctx.stack.temporal.client();
  const seg: Record<string, number[]> = { 'dispatched→task polled': [], 'task polled→attempt': [], 'first task retried': [] };
  const arrivals = o.arrivals.filter((a) => o.events.has(a.eventId));
  for (let i = 0; i < arrivals.length; i += 8) {
    await Promise.all(
      arrivals.slice(i, i + 8).map(async (a) => {
        const d = dispatchedAt(a.eventId);
        const s = started.get(`${a.eventId}|${ctx.subs.get(a.tag)}`);
        if (d === undefined || s === undefined) return;
        const history = await client.workflow.getHandle(eventWorkflowId(a.eventId)).fetchHistory();
        const events = history.events ?? [];
        const at = (e: (typeof events)[number]) => Number(e.eventTime?.seconds ?? 0) * 1000 + Math.round((e.eventTime?.nanos ?? 0) / 1e6);
        const polled = events.find((e) => e.workflowTaskStartedEventAttributes);
        if (polled) {
          seg['dispatched→task polled']!.push(at(polled) - d);
          seg['task polled→attempt']!.push(s - at(polled));
        }
        const retried = events.some((e) => e.workflowTaskTimedOutEventAttributes || e.workflowTaskFailedEventAttributes);
        seg['first task retried']!.push(retried ? 1 : 0);
      }),
    );
  }
  return seg;
}
