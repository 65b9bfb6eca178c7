import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import type { ServerResponse } from 'node:http';
import type { Client } from '@temporalio/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAlertActivities } from '../../../activities/alerts';
import type { WebhookServiceClient } from '../../../src/client';
import { AttemptRepository } from '../../../src/deliveries/attempts';
import { HeldDeliveryRepository, type HeldDoc, heldSlot } from '../../../src/deliveries/held';
import { type HoldSweepDeps, sweepHoldsOnce } from '../../../src/deliveries/hold-sweep';
import { createLogger } from '../../../src/logger';
import { newId } from '../../../src/db/ids';
import { seedDemoData } from '../../../src/seed/seed';
import { DEFAULT_DRAIN_RATE, EXPIRY_GRACE_MS } from '../../../src/subscriptions/hold';
import { SubscriptionRepository } from '../../../src/subscriptions/repository';
import { drainStarter } from '../../../src/temporal/start-drain';
import { DRAIN_PAGE_SIZE } from '../../../workflows/drain';
import { drainWorkflowId, eventWorkflowId, heldDeliveryWorkflowId } from '../../../workflows/ids';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { eventOutcome, redeliveryRuns, terminateLeftRunning } from '../../support/event-workflows';
import { type Received, startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

const v1 = '/api/webhooks/v1';
const idOf = (r: Received) => (JSON.parse(r.body) as { id: string }).id;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Pause holds, resume drains (docs/delivery.md): a paused subscription still gets its events,
 * each delivery that comes due is held (a record, no waiting workflow); resume drains them in
 * emission order, once; past SUBSCRIPTION_HOLD_MAX they fail as `hold_expired` with one alert; a
 * pause made before holds existed still cancels.
 */
describe('a pause holds deliveries and a resume drains them', () => {
  let api: TestApi;
  let worker: TestWorker;
  let temporal: Client;
  let sweep: HoldSweepDeps;
  const receivers: TestReceiver[] = [];

  beforeAll(async () => {
    api = await startTestApi({ DELIVERY_RETRY_SCHEDULE: '300ms', DELIVERY_MAX_ATTEMPTS: '5', DELIVERY_JITTER: '0', SUBSCRIPTION_HOLD_MAX: '1h' });
    // Enough stock for the orders of every test here, the page-and-more one included.
    await seedDemoData(api.mongo.db, { stock: 10_000 });
    worker = await startTestWorker(api, { holdMaxMs: api.config.delivery.holdMaxMs });
    temporal = await api.temporal.client();
    // The worker's sweep, as composeWorker builds it; alerts stored only (no ADMIN_ALERT_URL).
    sweep = {
      held: new HeldDeliveryRepository(api.mongo.db),
      subscriptions: new SubscriptionRepository(api.mongo.db),
      attempts: new AttemptRepository(api.mongo.db),
      raiseAlert: createAlertActivities({ db: api.mongo.db, allowPrivate: true, timeoutMs: 5000, userAgent: 'test' }).raiseAlert,
      startDrain: drainStarter(() => api.temporal.client(), { taskQueue: api.config.temporal.taskQueue, policy: api.config.delivery.policy, batchSize: api.config.delivery.batchSize }),
      holdMaxMs: api.config.delivery.holdMaxMs,
      logger: createLogger('silent', 'test'),
    };
  });
  afterEach(async () => {
    expect(await terminateLeftRunning(temporal, api.config.temporal.taskQueue)).toEqual([]);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await worker.stop();
    await api.close();
  });

  async function receiver(respond: (n: number, req: Received, res: ServerResponse) => unknown = (_n, _req, res) => res.writeHead(200).end()) {
    const r = await startReceiver((req, res, n) => respond(n, req, res));
    receivers.push(r);
    return r;
  }
  async function owner() {
    return (await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write'], `owner-${randomUUID().slice(0, 8)}`)).client;
  }
  const path = (id: string) => ({ params: { path: { subscription_id: id } } });
  async function setStatus(client: WebhookServiceClient, id: string, status: 'active' | 'paused') {
    const res = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { ...path(id), body: { status } });
    expect(res.response.status).toBe(200);
    return res.data!;
  }
  async function read(client: WebhookServiceClient, id: string) {
    return (await client.GET(`${v1}/subscriptions/{subscription_id}`, path(id))).data!;
  }
  /** Creates an order and returns the id of its order.created event. */
  async function order(client: WebhookServiceClient): Promise<string> {
    const res = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 3, quantity: 1 }] } });
    expect(res.response.status).toBe(201);
    return (await api.deps.resources.orders.outboxOf(res.data!.id)).find((e) => e.type === 'order.created')!.id;
  }
  /** A new subscription to `url` (draining at `drainRate`, when given), paused, holding the order.created events of `n` orders (their ids, in emission order). */
  async function pausedHolding(url: string, n: number, drainRate?: number) {
    const client = await owner();
    const sub = (await client.POST(`${v1}/subscribe`, { body: { url, events: ['order.created'], ...(drainRate ? { drain_rate: drainRate } : {}) } })).data!;
    await setStatus(client, sub.id, 'paused');
    const emitted: string[] = [];
    for (let i = 0; i < n; i++) emitted.push(await order(client));
    await waitFor(async () => (await read(client, sub.id)).held?.count === n, 30_000);
    return { client, sub, emitted };
  }
  async function attempts(client: WebhookServiceClient, id: string) {
    return (await client.GET(`${v1}/subscriptions/{subscription_id}/attempts`, { ...path(id), params: { ...path(id).params, query: { limit: 100 } } })).data!.data;
  }
  /** Waits for the subscription's drain to end, and returns how it ended. */
  async function drained(id: string) {
    return temporal.workflow.getHandle(drainWorkflowId(id)).result() as Promise<{ started: number; ended: string }>;
  }

  it('holds what a steady trickle emits during the pause and delivers it after the resume, in emission order, none lost and none twice', async () => {
    const arrivedAt = new Map<string, number>();
    const r = await receiver((_n, req, res) => {
      arrivedAt.set(idOf(req), Date.now());
      res.writeHead(200).end();
    });
    const client = await owner();
    const sub = (await client.POST(`${v1}/subscribe`, { body: { url: r.url, events: ['order.created'], drain_rate: 5 } })).data!;
    const before: string[] = [];
    const during: string[] = [];
    const after: string[] = [];
    for (let i = 0; i < 4; i++) before.push(await order(client));
    // Delivered before the pause: on a busy machine a first attempt could otherwise come due after it, and be held too.
    await waitFor(() => before.every((id) => arrivedAt.has(id)), 30_000);
    const paused = await setStatus(client, sub.id, 'paused');
    expect(paused.held?.count).toBe(0);
    const since = paused.held!.since;
    expect(Date.parse(since!)).toBeLessThanOrEqual(Date.now());
    // A steady trickle while paused: nothing reaches the receiver, each delivery is held.
    for (let i = 0; i < 12; i++) {
      during.push(await order(client));
      await sleep(150);
    }
    await waitFor(async () => (await read(client, sub.id)).held?.count === during.length, 30_000);
    expect(during.some((id) => arrivedAt.has(id))).toBe(false);
    const listed = (await client.GET(`${v1}/subscriptions`, {})).data!.data.find((s) => s.id === sub.id)!;
    expect(listed.held).toEqual({ count: during.length, since });
    // The held delivery's own run ended, cancelled for this subscription: no workflow waits out the pause.
    expect(await eventOutcome(temporal, eventWorkflowId(during[0]!))).toMatchObject({ state: 'cancelled', subscriptions: { [sub.id]: { state: 'cancelled' } } });

    const resumedAt = Date.now();
    const resumed = await setStatus(client, sub.id, 'active');
    // Resumed: no `since` any more; what is still held is being sent.
    expect(resumed.held?.since).toBeUndefined();
    for (let i = 0; i < 4; i++) after.push(await order(client));
    expect(await drained(sub.id)).toMatchObject({ started: during.length, ended: 'drained' });
    await waitFor(() => [...before, ...during, ...after].every((id) => arrivedAt.has(id)), 30_000);

    expect(r.received).toHaveLength(before.length + during.length + after.length);
    expect(during.every((id) => arrivedAt.get(id)! >= resumedAt)).toBe(true);
    const arrivalOrder = r.received.map(idOf).filter((id) => during.includes(id));
    expect(arrivalOrder).toEqual(during);
    expect((await read(client, sub.id)).held).toBeUndefined();
    const logged = await attempts(client, sub.id);
    expect(logged.filter((a) => during.includes(a.event_id)).map((a) => [a.attempt, a.state])).toEqual(during.map(() => [1, 'delivered']));
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
  }, 90_000);

  it('drains more than a page of held deliveries at the default rate, each once, in emission order', async () => {
    const r = await receiver();
    const n = DRAIN_PAGE_SIZE + 20;
    const { client, sub, emitted } = await pausedHolding(r.url, n);
    await setStatus(client, sub.id, 'active');
    expect(await drained(sub.id)).toMatchObject({ started: n, ended: 'drained' });
    await waitFor(() => r.received.length >= n, 60_000);
    await sleep(500);
    expect(r.received.map(idOf)).toEqual(emitted);
    // Reported, not asserted: the rate reached on this machine (DEFAULT_DRAIN_RATE asked).
    const at = r.received.map((x) => x.at);
    console.log(`drained ${n} held deliveries at ${(((n - 1) * 1000) / (at[n - 1]! - at[0]!)).toFixed(1)}/s (asked ${DEFAULT_DRAIN_RATE}/s; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
  }, 180_000);

  it('shows in the delivery timeline a drained first attempt pending until its turn', async () => {
    const r = await receiver();
    const { client, sub, emitted } = await pausedHolding(r.url, 4, 1);
    await setStatus(client, sub.id, 'active');
    // The last goes 3 s after the first at 1/s: its run, started with the page, waits till then.
    const last = emitted[emitted.length - 1]!;
    const timeline = async () => (await client.GET(`${v1}/subscriptions/{subscription_id}/events/{event_id}/delivery`, { params: { path: { subscription_id: sub.id, event_id: last } } })).data!;
    let seen: Awaited<ReturnType<typeof timeline>> | undefined;
    await waitFor(async () => {
      const tl = await timeline();
      if (tl.next.at !== undefined && /drain_rate/.test(tl.next.reason ?? '')) seen = tl;
      return seen !== undefined || r.received.length >= emitted.length;
    }, 30_000);
    expect(seen?.next).toMatchObject({ final: false, state: 'pending', attempt: 1 });
    expect(await drained(sub.id)).toMatchObject({ started: emitted.length, ended: 'drained' });
    await waitFor(() => r.received.length >= emitted.length, 20_000);
    expect(r.received.map(idOf)).toEqual(emitted);
    expect((await timeline()).next).toMatchObject({ final: true, state: 'delivered' });
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
  }, 60_000);

  it('does not hold up the runs after one whose id an earlier drain used', async () => {
    const r = await receiver();
    const { client, sub, emitted } = await pausedHolding(r.url, 3);
    const second = (await api.mongo.db.collection<HeldDoc>('held_deliveries').findOne({ subscription_id: sub.id, event_id: emitted[1] }))!;
    // The second's run id taken, as by a drain stopped between its starts and their release: a run that ended, sending nothing.
    const used = await temporal.workflow.start('drainWorkflow', { workflowId: heldDeliveryWorkflowId(second.event_id, second._id), taskQueue: api.config.temporal.taskQueue, args: [{ subscriptionId: `sub_gone_${randomUUID()}`, policy: api.config.delivery.policy, batchSize: api.config.delivery.batchSize }] });
    await used.result();
    await setStatus(client, sub.id, 'active');
    expect(await drained(sub.id)).toMatchObject({ started: emitted.length, ended: 'drained' });
    await waitFor(() => r.received.length >= 2, 20_000);
    expect(r.received.map(idOf)).toEqual([emitted[0], emitted[2]]);
    // The first run tries its turn on the used id a few times (a run may still be starting) before it ends.
    for (const id of [emitted[0]!, emitted[2]!]) for (const run of await redeliveryRuns(temporal, id)) await eventOutcome(temporal, run);
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
  }, 60_000);

  it('holds a retry that comes due during the pause and makes it after the resume', async () => {
    const client = await owner();
    let pause: () => Promise<unknown> = () => Promise.reject(new Error('not subscribed yet'));
    // The first attempt pauses the subscription before it answers 503: its retry comes due while paused.
    const r = await receiver((n, _req, res) => (n > 1 ? res.writeHead(200).end() : void pause().finally(() => res.writeHead(503).end())));
    const sub = (await client.POST(`${v1}/subscribe`, { body: { url: r.url, events: ['webhook.test'] } })).data!;
    pause = () => setStatus(client, sub.id, 'paused');
    const eventId = (await client.POST(`${v1}/subscriptions/{subscription_id}/test`, path(sub.id))).data!.event_id;
    await waitFor(async () => (await read(client, sub.id)).held?.count === 1, 30_000);
    const outcome = await eventOutcome(temporal, eventWorkflowId(eventId));
    expect(outcome).toMatchObject({ state: 'cancelled', subscriptions: { [sub.id]: { state: 'cancelled', attempts: 1 } } });
    expect(outcome.subscriptions[sub.id]!.cancelReason).toMatch(/held/);
    expect(r.received).toHaveLength(1);

    await setStatus(client, sub.id, 'active');
    expect(await drained(sub.id)).toMatchObject({ started: 1, ended: 'drained' });
    const [run] = await redeliveryRuns(temporal, eventId);
    expect(await eventOutcome(temporal, run!)).toMatchObject({ state: 'delivered', subscriptions: { [sub.id]: { state: 'delivered', attempts: 1 } } });
    expect(r.received).toHaveLength(2);
    expect((await attempts(client, sub.id)).map((a) => [a.attempt, a.status_code, a.state]).sort()).toEqual([
      [1, 200, 'delivered'],
      [1, 503, 'retrying'],
    ]);
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
  }, 60_000);

  it('runs one drain however often a resume and the sweep start it', async () => {
    const r = await receiver();
    const client = await owner();
    const sub = (await client.POST(`${v1}/subscribe`, { body: { url: r.url, events: ['order.created'], drain_rate: 2 } })).data!;
    await setStatus(client, sub.id, 'paused');
    const emitted = [await order(client), await order(client), await order(client)];
    await waitFor(async () => (await read(client, sub.id)).held?.count === emitted.length, 30_000);
    await setStatus(client, sub.id, 'active');
    // A second resume changes nothing; the sweep finds the drain running and leaves it.
    await setStatus(client, sub.id, 'active');
    const pass = await sweepHoldsOnce(sweep);
    expect(pass.failed).toBe(0);
    expect(pass.drains).toBeGreaterThanOrEqual(1);
    expect(await drained(sub.id)).toMatchObject({ started: emitted.length, ended: 'drained' });
    await waitFor(() => r.received.length >= emitted.length, 20_000);
    await sleep(500);
    expect(r.received.map(idOf)).toEqual(emitted);
    const runs: string[] = [];
    await waitFor(async () => {
      runs.length = 0;
      for await (const wf of temporal.workflow.list({ query: `WorkflowId = '${drainWorkflowId(sub.id)}'` })) runs.push(wf.runId);
      return runs.length > 0;
    }, 20_000);
    expect(runs).toHaveLength(1);
    // Nothing held any more: the sweep has nothing to read.
    expect((await sweep.held.holding()).map((h) => h.subscriptionId)).not.toContain(sub.id);
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
  }, 60_000);

  it('drains, through the sweep, what a resume left held when it stopped between its write and the drain’s start', async () => {
    const r = await receiver();
    const client = await owner();
    const sub = (await client.POST(`${v1}/subscribe`, { body: { url: r.url, events: ['order.created'] } })).data!;
    await setStatus(client, sub.id, 'paused');
    const emitted = [await order(client), await order(client)];
    await waitFor(async () => (await read(client, sub.id)).held?.count === emitted.length, 30_000);
    // The resume's write, and then a crash: no drain was started.
    await api.mongo.db.collection<{ _id: string }>('subscriptions').updateOne({ _id: sub.id }, { $set: { status: 'active' }, $unset: { paused_at: '' } });
    await expect(temporal.workflow.getHandle(drainWorkflowId(sub.id)).describe()).rejects.toThrow(/not found/i);
    expect((await sweepHoldsOnce(sweep)).failed).toBe(0);
    expect(await drained(sub.id)).toMatchObject({ started: emitted.length, ended: 'drained' });
    await waitFor(() => r.received.length >= emitted.length, 20_000);
    expect(r.received.map(idOf)).toEqual(emitted);
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
  }, 60_000);

  it('never sends a record the expiry claimed first (it fails it as the expiry would): the drain starts only the others', async () => {
    const r = await receiver();
    const { client, sub, emitted } = await pausedHolding(r.url, 2);
    const first = (await api.mongo.db.collection<HeldDoc>('held_deliveries').findOne({ subscription_id: sub.id, event_id: emitted[0] }))!;
    // The sweep's expiry claimed it (and is about to fail it) when the resume came.
    expect(await sweep.held.claim([first], 'expiry')).toEqual(new Set([first._id]));
    await setStatus(client, sub.id, 'active');
    expect(await drained(sub.id)).toMatchObject({ started: 1, ended: 'drained' });
    await waitFor(() => r.received.length >= 1, 20_000);
    expect(r.received.map(idOf)).toEqual([emitted[1]]);
    const logged = await attempts(client, sub.id);
    expect(logged.filter((a) => a.event_id === emitted[0]).map((a) => [a.outcome, a.state])).toEqual([['hold_expired', 'failed']]);
    expect(await sweep.held.count(sub.id)).toBe(0);
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
  }, 60_000);

  it('tells whose each claim is on the real database, also when a batch would meet one claimed before', async () => {
    const repo = new HeldDeliveryRepository(api.mongo.db);
    const subscriptionId = `sub_claims_${randomUUID()}`;
    const ids = [0, 1, 2].map((i) => `held_${subscriptionId}_${i}`);
    const docs = ids.map((_id) => ({ _id, subscription_id: subscriptionId }));
    expect(await repo.claim([docs[0]!], 'expiry')).toEqual(new Set([ids[0]]));
    expect(await repo.claim([docs[2]!], 'drain')).toEqual(new Set([ids[2]]));
    expect(await repo.claim(docs, 'drain')).toEqual(new Set([ids[1], ids[2]]));
    expect(await repo.claim(docs, 'expiry')).toEqual(new Set([ids[0]]));
    // A drain that stops gives its claims up; the expiry's stay.
    await repo.unclaim(ids, 'drain');
    expect(await repo.claim(docs, 'expiry')).toEqual(new Set(ids));
    await api.mongo.db.collection('held_claims').deleteMany({ subscription_id: subscriptionId });
  }, 60_000);

  it('holds landing at once in different hours are read from the oldest: the markers are inserts, not a racing update', async () => {
    const repo = new HeldDeliveryRepository(api.mongo.db);
    const subscriptionId = `sub_marks_${randomUUID()}`;
    const base = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 5 * 3_600_000;
    const doc = (hour: number): HeldDoc => {
      const emitted = new Date(base + hour * 3_600_000);
      return { _id: `held_${subscriptionId}_${hour}`, subscription_id: subscriptionId, event_id: `evt_${hour}`, event_type: 'order.created', emitted_at: emitted, held_at: new Date(), origin: `event/evt_${hour}`, attempt: 1, slot: heldSlot(subscriptionId, emitted).id };
    };
    await Promise.all([4, 2, 0, 3, 1].map((hour) => repo.hold([doc(hour)])));
    expect((await repo.page(subscriptionId, 10)).docs.map((d) => d._id)).toEqual([0, 1, 2, 3, 4].map((h) => doc(h)._id));
    await repo.dropAll(subscriptionId);
    expect(await repo.settle(subscriptionId)).toBe(true);
    expect((await repo.holding()).filter((h) => h.subscriptionId === subscriptionId)).toEqual([]);
  }, 60_000);

  it('a settle that crashes after removing the mark leaves a note the sweep finishes, and a record held meanwhile found', async () => {
    const { client, sub } = await pausedHolding('https://example.test/never', 1);
    const held = (await api.mongo.db.collection<HeldDoc>('held_deliveries').findOne({ subscription_id: sub.id }))!;
    const repo = new HeldDeliveryRepository(api.mongo.db);
    await repo.release([held._id]);
    // The real database, a process that dies right after the mark's removal; a round holds just before it.
    const marks = api.mongo.db.collection<{ _id: string; subscription_id: string }>('held_marks');
    const crashingMarks = new Proxy(marks, {
      get: (col, k): unknown =>
        k === 'deleteMany'
          ? async (filter: { subscription_id: string }) => {
              await col.deleteMany(filter);
              await repo.hold([{ ...held, _id: `${held._id}_again` }]);
              throw new Error('crashed');
            }
          : (Reflect.get(col, k) as unknown),
    });
    const crashingDb = new Proxy(api.mongo.db, {
      get: (db, key): unknown => (key === 'collection' ? (name: string) => (name === 'held_marks' ? crashingMarks : db.collection(name)) : (Reflect.get(db, key) as unknown)),
    });
    const crashing = new HeldDeliveryRepository(crashingDb);
    await expect(crashing.settle(sub.id)).rejects.toThrow('crashed');
    expect((await sweep.held.holding()).filter((h) => h.subscriptionId === sub.id)).toHaveLength(1);
    expect((await sweep.held.page(sub.id, 10)).docs.map((d) => d._id)).toEqual([`${held._id}_again`]);
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
    await sweepHoldsOnce(sweep);
    expect((await sweep.held.holding()).filter((h) => h.subscriptionId === sub.id)).toEqual([]);
    expect(await sweep.held.count(sub.id)).toBe(0);
  }, 60_000);

  it('fails what is held past the hold limit as hold_expired, with one alert, and leaves the subscription as it is', async () => {
    const r = await receiver();
    const client = await owner();
    const sub = (await client.POST(`${v1}/subscribe`, { body: { url: r.url, events: ['order.created'] } })).data!;
    await setStatus(client, sub.id, 'paused');
    const emitted = [await order(client), await order(client)];
    await waitFor(async () => (await read(client, sub.id)).held?.count === emitted.length, 30_000);

    // Two passes past the limit: the second finds nothing more to fail and alerts no more.
    const late = { ...sweep, now: () => new Date(Date.now() + api.config.delivery.holdMaxMs + EXPIRY_GRACE_MS + 60_000) };
    expect(await sweepHoldsOnce(late)).toMatchObject({ expired: emitted.length, failed: 0 });
    expect(await sweepHoldsOnce(late)).toMatchObject({ expired: 0, failed: 0 });
    const logged = await attempts(client, sub.id);
    expect(logged.map((a) => [a.event_id, a.outcome, a.state]).sort()).toEqual(emitted.map((id) => [id, 'hold_expired', 'failed']).sort());
    const timeline = (await client.GET(`${v1}/subscriptions/{subscription_id}/events/{event_id}/delivery`, { params: { path: { subscription_id: sub.id, event_id: emitted[0]! } } })).data!;
    expect(timeline.next).toMatchObject({ final: true, state: 'failed' });
    expect(timeline.next.reason).toMatch(/hold limit/);
    const admin = (await api.clientWith(['admin'], 'ops')).client;
    const alerts = ((await admin.GET(`${v1}/alerts`, { params: { query: { limit: 100 } } })).data?.data ?? []).filter((a) => a.subscription_id === sub.id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ kind: 'delivery_failed' });
    expect(alerts[0]!.message).toMatch(/hold limit/);

    // Nothing held any more, the subscription untouched (the sweep never writes it, so it cannot undo a resume); a resume has nothing to send.
    const now = await read(client, sub.id);
    expect(now).toMatchObject({ status: 'paused' });
    expect(now.held?.count ?? 0).toBe(0);
    await setStatus(client, sub.id, 'active');
    await sleep(1000);
    expect(r.received).toHaveLength(0);
    expect(await sweep.held.count(sub.id)).toBe(0);
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
  }, 60_000);

  it('keeps the old meaning for a pause made before holds existed (no paused_at): a retry due is cancelled, new events do not reach it', async () => {
    const subscriptions = api.mongo.db.collection<{ _id: string; status: string }>('subscriptions');
    const client = await owner();
    let legacyPause: () => Promise<unknown> = () => Promise.reject(new Error('not subscribed yet'));
    const r = await receiver((n, _req, res) => (n > 1 ? res.writeHead(200).end() : void legacyPause().finally(() => res.writeHead(503).end())));
    const sub = (await client.POST(`${v1}/subscribe`, { body: { url: r.url, events: ['webhook.test', 'order.created'] } })).data!;
    // Paused as a release before holds stored it: status only.
    legacyPause = () => subscriptions.updateOne({ _id: sub.id }, { $set: { status: 'paused' } });
    const eventId = (await client.POST(`${v1}/subscriptions/{subscription_id}/test`, path(sub.id))).data!.event_id;
    const outcome = await eventOutcome(temporal, eventWorkflowId(eventId));
    expect(outcome).toMatchObject({ state: 'cancelled', subscriptions: { [sub.id]: { state: 'cancelled', attempts: 1, cancelReason: 'subscription paused' } } });
    const unheld = await order(client);
    expect((await api.events.find(unheld))?.subscription_ids ?? []).not.toContain(sub.id);
    expect(await sweep.held.count(sub.id)).toBe(0);
    expect((await read(client, sub.id)).held).toBeUndefined();
    await setStatus(client, sub.id, 'active');
    await sleep(1000);
    expect(r.received).toHaveLength(1);
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
  }, 60_000);

  it('a pause while deliveries are still held keeps the clock of the oldest: pause and resume never restart it', async () => {
    const { client, sub } = await pausedHolding('https://example.test/never', 1);
    const heldAt = (await api.mongo.db.collection<HeldDoc>('held_deliveries').findOne({ subscription_id: sub.id }))!.held_at;
    // Resumed by a write whose drain never started (a crash), then paused again: the held record's clock goes on.
    await api.mongo.db.collection<{ _id: string }>('subscriptions').updateOne({ _id: sub.id }, { $set: { status: 'active' }, $unset: { paused_at: '' } });
    await sleep(50);
    const again = await setStatus(client, sub.id, 'paused');
    expect(again.held).toEqual({ count: 1, since: heldAt.toISOString() });
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
  }, 60_000);

  it('a drain fails what was held longer than the limit instead of sending it, with one alert', async () => {
    const r = await receiver();
    const client = await owner();
    const sub = (await client.POST(`${v1}/subscribe`, { body: { url: r.url, events: ['order.created'] } })).data!;
    await setStatus(client, sub.id, 'paused');
    const old = await order(client);
    const fresh = await order(client);
    await waitFor(async () => (await read(client, sub.id)).held?.count === 2, 30_000);
    // The first was held longer ago than the limit (1 h), as after a long drain or pause/resume cycles.
    await api.mongo.db.collection<HeldDoc>('held_deliveries').updateOne({ subscription_id: sub.id, event_id: old }, { $set: { held_at: new Date(Date.now() - api.config.delivery.holdMaxMs - 1000) } });
    await setStatus(client, sub.id, 'active');
    expect(await drained(sub.id)).toMatchObject({ started: 1, ended: 'drained' });
    await waitFor(() => r.received.length >= 1, 20_000);
    expect(r.received.map(idOf)).toEqual([fresh]);
    const logged = await attempts(client, sub.id);
    expect(logged.filter((a) => a.event_id === old).map((a) => [a.outcome, a.state])).toEqual([['hold_expired', 'failed']]);
    const admin = (await api.clientWith(['admin'], 'ops')).client;
    const alerts = ((await admin.GET(`${v1}/alerts`, { params: { query: { limit: 100 } } })).data?.data ?? []).filter((a) => a.subscription_id === sub.id);
    expect(alerts.map((a) => a.message)).toEqual([expect.stringMatching(/hold limit/)]);
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
  }, 60_000);

  it('logs a drained delivery whose event retention deleted as failed, never a silent cancel', async () => {
    const r = await receiver();
    const client = await owner();
    const sub = (await client.POST(`${v1}/subscribe`, { body: { url: r.url, events: ['order.created'] } })).data!;
    await setStatus(client, sub.id, 'paused');
    // A held record whose event is gone (deleted by retention while held).
    const eventId = newId('evt');
    const emittedAt = new Date();
    await new HeldDeliveryRepository(api.mongo.db).hold([
      { _id: `held_gone_${eventId}`, subscription_id: sub.id, event_id: eventId, event_type: 'order.created', emitted_at: emittedAt, held_at: emittedAt, origin: eventWorkflowId(eventId), attempt: 1, slot: heldSlot(sub.id, emittedAt).id },
    ]);
    await setStatus(client, sub.id, 'active');
    expect(await drained(sub.id)).toMatchObject({ started: 1, ended: 'drained' });
    await waitFor(async () => (await attempts(client, sub.id)).some((a) => a.event_id === eventId), 20_000);
    const logged = (await attempts(client, sub.id)).filter((a) => a.event_id === eventId);
    expect(logged.map((a) => [a.outcome, a.state])).toEqual([['hold_expired', 'failed']]);
    expect(logged[0]!.error).toMatch(/event was deleted/);
    expect(r.received).toHaveLength(0);
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path(sub.id));
  }, 60_000);
});
