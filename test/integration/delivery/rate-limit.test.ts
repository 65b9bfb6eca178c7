import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { DeliveryRate } from '../../../src/deliveries/delivery-rate';
import { type ManagedProcess, waitUntilReady } from '../../../stack/runtime/processes';
import { eventWorkflowId } from '../../../workflows/ids';
import { startTestApi, type TestApi } from '../../support/api';
import { eventOutcome } from '../../support/event-workflows';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { startWorkerProcess } from '../../support/worker-process';

const v1 = '/api/webhooks/v1';

/** How many of `times` (epoch ms) fall in each second aligned to the epoch, as the limiter aligns its seconds. */
function perSecond(times: readonly number[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const t of times) counts.set(Math.floor(t / 1000), (counts.get(Math.floor(t / 1000)) ?? 0) + 1);
  return counts;
}

describe('rate_limit: at most N deliveries per second to a subscription, over every worker', () => {
  let api: TestApi;
  let temporal: Client;
  let client: WebhookServiceClient;
  let receiver: TestReceiver;
  const workers: ManagedProcess[] = [];
  let inFlight = 0;
  let mostInFlight = 0;

  beforeAll(async () => {
    // Each POST is held 150 ms, so max_in_flight has something to bound beside the rate.
    receiver = await startReceiver((_req, res) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200).end();
      }, 150);
    });
    api = await startTestApi();
    temporal = await api.temporal.client();
    client = (await api.clientWith(['webhooks:write', 'webhooks:read'], `owner-${randomUUID().slice(0, 8)}`)).client;
    // Two real worker processes on the task queue, both polling before any event: the limit must hold over both.
    workers.push(startWorkerProcess(api, { LOG_LEVEL: 'info' }), startWorkerProcess(api, { LOG_LEVEL: 'info' }));
    await Promise.all(workers.map((w) => waitUntilReady(w, () => Promise.resolve(w.recentOutput().includes('worker polling')), 120_000)));
  }, 180_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await receiver?.close();
    await api?.close();
  });

  const raw = async (id: string) => JSON.stringify(await api.mongo.db.collection('subscriptions').findOne({ _id: id as never }));

  it('is set on create and PATCH, shown on read, and null removes it; out of bounds is a 422 naming it, nothing written', async () => {
    const sub = await client.POST(`${v1}/subscribe`, { body: { url: receiver.url, events: ['webhook.test'], rate_limit: 10, max_in_flight: 3 } });
    expect(sub.response.status).toBe(201);
    expect(sub.data).toMatchObject({ rate_limit: 10, max_in_flight: 3 });
    const path = { params: { path: { subscription_id: sub.data!.id } } };
    expect((await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { ...path, body: { rate_limit: 2 } })).data!.rate_limit).toBe(2);
    expect((await client.GET(`${v1}/subscriptions/{subscription_id}`, path)).data!.rate_limit).toBe(2);
    for (const bad of [0, 101, -1]) {
      const before = await raw(sub.data!.id);
      const patched = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { ...path, body: { rate_limit: bad, description: 'not written' } });
      expect(patched.response.status).toBe(422);
      expect(patched.error!.errors?.map((e) => e.path)).toEqual(['/body/rate_limit']);
      expect(await raw(sub.data!.id)).toBe(before);
      const created = await client.POST(`${v1}/subscribe`, { body: { url: receiver.url, events: ['webhook.test'], rate_limit: bad, description: `bad ${bad}` } });
      expect(created.response.status).toBe(422);
      expect(created.error!.errors?.map((e) => e.path)).toEqual(['/body/rate_limit']);
    }
    const removed = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { ...path, body: { rate_limit: null, max_in_flight: null } });
    expect(removed.response.status).toBe(200);
    expect(removed.data!.rate_limit).toBeUndefined();
    expect(removed.data!.max_in_flight).toBeUndefined();
    expect(await raw(sub.data!.id)).not.toContain('rate_limit');
    const list = (await client.GET(`${v1}/subscriptions`, {})).data!.data;
    expect(list.filter((s) => s.description?.startsWith('bad '))).toEqual([]);
    await client.DELETE(`${v1}/subscriptions/{subscription_id}`, path);
  });

  it('hands out at most the limit of one second to limiters sharing the database, however many ask at once', async () => {
    const limiters = [new DeliveryRate(api.mongo.db), new DeliveryRate(api.mongo.db), new DeliveryRate(api.mongo.db)];
    const id = `sub_rate_${randomUUID().slice(0, 8)}`;
    // Not at the very end of a second, so all 30 ask within the same one.
    while (Date.now() % 1000 > 300) await new Promise((r) => setTimeout(r, 20));
    const second = Math.floor(Date.now() / 1000);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => limiters[i % 3]!.take(id, 4)));
    expect(Math.floor(Date.now() / 1000)).toBe(second);
    expect(answers.filter((a) => a.taken)).toHaveLength(4);
    // The refused are sent to later seconds at the limit's pace: each limiter's first four to the next one, the rest beyond.
    const waits = answers.flatMap((a) => (a.taken ? [] : [a.waitMs]));
    expect(Math.min(...waits)).toBeGreaterThan(0);
    expect(Math.min(...waits)).toBeLessThanOrEqual(1000);
    expect(Math.max(...waits)).toBeGreaterThan(1000);
    // The next second has its own four.
    await new Promise((r) => setTimeout(r, (second + 1) * 1000 - Date.now() + 10));
    expect((await Promise.all([limiters[0]!.take(id, 4), limiters[1]!.take(id, 4)])).every((a) => a.taken)).toBe(true);
    // What a taken slot costs a delivery: one insert by _id (its delete comes later, in the background).
    const one = new DeliveryRate(api.mongo.db);
    const timed = `sub_rate_cost_${randomUUID().slice(0, 8)}`;
    const t0 = performance.now();
    let taken = 0;
    for (let i = 0; i < 100; i++) if ((await one.take(timed, 100)).taken) taken++;
    console.log(`DeliveryRate.take: ${((performance.now() - t0) / 100).toFixed(2)} ms per delivery (${taken} of 100 taken, sequential, FerretDB)`);
  });

  it('deletes at a worker start the slots of past seconds a crashed worker left, and none of a live second', async () => {
    const id = `sub_rate_sweep_${randomUUID().slice(0, 8)}`;
    const slots = api.mongo.db.collection<{ _id: string }>('delivery_rate_slots');
    const now = Math.floor(Date.now() / 1000);
    // A crashed limiter's slots from five minutes ago, and the current second's taken by a live one.
    await slots.insertMany([0, 1, 2].map((i) => ({ _id: `${id}:${now - 300}:${i}` })));
    const live = new DeliveryRate(api.mongo.db);
    expect((await live.take(id, 3)).taken).toBe(true);
    expect(await new DeliveryRate(api.mongo.db).sweepPast()).toBeGreaterThanOrEqual(3);
    const left = (await slots.find({ _id: { $regex: `^${id}:` } }).toArray()).map((s) => s._id);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(new RegExp(`^${id}:${now}|${now + 1}:0$`));
  });

  it('delivers a burst to a subscription with rate_limit 5 at no more than 5 per second over two workers, losing none, none counted twice', async () => {
    const sub = await client.POST(`${v1}/subscribe`, { body: { url: receiver.url, events: ['webhook.test'], rate_limit: 5, max_in_flight: 2 } });
    expect(sub.response.status).toBe(201);
    const id = sub.data!.id;
    const events: string[] = [];
    const sent = Date.now();
    for (let i = 0; i < 40; i++) {
      const res = await client.POST(`${v1}/subscriptions/{subscription_id}/test`, { params: { path: { subscription_id: id } } });
      expect(res.response.status).toBe(202);
      events.push(res.data!.event_id);
    }
    const outcomes = await Promise.all(events.map((e) => eventOutcome(temporal, eventWorkflowId(e))));
    console.log(`40 deliveries at rate_limit 5 took ${Date.now() - sent}ms`);

    // None lost: each event delivered once, with one attempt; being put off is not an attempt.
    for (const o of outcomes) expect(o.subscriptions[id]).toMatchObject({ state: 'delivered', attempts: 1 });
    const bodies = receiver.received.filter((r) => r.body.includes(id));
    expect(bodies).toHaveLength(40);
    expect(new Set(bodies.map((r) => (JSON.parse(r.body) as { id: string }).id))).toEqual(new Set(events));
    const logged = await api.mongo.db.collection('attempts').find({ subscription_id: id }).toArray();
    expect(logged).toHaveLength(40);
    expect(outcomes.reduce((n, o) => n + (o.subscriptions[id]!.deferrals ?? 0), 0)).toBeGreaterThan(0);

    // Each second aligned as the limiter aligns it started at most 5 POSTs (the attempt log's
    // started_at is stamped after the slot is taken, in the slot's own second).
    const started = perSecond(logged.map((a) => (a.started_at as Date).getTime()));
    console.log(`POSTs started per second: ${[...started.values()].join(' ')}`);
    expect(Math.max(...started.values())).toBeLessThanOrEqual(5);
    // At the receiver, by its own clock: a POST started at the end of one second may arrive in
    // the next, so a second may hold at most 5 plus those that crossed into it in transit.
    const startedOf = new Map(logged.map((a) => [a.event_id as string, (a.started_at as Date).getTime()]));
    const arrived = perSecond(bodies.map((r) => r.at));
    for (const [s, n] of arrived) {
      const crossed = bodies.filter((r) => Math.floor(r.at / 1000) === s && Math.floor(startedOf.get((JSON.parse(r.body) as { id: string }).id)! / 1000) < s).length;
      expect(n, `second ${s}`).toBeLessThanOrEqual(5 + crossed);
    }
    // 40 at 5 per second cannot take less than 7 whole seconds.
    expect(started.size).toBeGreaterThanOrEqual(8);
    // max_in_flight 2 per worker, two workers.
    expect(mostInFlight).toBeLessThanOrEqual(4);

    // Both workers delivered.
    const identities = new Set<string>();
    for (const e of events) {
      const history = await temporal.workflow.getHandle(eventWorkflowId(e)).fetchHistory();
      for (const ev of history.events ?? []) if (ev.workflowTaskCompletedEventAttributes?.identity) identities.add(ev.workflowTaskCompletedEventAttributes.identity);
    }
    expect(identities.size).toBe(2);
  });
});
