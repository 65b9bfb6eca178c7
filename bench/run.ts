/**
 * `npm run bench`: end-to-end performance of the webhook service on this machine, all on
 * loopback. Starts its own embedded servers, API, worker and receiver; runs the scenarios of
 * bench/README.md; prints a table and writes JSON to .data/bench/latest.json. Exits 0 unless
 * a run is VOID (a delivery went missing) or the bench itself failed. Every loop is bounded
 * in count and time, and a watchdog stops everything after --max-seconds.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postWebhook } from '../activities/http-post';
import { renderEnvelope } from '../src/webhooks/envelopes';
import { signatureHeaders } from '../src/webhooks/signature';
import { eventWorkflowId } from '../workflows/ids';
import { ApiClient, type OrderResult, closedLoop } from './lib/api-client';
import { type HistoryBreakdown, historyBreakdown } from './lib/history';
import { parseOptions } from './lib/options';
import { type CpuUsage, CpuMeter, loadAverage } from './lib/proc';
import type { ArrivalRecord } from './lib/receiver-protocol';
import { ReceiverProcess } from './lib/receiver-client';
import { type Cleanup, type Stack, startStack } from './lib/stack';
import { type Summary, nowMs, sleep, summarize } from './lib/stats';

const root = fileURLToPath(new URL('../', import.meta.url));
const opts = parseOptions();
const benchStart = nowMs();
const log = (line: string) => process.stderr.write(`[bench +${((nowMs() - benchStart) / 1000).toFixed(1)}s] ${line}\n`);

// ---------------------------------------------------------------- lifecycle

const cleanups: Cleanup[] = [];
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const c of cleanups.splice(0).reverse()) {
      try {
        await c.fn();
      } catch (err) {
        log(`cleanup of ${c.name} failed: ${(err as Error).message}`);
      }
    }
  })();
  return cleaning;
}
/** Set by a signal or the watchdog: the code the bench exits with, whatever the main flow does meanwhile. */
let forcedExit: number | undefined;
async function exitWith(code: number, reason: string): Promise<never> {
  if (forcedExit === undefined) {
    forcedExit = code;
    log(reason);
    log('stopping everything');
  }
  await cleanup();
  process.exit(forcedExit);
}
process.on('SIGINT', () => void exitWith(130, 'interrupted (SIGINT)'));
process.on('SIGTERM', () => void exitWith(143, 'terminated (SIGTERM)'));
const watchdog = setTimeout(() => void exitWith(2, `time limit of ${opts.maxSeconds}s reached (--max-seconds)`), opts.maxSeconds * 1000);

class VoidRun extends Error {
  override name = 'VoidRun';
}

// ---------------------------------------------------------------- scenario plumbing

interface Ctx {
  stack: Stack;
  api: ApiClient;
  receiver: ReceiverProcess;
  /** Receiver tag (path segment) → subscription id, for the scenario's subscriptions. */
  subs: Map<string, string>;
  meter: CpuMeter;
}

interface DeliveryOutcome {
  emitted: number;
  ordersOk: number;
  ordersFailed: number;
  firstOrderError: string | undefined;
  delivered: number;
  failed: number;
  duplicates: number;
  retriedAttempts: number;
  timedOut: boolean;
  arrivals: ArrivalRecord[];
  /** event id → order POST start (epoch ms), order id, event created_at. */
  events: Map<string, { orderId: number; postStart: number; createdAt: number }>;
  badSignatures: string[];
  verified: number;
}

interface EventDocLite {
  _id: string;
  created_at: Date;
  source?: { id: number };
}

/** Event ids logged for the given orders (the API logs them before answering 201; retried until all are there). */
async function eventsForOrders(ctx: Ctx, orders: OrderResult[], timeoutMs = 30_000): Promise<DeliveryOutcome['events']> {
  const byOrder = new Map(orders.filter((o) => o.ok).map((o) => [o.orderId!, o]));
  const deadline = nowMs() + timeoutMs;
  for (;;) {
    const docs = await ctx.stack.db
      .collection<EventDocLite>('events')
      .find({ 'source.id': { $in: [...byOrder.keys()] } }, { projection: { _id: 1, created_at: 1, source: 1 } })
      .toArray();
    if (docs.length >= byOrder.size || nowMs() > deadline) {
      const out: DeliveryOutcome['events'] = new Map();
      for (const d of docs) {
        const o = byOrder.get(d.source!.id);
        if (!o) continue;
        out.set(d._id, {
          orderId: o.orderId!,
          postStart: o.startedAt,
          createdAt: d.created_at.getTime(),
        });
      }
      return out;
    }
    await sleep(200);
  }
}

/** (event, subscription) pairs that ended failed or stopped, from the attempts and alerts collections. */
async function failedPairs(ctx: Ctx, eventIds: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  const attempts = await ctx.stack.db
    .collection<{ event_id: string; subscription_id: string }>('attempts')
    .find({ event_id: { $in: eventIds }, state: { $in: ['failed', 'stopped'] } }, { projection: { event_id: 1, subscription_id: 1 } })
    .toArray();
  for (const a of attempts) out.add(`${a.event_id}|${a.subscription_id}`);
  const alerts = await ctx.stack.db
    .collection<{ event_id?: string; subscription_id: string }>('alerts')
    .find({ kind: 'delivery_failed', event_id: { $in: eventIds } }, { projection: { event_id: 1, subscription_id: 1 } })
    .toArray();
  for (const a of alerts) out.add(`${a.event_id}|${a.subscription_id}`);
  return out;
}

/**
 * Waits until every expected (event, subscription) is delivered at the receiver or failed in
 * the database, or the drain timeout passes; then collects what arrived.
 */
async function awaitDeliveries(ctx: Ctx, ordersAttempted: number, orders: OrderResult[]): Promise<DeliveryOutcome> {
  const m = ctx.subs.size;
  const emitted = ordersAttempted * m;
  const events = await eventsForOrders(ctx, orders);
  const eventIds = [...events.keys()];
  await ctx.receiver.request({ type: 'expect', eventIds });
  // Gives up only after --drain-timeout seconds without any delivery completing (a stall, not a slow drain).
  let deadline = nowMs() + opts.drainTimeout * 1000;
  let done = -1;
  let failed = new Set<string>();
  let lastDbCheck = nowMs();
  let timedOut = false;
  for (;;) {
    const p = await ctx.receiver.request({ type: 'progress' });
    if (p.seenExpected + failed.size >= eventIds.length * m) break;
    if (p.seenExpected + failed.size > done) {
      done = p.seenExpected + failed.size;
      deadline = nowMs() + opts.drainTimeout * 1000;
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
  const retriedAttempts = await ctx.stack.db
    .collection('attempts')
    .countDocuments({ event_id: { $in: eventIds }, outcome: { $ne: 'delivered' } });
  const ordersOk = orders.filter((x) => x.ok).length;
  return {
    emitted,
    ordersOk,
    ordersFailed: ordersAttempted - ordersOk,
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
}

/**
 * Voids the bench when a delivery went missing or a signature did not verify. `strict` (the
 * throughput run) counts every order sent: emitted = N × M. Otherwise (ingest and latency runs)
 * emitted counts the orders the API accepted, and rejected orders are reported, not voided:
 * they are an API error (see the E11000 note in bench/README.md), not a lost delivery.
 */
function checkComplete(name: string, o: DeliveryOutcome, strict: boolean): void {
  const problems: string[] = [];
  const expected = strict ? o.emitted : o.ordersOk * (o.emitted / Math.max(1, o.ordersOk + o.ordersFailed));
  if (!strict && o.ordersFailed) log(`${name}: WARNING ${o.ordersFailed} order POSTs were rejected after retrying (${o.firstOrderError ?? ''}); measured over the ${o.ordersOk} accepted`);
  if (o.delivered + o.failed !== expected) {
    const why = [
      o.ordersFailed ? `${o.ordersFailed} order POSTs failed (${o.firstOrderError ?? ''})` : '',
      o.events.size < o.ordersOk ? `${o.ordersOk - o.events.size} events not in the event log` : '',
      o.timedOut ? `gave up after ${opts.drainTimeout}s without progress` : '',
    ].filter(Boolean);
    problems.push(`delivered ${o.delivered} + failed ${o.failed} ≠ emitted ${expected}${why.length ? ` (${why.join('; ')})` : ''}`);
  }
  if (o.badSignatures.length) problems.push(`signatures that did not verify: ${o.badSignatures.slice(0, 3).join('; ')}`);
  if (problems.length) throw new VoidRun(`${name}: ${problems.join('; ')}`);
}

/** Delivery latencies (ms) from the order POST start and from the event's created_at to the receiver's first byte. */
function latencies(o: DeliveryOutcome): { fromPost: Summary; fromCreated: Summary } {
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
async function breakdown(ctx: Ctx, o: DeliveryOutcome): Promise<Record<string, Summary>> {
  const eventIds = [...o.events.keys()];
  const client = await ctx.stack.temporal.client();
  const workflowStart = new Map<string, number>();
  for await (const wf of client.workflow.list({ query: `WorkflowType = 'eventWorkflow'` })) workflowStart.set(wf.workflowId, wf.startTime.getTime());
  const dispatchedAt = (eventId: string) => workflowStart.get(eventWorkflowId(eventId));
  const attempts = await ctx.stack.db
    .collection<{ event_id: string; subscription_id: string; attempt: number; started_at: Date }>('attempts')
    .find({ event_id: { $in: eventIds }, attempt: 1 }, { projection: { event_id: 1, subscription_id: 1, started_at: 1 } })
    .toArray();
  const started = new Map(attempts.map((a) => [`${a.event_id}|${a.subscription_id}`, a.started_at.getTime()]));
  const seg: Record<string, number[]> = { 'post→logged': [], 'logged→dispatched': [], 'dispatched→attempt': [], 'attempt→receiver': [] };
  for (const [id, e] of o.events) {
    seg['post→logged']!.push(e.createdAt - e.postStart);
    const d = dispatchedAt(id);
    if (d !== undefined) seg['logged→dispatched']!.push(d - e.createdAt);
  }
  for (const a of o.arrivals) {
    const e = o.events.get(a.eventId);
    const s = started.get(`${a.eventId}|${ctx.subs.get(a.tag)}`);
    if (!e || s === undefined) continue;
    const d = dispatchedAt(a.eventId);
    if (d !== undefined) seg['dispatched→attempt']!.push(s - d);
    seg['attempt→receiver']!.push(a.t - s);
  }
  return Object.fromEntries(Object.entries(seg).map(([k, v]) => [k, summarize(v)]));
}

/** Temporal history gaps of up to 20 event workflows of the run (each delivers to all its subscribers), evenly spread. */
async function sampleHistories(ctx: Ctx, o: DeliveryOutcome) {
  const client = await ctx.stack.temporal.client();
  const events = [...o.events.keys()];
  const pick = <T>(list: T[], n: number) => list.filter((_, i) => i % Math.max(1, Math.floor(list.length / n)) === 0).slice(0, n);
  const event = await historyBreakdown(client, pick(events, 20).map(eventWorkflowId));
  return { delivery: event, event };
}

/** Waits until no workflow is running, so one scenario's tail does not load the next. */
async function quiesce(ctx: Ctx, label: string): Promise<void> {
  const client = await ctx.stack.temporal.client();
  let deadline = nowMs() + opts.drainTimeout * 1000;
  let last = Infinity;
  for (;;) {
    const { count } = await client.workflow.count('ExecutionStatus="Running"');
    if (count === 0) return;
    if (count < last) {
      last = count;
      deadline = nowMs() + opts.drainTimeout * 1000;
    }
    if (nowMs() > deadline) throw new Error(`${label}: ${count} workflows still running, none finished for ${opts.drainTimeout}s`);
    await sleep(250);
  }
}

function serviceCpu(u: CpuUsage): number {
  return ['worker', 'api', 'temporal', 'db'].reduce((s, r) => s + (u.perRole[r] ?? 0), 0);
}

const rate = (count: number, ms: number) => Math.round((count / (ms / 1000)) * 10) / 10;
const r3 = (v: number) => Math.round(v * 1000) / 1000;

async function createSubscription(ctx: Ctx, tag: string, secret: string): Promise<string> {
  const res = await ctx.api.request('POST', '/api/webhooks/v1/subscribe', {
    url: `${ctx.receiver.url}/hook/${tag}`,
    events: ['order.created'],
    secret,
    description: `bench ${tag}`,
  });
  const id = (res.body as { id?: unknown } | undefined)?.id;
  if (res.status !== 201 || typeof id !== 'string') throw new Error(`subscribe failed: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return id;
}

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

// ---------------------------------------------------------------- scenarios

/** Pushes a few orders through a throw-away subscription until they arrive: JIT, worker bundle, pools. */
async function warmUp(ctx: Ctx): Promise<void> {
  const secret = newSecret();
  await ctx.receiver.request({ type: 'configure', secrets: { warmup: secret }, sampleEvery: 1 });
  await ctx.receiver.request({ type: 'reset' });
  const id = await createSubscription(ctx, 'warmup', secret);
  const orders = await closedLoop(5, 5, () => ctx.api.createOrder());
  const bad = orders.find((o) => !o.ok);
  if (bad) throw new Error(`warm-up order failed: HTTP ${bad.status} ${bad.error}`);
  const deadline = nowMs() + 180_000;
  for (;;) {
    const p = await ctx.receiver.request({ type: 'progress' });
    if (p.unique >= orders.length) break;
    if (nowMs() > deadline) throw new Error(`warm-up: ${p.unique}/${orders.length} deliveries arrived within 180 s; the worker may not be polling`);
    await sleep(100);
  }
  const del = await ctx.api.request('DELETE', `/api/webhooks/v1/subscriptions/${id}`);
  if (del.status !== 204) throw new Error(`deleting the warm-up subscription failed: HTTP ${del.status}`);
  const dump = await ctx.receiver.request({ type: 'dump' });
  if (dump.badSignatures.length) throw new VoidRun(`warm-up: signatures did not verify: ${dump.badSignatures.join('; ')}`);
  await quiesce(ctx, 'warm-up');
}

async function ingest(ctx: Ctx, label: string) {
  await ctx.receiver.request({ type: 'reset' });
  log(`${label}: ${opts.ingest} orders, ${opts.concurrency} concurrent clients, ${ctx.subs.size} subscriptions`);
  const cpu0 = ctx.meter.snapshot();
  const t0 = nowMs();
  const orders = await closedLoop(opts.ingest, opts.concurrency, () => ctx.api.createOrder());
  const wall = nowMs() - t0;
  const cpu = CpuMeter.diff(cpu0, ctx.meter.snapshot());
  const ok = orders.filter((o) => o.ok);
  const result = {
    orders: orders.length,
    ok: ok.length,
    errors: orders.length - ok.length,
    http500Retried: orders.reduce((sum, o) => sum + o.retries, 0),
    firstError: orders.find((o) => !o.ok)?.error,
    wallSeconds: r3(wall / 1000),
    requestsPerSecond: rate(ok.length, wall),
    latencyMs: summarize(ok.map((o) => o.latencyMs)),
    cpu,
    apiCpuMsPerRequest: r3(((cpu.perRole.api ?? 0) * 1000) / Math.max(1, ok.length)),
  };
  let deliveries: Record<string, unknown> | undefined;
  let stuck: Record<string, unknown> | undefined;
  if (!ctx.subs.size) stuck = await terminateStuckEventWorkflows(ctx, orders);
  if (ctx.subs.size) {
    const o = await awaitDeliveries(ctx, orders.length, orders);
    checkComplete(label, o, false);
    const last = Math.max(...o.arrivals.map((a) => a.t));
    deliveries = {
      emitted: o.emitted,
      ordersRejected: o.ordersFailed,
      delivered: o.delivered,
      failed: o.failed,
      duplicates: o.duplicates,
      retriedAttempts: o.retriedAttempts,
      deliveriesPerSecond: rate(o.delivered, last - t0),
      drainAfterIngestSeconds: r3((last - t0 - wall) / 1000),
    };
  }
  await quiesce(ctx, label);
  return { ...result, ...(deliveries ? { deliveries } : {}), ...(stuck ? { stuckEventWorkflows: stuck } : {}) };
}

/**
 * Guard for the 0-subscription run: events logged with no subscriber used to lose their empty
 * `subscription_ids` on FerretDB v1 (it drops empty arrays from a `$setOnInsert` upsert; fixed in
 * 3a381b4 by a plain insert), which made every such event workflow fail its task forever. The
 * bench counts events stored without the field, waits briefly for the healthy workflows, and
 * terminates any stuck ones so they cannot load the later scenarios.
 */
async function terminateStuckEventWorkflows(ctx: Ctx, orders: OrderResult[]): Promise<Record<string, unknown>> {
  const events = await eventsForOrders(ctx, orders);
  const ids = [...events.keys()];
  const missing = await ctx.stack.db
    .collection<{ _id: string }>('events')
    .find({ _id: { $in: ids }, subscription_ids: { $exists: false } }, { projection: { _id: 1 } })
    .toArray();
  const client = await ctx.stack.temporal.client();
  const deadline = nowMs() + 15_000;
  let running = 0;
  let terminated = 0;
  for (;;) {
    running = (await client.workflow.count('ExecutionStatus="Running"')).count;
    if (running <= missing.length || nowMs() > deadline) break;
    await sleep(250);
  }
  if (running > 0) {
    for (const e of missing) {
      try {
        await client.workflow.getHandle(eventWorkflowId(e._id)).terminate('bench: event workflow stuck (subscription_ids missing)');
        terminated++;
      } catch {
        // already closed
      }
    }
  }
  if (missing.length) log(`${missing.length} of ${ids.length} events were stored without subscription_ids; ${terminated} stuck event workflows terminated`);
  return { events: ids.length, storedWithoutSubscriptionIds: missing.length, runningAfterIngest: running, terminated };
}

async function throughput(ctx: Ctx) {
  const n = opts.events;
  await ctx.receiver.request({ type: 'reset' });
  log(`throughput: ${n} events × ${ctx.subs.size} subscriptions = ${n * ctx.subs.size} deliveries (${opts.concurrency} concurrent clients)`);
  const cpu0 = ctx.meter.snapshot();
  const t0 = nowMs();
  const orders = await closedLoop(n, opts.concurrency, () => ctx.api.createOrder());
  const postsDone = nowMs();
  const o = await awaitDeliveries(ctx, n, orders);
  const cpu = CpuMeter.diff(cpu0, ctx.meter.snapshot());
  checkComplete('throughput', o, true);
  const first = Math.min(...orders.map((x) => x.startedAt));
  const last = Math.max(...o.arrivals.map((a) => a.t));
  const svc = serviceCpu(cpu);
  const ours = Object.values(cpu.perRole).reduce((a, b) => a + b, 0);
  const lat = latencies(o);
  const temporalHops = await sampleHistories(ctx, o);
  await quiesce(ctx, 'throughput');
  return {
    events: n,
    subscriptions: ctx.subs.size,
    emitted: o.emitted,
    delivered: o.delivered,
    failed: o.failed,
    duplicates: o.duplicates,
    retriedAttempts: o.retriedAttempts,
    signaturesVerified: o.verified,
    postsSeconds: r3((postsDone - t0) / 1000),
    http500Retried: orders.reduce((sum, x) => sum + x.retries, 0),
    firstEventToLastDeliverySeconds: r3((last - first) / 1000),
    deliveriesPerSecond: rate(o.delivered, last - first),
    latencyFromPostMs: lat.fromPost,
    cpu,
    serviceCpuSeconds: r3(svc),
    serviceCpuMsPerDelivery: r3((svc * 1000) / Math.max(1, o.delivered)),
    cpuMsPerDeliveryByRole: Object.fromEntries(Object.entries(cpu.perRole).map(([k, v]) => [k, r3((v * 1000) / Math.max(1, o.delivered))])),
    temporalHops,
    /** Machine CPU used by processes that are not part of this bench (other jobs on the box). */
    otherProcessesCpuSeconds: r3(Math.max(0, cpu.machineBusySeconds - ours)),
  };
}

/** Open loop: orders at fixed times, whatever the service does. */
async function fixedRate(ctx: Ctx, eventsPerSecond: number, count: number, label: string) {
  await ctx.receiver.request({ type: 'reset' });
  const interval = 1000 / eventsPerSecond;
  log(`${label}: ${count} events at ${eventsPerSecond.toFixed(2)} events/s × ${ctx.subs.size} subscriptions`);
  const cpu0 = ctx.meter.snapshot();
  const t0 = nowMs() + 20;
  const pending: Array<Promise<OrderResult>> = [];
  let lateMs = 0;
  for (let i = 0; i < count; i++) {
    const at = t0 + i * interval;
    const wait = at - nowMs();
    if (wait > 0) await sleep(wait);
    lateMs = Math.max(lateMs, nowMs() - at);
    pending.push(ctx.api.createOrder());
  }
  const orders = await Promise.all(pending);
  const o = await awaitDeliveries(ctx, count, orders);
  const cpu = CpuMeter.diff(cpu0, ctx.meter.snapshot());
  checkComplete(label, o, false);
  const lat = latencies(o);
  const first = Math.min(...orders.map((x) => x.startedAt));
  const lastPost = Math.max(...orders.map((x) => x.startedAt));
  const result = {
    events: count,
    subscriptions: ctx.subs.size,
    offeredEventsPerSecond: r3(eventsPerSecond),
    offeredDeliveriesPerSecond: r3(eventsPerSecond * ctx.subs.size),
    achievedOfferedDeliveriesPerSecond: count > 1 ? rate((count - 1) * ctx.subs.size, lastPost - first) : undefined,
    /** Deliveries/s actually completed, first POST to last arrival (below the offered rate when overloaded). */
    completedDeliveriesPerSecond: rate(o.delivered, Math.max(...o.arrivals.map((a) => a.t)) - first),
    maxSendLagMs: Math.round(lateMs),
    ordersRejected: o.ordersFailed,
    http500Retried: orders.reduce((sum, x) => sum + x.retries, 0),
    emitted: o.emitted,
    delivered: o.delivered,
    failed: o.failed,
    duplicates: o.duplicates,
    retriedAttempts: o.retriedAttempts,
    postLatencyMs: summarize(orders.filter((x) => x.ok).map((x) => x.latencyMs)),
    latencyFromPostMs: lat.fromPost,
    latencyFromCreatedAtMs: lat.fromCreated,
    breakdownMs: await breakdown(ctx, o),
    temporalHops: await sampleHistories(ctx, o),
    serviceCpuMsPerDelivery: r3((serviceCpu(cpu) * 1000) / Math.max(1, o.delivered)),
    cpu,
  };
  await quiesce(ctx, label);
  return result;
}

/** The same fan-out without the service: sign and POST each delivery from a plain in-process loop. */
async function baseline(ctx: Ctx) {
  const tags = [...ctx.subs.keys()];
  const secrets = ctx.subs;
  const secretOf = new Map<string, string>();
  const subSecrets = (await ctx.stack.db
    .collection<{ _id: string; secrets: Array<{ secret: string }> }>('subscriptions')
    .find({ _id: { $in: [...secrets.values()] } })
    .toArray()) as Array<{ _id: string; secrets: Array<{ secret: string }> }>;
  for (const [tag, id] of secrets) secretOf.set(tag, subSecrets.find((s) => s._id === id)!.secrets[0]!.secret);
  const run = async (prefix: string, events: number) => {
    await ctx.receiver.request({ type: 'reset' });
    const jobs = Array.from({ length: events * tags.length }, (_, i) => ({ event: `evt_${prefix}_${Math.floor(i / tags.length)}`, tag: tags[i % tags.length]! }));
    await ctx.receiver.request({ type: 'expect', eventIds: [...new Set(jobs.map((j) => j.event))] });
    const cpu0 = process.cpuUsage();
    const t0 = nowMs();
    const starts = new Map<string, number>();
    const results = await closedLoop(jobs.length, opts.baselineConcurrency, async (i) => {
      const job = jobs[i]!;
      const start = nowMs();
      starts.set(`${job.event}|${job.tag}`, start);
      const createdAt = new Date();
      const body = renderEnvelope(1, { id: job.event, type: 'order.created', data: { order_id: i, total: 1, currency: 'EUR', status: 'pending', user_id: 1 }, created_at: createdAt });
      const headers = {
        'Content-Type': 'application/json',
        'User-Agent': 'WebhookService/bench-baseline',
        ...signatureHeaders({ id: job.event, timestamp: Math.floor(createdAt.getTime() / 1000), body, secrets: [secretOf.get(job.tag)!] }),
      };
      return postWebhook({ url: `${ctx.receiver.url}/hook/${job.tag}`, body, headers, timeoutMs: 5000, allowPrivate: true });
    });
    const cpu = process.cpuUsage(cpu0);
    const dump = await ctx.receiver.request({ type: 'dump' }, 60_000);
    const arrivals = dump.arrivals.filter((a) => starts.has(`${a.eventId}|${a.tag}`));
    const last = Math.max(...arrivals.map((a) => a.t));
    return {
      deliveries: jobs.length,
      delivered: results.filter((r) => r.outcome === 'delivered').length,
      arrived: arrivals.length,
      badSignatures: dump.badSignatures,
      deliveriesPerSecond: rate(arrivals.length, last - t0),
      latencyMs: summarize(arrivals.map((a) => a.t - starts.get(`${a.eventId}|${a.tag}`)!)),
      postRoundTripMs: summarize(results.map((r) => r.durationMs)),
      benchCpuMsPerDelivery: r3((cpu.user + cpu.system) / 1000 / Math.max(1, jobs.length)),
    };
  };
  await run('baseline_warm', 20);
  log(`baseline: ${opts.events} × ${tags.length} deliveries signed and POSTed in-process, concurrency ${opts.baselineConcurrency}`);
  const r = await run('baseline', opts.events);
  if (r.arrived !== r.deliveries || r.badSignatures.length) {
    throw new VoidRun(`baseline: ${r.arrived}/${r.deliveries} arrived${r.badSignatures.length ? `; bad signatures: ${r.badSignatures.join('; ')}` : ''}`);
  }
  // Single deliveries 1 apart in time, like the idle run: the floor of one signed POST.
  const single: number[] = [];
  for (let i = 0; i < 20; i++) {
    await ctx.receiver.request({ type: 'reset' });
    const id = `evt_baseline_idle_${i}`;
    const start = nowMs();
    const body = renderEnvelope(1, { id, type: 'order.created', data: { order_id: i }, created_at: new Date() });
    const headers = { 'Content-Type': 'application/json', ...signatureHeaders({ id, timestamp: Math.floor(Date.now() / 1000), body, secrets: [secretOf.get(tags[0]!)!] }) };
    await postWebhook({ url: `${ctx.receiver.url}/hook/${tags[0]}`, body, headers, timeoutMs: 5000, allowPrivate: true });
    const dump = await ctx.receiver.request({ type: 'dump' });
    const a = dump.arrivals.find((x) => x.eventId === id);
    if (a) single.push(a.t - start);
    await sleep(20);
  }
  return { ...r, concurrency: opts.baselineConcurrency, singleDeliveryLatencyMs: summarize(single) };
}

/**
 * CPU the service burns with nothing to do, over 10 s at the end: the relay's passes (every
 * RELAY_INTERVAL) and the servers' own timers. Reported with the collection sizes, since the
 * relay's queries scan orders and events.
 */
async function background(ctx: Ctx) {
  const seconds = 10;
  log(`background: ${seconds} s with no load`);
  const cpu0 = ctx.meter.snapshot();
  await sleep(seconds * 1000);
  const cpu = CpuMeter.diff(cpu0, ctx.meter.snapshot());
  const perSecond = Object.fromEntries(Object.entries(cpu.perRole).map(([k, v]) => [k, r3((v * 1000) / cpu.wallSeconds)]));
  // What the relay's two queries and a single-document read/write cost at this size (ms, median of 5).
  const db = ctx.stack.db;
  const time = async (f: () => Promise<unknown>) => {
    const v: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await f();
      v.push(performance.now() - t);
    }
    return summarize(v).p50;
  };
  const anyEvent = await db.collection<{ _id: string }>('events').findOne({}, { projection: { _id: 1 } });
  const dbProbeMs = {
    relayNotes: await time(() => db.collection('dispatch_notes').find({ created_at: { $lt: new Date(Date.now() - 1000) } }).limit(200).toArray()),
    orderById: await time(() => db.collection('orders').findOne({ _id: '1' } as object)),
    eventById: await time(() => db.collection('events').findOne({ _id: anyEvent?._id ?? '' } as object)),
    eventUpdateById: await time(() => db.collection('events').updateOne({ _id: anyEvent?._id ?? '' } as object, { $set: { bench_touch: 1 } })),
  };
  return {
    seconds,
    cpuMsPerSecondByRole: perSecond,
    dbProbeMs,
    orders: await ctx.stack.db.collection('orders').estimatedDocumentCount(),
    events: await ctx.stack.db.collection('events').estimatedDocumentCount(),
  };
}

// ---------------------------------------------------------------- report

type Row = [string, string, string];

function table(rows: Row[]): string {
  const w = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: Row) => `  ${r[0].padEnd(w[0]!)}  ${r[1].padStart(w[1]!)}  ${r[2]}`;
  return rows.map(line).join('\n');
}

const fmt = (v: number | undefined, digits = 1) => (v === undefined || Number.isNaN(v) ? '–' : v.toFixed(digits));
const hops = (h: HistoryBreakdown) =>
  `${h.workflowTasksPerWorkflow} workflow tasks each; ` +
  Object.entries(h.gaps)
    .slice(0, 4)
    .map(([k, v]) => `${k}: p50 ${fmt(v.p50)} ms (${fmt(v.sharePercent, 0)}%)`)
    .join('; ');
const lat = (s: Summary) => `p50 ${fmt(s.p50)}  p90 ${fmt(s.p90)}  p99 ${fmt(s.p99)}  max ${fmt(s.max)} ms (n=${s.count})`;

/** The commit measured, and whether the tree had local changes (others edit concurrently). */
function gitDescribe(): { commit?: string; dirtyFiles?: number } {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean).length;
    return { commit, dirtyFiles: dirty };
  } catch {
    return {};
  }
}

// ---------------------------------------------------------------- main

async function main(): Promise<number> {
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      loadAverageAtStart: loadAverage(),
    },
    options: opts,
    git: gitDescribe(),
  };
  const outFile = resolve(root, opts.out);
  const save = () => {
    mkdirSync(dirname(outFile), { recursive: true });
    writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
  };

  log(`starting embedded servers (fastSqlite ${opts.fastSqlite}), API, worker and receiver`);
  const stack = await startStack(opts, cleanups, log);
  const receiver = await ReceiverProcess.start();
  cleanups.push({ name: 'receiver', fn: () => receiver.stop() });
  const api = new ApiClient(stack.apiUrl, stack.apiKey, Math.max(64, opts.concurrency));
  cleanups.push({ name: 'api client', fn: () => api.close() });
  const meter = new CpuMeter(
    () => ({ ...stack.pids, receiver: receiver.pid }),
    () => ({ bench: process.pid }),
  );
  const ctx: Ctx = { stack, api, receiver, subs: new Map(), meter };
  results.stack = {
    database: stack.dbDescription,
    temporal: 'Temporal CLI v1.5.1 dev server (SQLite file, headless)',
    fastSqlite: opts.fastSqlite,
    dataDir: stack.dataDir,
    serviceEnv: Object.fromEntries(Object.entries(stack.serviceEnv).filter(([k]) => !['MONGODB_URI', 'TEMPORAL_ADDRESS', 'DATA_DIR', 'PORT'].includes(k))),
    receiver: 'separate node:http process (bench/receiver.ts)',
  };
  log(`up: ${stack.dbDescription}; API ${stack.apiUrl}; receiver ${receiver.url}; pids ${JSON.stringify({ ...stack.pids, receiver: receiver.pid })}`);

  const want = (name: string) => opts.scenarios.includes(name);
  try {
    log('warm-up (first deliveries also wait for the worker to bundle its workflows)');
    const w0 = nowMs();
    await warmUp(ctx);
    log(`warm-up done in ${((nowMs() - w0) / 1000).toFixed(1)}s`);
    if (opts.profile) {
      for (const pid of [stack.pids.api, stack.pids.worker]) if (pid) process.kill(pid, 'SIGUSR2');
      log('profiling the API and worker main threads from now on; profiles are written to .data/bench/profiles/ when they stop');
    }

    // Subscriptions for the measured runs (created after the 0-subscription ingest run).
    const secrets: Record<string, string> = {};
    for (let i = 0; i < opts.subs; i++) secrets[`s${i}`] = newSecret();
    await receiver.request({ type: 'configure', secrets, sampleEvery: opts.sampleEvery });

    if (want('ingest0')) {
      results.ingestNoSubscriptions = await ingest(ctx, 'ingest, 0 subscriptions');
      save();
    }
    for (const [tag, secret] of Object.entries(secrets)) ctx.subs.set(tag, await createSubscription(ctx, tag, secret));
    if (want('baseline')) {
      results.baseline = await baseline(ctx);
      save();
    }
    if (want('ingest')) {
      results.ingestWithSubscriptions = await ingest(ctx, `ingest, ${opts.subs} subscriptions`);
      save();
    }
    if (want('throughput')) {
      results.throughput = await throughput(ctx);
      save();
    }
    if (want('rate')) {
      const eventsPerSecond = opts.rate / opts.subs;
      results.fixedRate = await fixedRate(ctx, eventsPerSecond, Math.max(2, Math.round(eventsPerSecond * opts.duration)), `latency at ${opts.rate} deliveries/s`);
      save();
    }
    if (want('idle')) {
      results.idle = await fixedRate(ctx, 1, opts.idleEvents, 'idle latency, events 1 s apart');
      save();
    }
    results.background = await background(ctx);
    save();
  } catch (err) {
    if (err instanceof VoidRun) {
      results.void = err.message;
      results.machine = { ...(results.machine as object), loadAverageAtEnd: loadAverage() };
      results.serviceOutput = stack.outputLines;
      save();
      process.stdout.write(`\nVOID: ${err.message}\nPartial results in ${outFile}\n`);
      return 1;
    }
    throw err;
  }
  results.machine = { ...(results.machine as object), loadAverageAtEnd: loadAverage() };
  results.serviceOutput = stack.outputLines;

  // ---- report
  const ing0 = results.ingestNoSubscriptions as Awaited<ReturnType<typeof ingest>> | undefined;
  const ingM = results.ingestWithSubscriptions as Awaited<ReturnType<typeof ingest>> | undefined;
  const tp = results.throughput as Awaited<ReturnType<typeof throughput>> | undefined;
  const fr = results.fixedRate as Awaited<ReturnType<typeof fixedRate>> | undefined;
  const idle = results.idle as Awaited<ReturnType<typeof fixedRate>> | undefined;
  const base = results.baseline as Awaited<ReturnType<typeof baseline>> | undefined;

  const targets = [
    // The 1.0 targets (issue 8) for M=5; M=50 aims at 500 deliveries/s.
    ...(tp ? [{ target: 'throughput ≥ 150 deliveries/s', value: tp.deliveriesPerSecond, pass: tp.deliveriesPerSecond >= 150, unit: 'deliveries/s' }] : []),
    ...(tp ? [{ target: 'CPU per delivery ≤ 10 ms', value: tp.serviceCpuMsPerDelivery, pass: tp.serviceCpuMsPerDelivery <= 10, unit: 'ms' }] : []),
    ...(idle ? [{ target: 'idle p50 ≤ 60 ms', value: idle.latencyFromPostMs.p50, pass: idle.latencyFromPostMs.p50 <= 60, unit: 'ms' }] : []),
    ...(ing0 ? [{ target: 'ingest with 0 subscriptions ≥ 200 orders/s', value: ing0.requestsPerSecond, pass: ing0.requestsPerSecond >= 200, unit: 'orders/s' }] : []),
    ...(ing0 ? [{ target: 'API CPU ≤ 4 ms per order', value: ing0.apiCpuMsPerRequest, pass: ing0.apiCpuMsPerRequest <= 4, unit: 'ms' }] : []),
    ...(ingM ? [{ target: 'ingest with M subscriptions ≥ 80 orders/s', value: ingM.requestsPerSecond, pass: ingM.requestsPerSecond >= 80, unit: 'orders/s' }] : []),
    ...(fr ? [{ target: `p99 ≤ 1 s at ${opts.rate} deliveries/s`, value: fr.latencyFromPostMs.p99, pass: fr.latencyFromPostMs.p99 <= 1000, unit: 'ms' }] : []),
  ];
  results.targets = targets;
  const ratios = {
    ...(tp && base ? { throughputServiceOverBaseline: r3(tp.deliveriesPerSecond / base.deliveriesPerSecond) } : {}),
    ...(idle && base ? { idleP50ServiceOverBaselineSingle: r3(idle.latencyFromPostMs.p50 / base.singleDeliveryLatencyMs.p50) } : {}),
    ...(tp && base ? { cpuPerDeliveryServiceOverBaseline: r3(tp.serviceCpuMsPerDelivery / base.benchCpuMsPerDelivery) } : {}),
  };
  results.ratios = ratios;
  save();

  const rows: Row[] = [['Scenario', 'Value', 'Detail']];
  if (ing0) {
    rows.push(['a. ingest, 0 subs', `${fmt(ing0.requestsPerSecond)} req/s`, `${ing0.ok}/${ing0.orders} orders, C=${opts.concurrency}; latency ${lat(ing0.latencyMs)}; API CPU ${fmt(ing0.apiCpuMsPerRequest, 2)} ms/req; HTTP 500 retried ${ing0.http500Retried}`]);
  }
  if (ingM) {
    const d = ingM.deliveries as { deliveriesPerSecond: number } | undefined;
    rows.push(['a. ingest, M subs', `${fmt(ingM.requestsPerSecond)} req/s`, `${ingM.ok}/${ingM.orders} orders × ${opts.subs} subs; latency ${lat(ingM.latencyMs)}; HTTP 500 retried ${ingM.http500Retried}; deliveries meanwhile ${fmt(d?.deliveriesPerSecond)}/s`]);
  }
  if (tp) {
    rows.push(['b. throughput', `${fmt(tp.deliveriesPerSecond)} del/s`, `${tp.events} events × ${tp.subscriptions} subs = ${tp.emitted}; delivered ${tp.delivered}, failed ${tp.failed}, dups ${tp.duplicates}, retried attempts ${tp.retriedAttempts}; first event → last delivery ${fmt(tp.firstEventToLastDeliverySeconds, 2)} s`]);
    rows.push(['b. latency in throughput run', `p50 ${fmt(tp.latencyFromPostMs.p50, 0)} ms`, lat(tp.latencyFromPostMs)]);
    rows.push(['b. event workflow time', `p50 ${fmt(tp.temporalHops.delivery.total.p50, 0)} ms`, hops(tp.temporalHops.delivery)]);
  }
  if (fr) {
    rows.push(['c. latency at fixed rate', `p99 ${fmt(fr.latencyFromPostMs.p99, 0)} ms`, `${fmt(fr.offeredDeliveriesPerSecond)} del/s offered (${fmt(fr.achievedOfferedDeliveriesPerSecond)} sent, ${fmt(fr.completedDeliveriesPerSecond)} completed) for ${opts.duration}s; ${lat(fr.latencyFromPostMs)}; HTTP 500 retried ${fr.http500Retried}, orders rejected after 60 s of retries ${fr.ordersRejected}`]);
    rows.push(['c. event workflow time', `p50 ${fmt(fr.temporalHops.delivery.total.p50, 0)} ms`, hops(fr.temporalHops.delivery)]);
    rows.push(['c. fixed-rate breakdown (p50)', '', `${Object.entries(fr.breakdownMs).map(([k, v]) => `${k} ${fmt(v.p50)}`).join(', ')} ms`]);
  }
  if (idle) {
    rows.push(['c. idle latency', `p50 ${fmt(idle.latencyFromPostMs.p50, 0)} ms`, `${idle.events} events 1 s apart × ${idle.subscriptions} subs; ${lat(idle.latencyFromPostMs)}; POST ${lat(idle.postLatencyMs)}`]);
    rows.push(['c. idle breakdown (p50)', '', `${Object.entries(idle.breakdownMs).map(([k, v]) => `${k} ${fmt(v.p50)}`).join(', ')} ms`]);
  }
  if (tp) {
    rows.push(['d. CPU per delivery', `${fmt(tp.serviceCpuMsPerDelivery, 2)} ms`, `worker+API+Temporal+DB over the throughput run: ${Object.entries(tp.cpuMsPerDeliveryByRole).map(([k, v]) => `${k} ${fmt(v, 2)}`).join(', ')} ms; other processes on the machine ${fmt(tp.otherProcessesCpuSeconds)} CPU-s of ${fmt(tp.cpu.machineTotalSeconds)}`]);
  }
  if (base) {
    rows.push(['e. baseline throughput', `${fmt(base.deliveriesPerSecond)} del/s`, `in-process sign+POST, concurrency ${base.concurrency}; latency ${lat(base.latencyMs)}; ${fmt(base.benchCpuMsPerDelivery, 3)} CPU-ms/delivery`]);
    rows.push(['e. baseline single delivery', `p50 ${fmt(base.singleDeliveryLatencyMs.p50, 2)} ms`, lat(base.singleDeliveryLatencyMs)]);
  }
  const bg = results.background as Awaited<ReturnType<typeof background>> | undefined;
  if (bg) {
    rows.push(['background CPU, no load', `${fmt(['worker', 'api', 'temporal', 'db'].reduce((a, k) => a + (bg.cpuMsPerSecondByRole[k] ?? 0), 0), 0)} ms/s`, `${Object.entries(bg.cpuMsPerSecondByRole).map(([k, v]) => `${k} ${fmt(v, 0)}`).join(', ')} CPU-ms per second, with ${bg.orders} orders and ${bg.events} events stored; relay query ${fmt(bg.dbProbeMs.relayNotes)} ms, order by id ${fmt(bg.dbProbeMs.orderById)} ms, event by id ${fmt(bg.dbProbeMs.eventById)} ms, update by id ${fmt(bg.dbProbeMs.eventUpdateById)} ms`]);
  }
  if (Object.keys(ratios).length) {
    rows.push([
      'e. ratios service/baseline',
      ratios.throughputServiceOverBaseline !== undefined ? `${fmt(ratios.throughputServiceOverBaseline, 4)}×` : '',
      [
        ratios.throughputServiceOverBaseline !== undefined ? `throughput ${fmt(ratios.throughputServiceOverBaseline, 4)}×` : '',
        ratios.idleP50ServiceOverBaselineSingle !== undefined ? `idle p50 ${fmt(ratios.idleP50ServiceOverBaselineSingle, 0)}×` : '',
        ratios.cpuPerDeliveryServiceOverBaseline !== undefined ? `CPU/delivery ${fmt(ratios.cpuPerDeliveryServiceOverBaseline, 0)}×` : '',
      ].filter(Boolean).join(', '),
    ]);
  }
  process.stdout.write(
    `\nWebhook service bench — ${new Date().toISOString()} — ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, commit ${(results.git as { commit?: string }).commit?.slice(0, 7) ?? '?'}${(results.git as { dirtyFiles?: number }).dirtyFiles ? ` + ${(results.git as { dirtyFiles?: number }).dirtyFiles} changed files` : ''}\n` +
      `Stack: ${stack.dbDescription.replace(/, data in .*/, '')}; ${stack.config.temporal.address ? `external Temporal at ${stack.config.temporal.address} (TEMPORAL_ADDRESS; its CPU is not counted)` : `Temporal dev server SQLite fastSqlite=${opts.fastSqlite}`}; LOG_LEVEL=${opts.logLevel}, RELAY_INTERVAL=${opts.relayInterval}\n` +
      `Load average at start ${(results.machine as { loadAverageAtStart: number[] }).loadAverageAtStart.join(' ')}, at end ${loadAverage().join(' ')}\n\n` +
      `${table(rows)}\n\nTargets (informational):\n` +
      targets.map((t) => `  ${t.pass ? 'PASS' : 'MISS'}  ${t.target}: ${fmt(t.value)} ${t.unit}`).join('\n') +
      `\n\nJSON: ${outFile}\n`,
  );
  return 0;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  if (forcedExit === undefined) log(`bench failed: ${(err as Error).stack ?? String(err)}`);
  code = 1;
} finally {
  clearTimeout(watchdog);
  if (forcedExit === undefined) log('stopping everything');
  await cleanup();
}
process.exit(forcedExit ?? code);
