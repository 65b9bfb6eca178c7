import { randomUUID } from 'node:crypto';
import { Client, Connection, ScheduleOverlapPolicy } from '@temporalio/client';
import { type CommandStartedEvent, type Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AttemptDoc, AttemptRepository } from '../../../src/deliveries/attempts';
import { type InboxDoc, InboxRepository, inboxSeq } from '../../../src/deliveries/inbox';
import { OrderingMarks } from '../../../src/events/ordering-marks';
import { type EventDoc, EventRepository } from '../../../src/events/repository';
import { longestDeliverySpanMs } from '../../../src/retention/delivery-span';
import { TransitionClaims } from '../../../src/orders/transition-claims';
import { purgeOlderThan } from '../../../src/retention/purge';
import { ensureRetentionSchedule, removeRetentionSchedule, retentionScheduleId, type RetentionSchedule } from '../../../src/retention/schedule';
import type { ManagedProcess } from '../../../stack/runtime/processes';
import type { RetentionResult } from '../../../workflows/retention';
import { startTestApi, type TestApi } from '../../support/api';
import { waitFor } from '../../support/wait';
import { startWorkerProcess } from '../../support/worker-process';

// Retention on the real database and Temporal: the bounded delete rounds, the schedule every
// worker installs, and a pass it runs through the real worker.

const dayMs = 24 * 60 * 60 * 1000;
const hourMs = 60 * 60 * 1000;
const minuteMs = 60 * 1000;

function attempt(id: string, ageMs: number): AttemptDoc {
  return {
    _id: id,
    event_id: `evt_${id}`,
    subscription_id: 'sub_retention',
    series: `series_${id}`,
    attempt: 1,
    started_at: new Date(Date.now() - ageMs),
    duration_ms: 3,
    outcome: 'delivered',
    status_code: 200,
    url: 'https://receiver.example/hooks',
    state: 'delivered',
  };
}

function event(id: string, ageMs: number): EventDoc {
  return { _id: id, type: 'order.created', data: { order_id: 1 }, created_at: new Date(Date.now() - ageMs), subscription_ids: ['sub_retention'] };
}

function message(id: string, ageMs: number, state: InboxDoc['state']): InboxDoc {
  const created = new Date(Date.now() - ageMs);
  return { _id: id, subscription_id: 'sub_retention', event_id: `evt_${id}`, attempt: 1, seq: inboxSeq(created, id), body: '{}', headers: {}, created_at: created, ack_by: new Date(created.getTime() + 30_000), state };
}

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}_${String(i).padStart(3, '0')}`);

/** Stored as the service stores them: through the repositories, so they are in their lists. */
const storeAttempts = (db: Db, docs: AttemptDoc[]) => new AttemptRepository(db).recordMany(docs);
const storeEvents = (db: Db, docs: EventDoc[]) => new EventRepository(db).insertAll(docs);

describe('purgeOlderThan on the real database', () => {
  let mongo: MongoClient;
  const commands: CommandStartedEvent[] = [];
  const deletedPerRound: number[] = [];
  const dbName = `retention_${randomUUID().slice(0, 8)}`;

  beforeAll(() => {
    // Command monitoring shows what really goes to the database, round by round.
    mongo = new MongoClient(inject('mongoUri'), { monitorCommands: true });
    mongo.on('commandStarted', (e) => commands.push(e));
    mongo.on('commandSucceeded', (e) => {
      if (e.commandName === 'delete') deletedPerRound.push((e.reply as { n: number }).n);
    });
  });
  afterAll(async () => {
    await mongo.db(dbName).dropDatabase();
    await mongo.close();
  });

  it('deletes what is older than the cutoff in rounds of about the batch size, each delete one bucket by its tag, and keeps what is recent', async () => {
    const db = mongo.db(dbName);
    // A minute apart: one document per 10-second bucket.
    await storeAttempts(db, [...ids('old', 35).map((id, i) => attempt(id, 40 * dayMs + i * minuteMs)), ...ids('new', 5).map((id) => attempt(id, dayMs))]);
    commands.length = 0;
    deletedPerRound.length = 0;
    const r = await purgeOlderThan(db, { collection: 'attempts', before: new Date(Date.now() - 30 * dayMs), batchSize: 10, maxBatches: 100, budgetMs: 60_000 });
    expect(r).toEqual({ deleted: 35, batches: 4, more: false });
    const dataDeletes = commands.filter((c) => c.commandName === 'delete' && c.command.delete === 'attempts');
    expect(dataDeletes).toHaveLength(35);
    // Every delete of data is an equality on one bucket's tag: no range, no scan.
    for (const c of dataDeletes) expect(Object.keys((c.command.deletes as Array<{ q: object }>)[0]!.q)).toEqual(['tl']);
    expect((await db.collection('attempts').find().toArray()).map((d) => d._id).sort()).toEqual(ids('new', 5));
  });

  it('deletes a bucket whole, however many documents share it', async () => {
    const db = mongo.db(dbName);
    const at = new Date(Date.now() - 40 * dayMs);
    await storeAttempts(db, ids('tie', 25).map((id) => ({ ...attempt(id, 0), started_at: at })));
    const r = await purgeOlderThan(db, { collection: 'attempts', before: new Date(Date.now() - 30 * dayMs), batchSize: 10, maxBatches: 100, budgetMs: 60_000 });
    expect(r).toEqual({ deleted: 25, batches: 1, more: false });
    expect(await db.collection<{ _id: string }>('attempts').countDocuments({ _id: { $in: ids('tie', 25) } })).toBe(0);
  });

  it('deletes pull messages as old as the attempts with them, by bucket tag, and tags messages stored before the inbox had buckets', async () => {
    const db = mongo.db(dbName);
    const inbox = new InboxRepository(db);
    for (const [i, id] of ids('pmsg_old', 12).entries()) await inbox.put(message(id, 40 * dayMs + i * minuteMs, i % 2 ? 'reported' : 'expired'));
    await inbox.put(message('pmsg_new', minuteMs, 'waiting'));
    // As stored before messages had a creation-time bucket: only the backfill makes it deletable.
    await db.collection<InboxDoc>('inbox').insertOne(message('pmsg_untagged', 40 * dayMs, 'expired'));
    expect(await inbox.tagUnlisted()).toBe(1);
    await storeAttempts(db, ids('with_inbox', 3).map((id, i) => attempt(id, 40 * dayMs + i * minuteMs)));
    // Settlements go with their messages: an old one is deleted, a recent one kept.
    expect(await inbox.settle('pmsg_old_settled', { state: 'expired' }, new Date(Date.now() - 40 * dayMs))).toBe(true);
    expect(await inbox.settle('pmsg_new', { state: 'expired' }, new Date(Date.now() - minuteMs))).toBe(true);
    commands.length = 0;
    const r = await purgeOlderThan(db, { collection: 'attempts', before: new Date(Date.now() - 30 * dayMs), batchSize: 5, maxBatches: 100, budgetMs: 60_000 });
    expect(r).toMatchObject({ deleted: 3 + 13 + 1, more: false });
    const inboxDeletes = commands.filter((c) => c.commandName === 'delete' && c.command.delete === 'inbox');
    expect(inboxDeletes.length).toBeGreaterThan(0);
    for (const c of inboxDeletes) expect(Object.keys((c.command.deletes as Array<{ q: object }>)[0]!.q)).toEqual(['tl']);
    expect((await db.collection('inbox').find().toArray()).map((d) => d._id)).toEqual(['pmsg_new']);
    expect((await db.collection('inbox_settlements').find().toArray()).map((d) => d._id)).toEqual(['pmsg_new']);
  });

  it('stops after maxBatches rounds and says there is more', async () => {
    const db = mongo.db(dbName);
    await storeEvents(db, ids('evt', 35).map((id, i) => event(id, 40 * dayMs + i * minuteMs)));
    const first = await purgeOlderThan(db, { collection: 'events', before: new Date(Date.now() - 30 * dayMs), batchSize: 10, maxBatches: 2, budgetMs: 60_000 });
    expect(first).toEqual({ deleted: 20, batches: 2, more: true });
    expect(await db.collection('events').countDocuments()).toBe(15);
    const rest = await purgeOlderThan(db, { collection: 'events', before: new Date(Date.now() - 30 * dayMs), batchSize: 10, maxBatches: 100, budgetMs: 60_000 });
    expect(rest).toEqual({ deleted: 15, batches: 2, more: false });
  });

  it('deletes ordering marks with the events of their age, after those events, each delete one bucket by its tag', async () => {
    const db = mongo.db(dbName);
    const marks = new OrderingMarks(db);
    // A delivery ends after its event was logged: each mark a little younger than its event.
    const old = ids('evt_marked', 6);
    await storeEvents(db, old.map((id, i) => event(id, 40 * dayMs + i * minuteMs + 1000)));
    for (const [i, id] of old.entries()) await marks.mark('sub_ordered', id, new Date(Date.now() - 40 * dayMs - i * minuteMs));
    await marks.mark('sub_ordered', 'evt_recent', new Date(Date.now() - minuteMs));
    commands.length = 0;

    const r = await purgeOlderThan(db, { collection: 'events', before: new Date(Date.now() - 30 * dayMs), batchSize: 4, maxBatches: 100, budgetMs: 60_000 });
    expect(r).toMatchObject({ deleted: 12, more: false });
    const deletes = commands.filter((c) => c.commandName === 'delete' && ['events', 'ordering_marks'].includes(c.command.delete as string));
    const markDeletes = deletes.filter((c) => c.command.delete === 'ordering_marks');
    expect(markDeletes.length).toBeGreaterThan(0);
    for (const c of markDeletes) expect(Object.keys((c.command.deletes as Array<{ q: object }>)[0]!.q)).toEqual(['tl']);
    // Every event delete comes first: an event is never left logged without the mark of its ended delivery.
    expect(deletes.findIndex((c) => c.command.delete === 'ordering_marks')).toBe(deletes.length - markDeletes.length);
    expect((await db.collection('ordering_marks').find().toArray()).map((d) => d._id)).toEqual(['sub_ordered|evt_recent']);
    expect(await marks.has('sub_ordered', 'evt_recent')).toBe(true);
  });

  it('deletes the claims of order status changes with the events of their age, each delete one bucket by its tag', async () => {
    const db = mongo.db(dbName);
    const claims = new TransitionClaims(db);
    for (let i = 0; i < 5; i++) expect(await claims.take(`order:${i}#2`, `evt_${i}`, new Date(Date.now() - 40 * dayMs - i * minuteMs))).toBe(true);
    expect(await claims.take('order:9#2', 'evt_recent', new Date(Date.now() - minuteMs))).toBe(true);
    commands.length = 0;

    const r = await purgeOlderThan(db, { collection: 'events', before: new Date(Date.now() - 30 * dayMs), batchSize: 4, maxBatches: 100, budgetMs: 60_000 });
    expect(r).toMatchObject({ more: false });
    const claimDeletes = commands.filter((c) => c.commandName === 'delete' && c.command.delete === 'order_claims');
    expect(claimDeletes.length).toBeGreaterThan(0);
    for (const c of claimDeletes) expect(Object.keys((c.command.deletes as Array<{ q: object }>)[0]!.q)).toEqual(['tl']);
    expect((await db.collection('order_claims').find().toArray()).map((d) => d._id)).toEqual(['order:9#2']);
  });
});

describe('the retention schedule', () => {
  let connection: Connection;
  let client: Client;
  const created: string[] = [];
  beforeAll(async () => {
    connection = await Connection.connect({ address: inject('temporalAddress') });
    client = new Client({ connection });
  });
  afterAll(async () => {
    for (const taskQueue of created) await removeRetentionSchedule(client, taskQueue);
    await connection.close();
  });

  it('is made once by racing workers, updated when the configuration changes, and removed when retention is off', async () => {
    const taskQueue = `retention-${randomUUID()}`;
    created.push(taskQueue);
    const want: RetentionSchedule = { taskQueue, intervalMs: hourMs, input: { retentionDays: 30, eventGraceMs: 1000, batchSize: 100 } };
    expect((await Promise.all([1, 2, 3].map(() => ensureRetentionSchedule(client, want)))).sort()).toEqual(['created', 'unchanged', 'unchanged']);
    expect(await ensureRetentionSchedule(client, want)).toBe('unchanged');
    expect(await ensureRetentionSchedule(client, { ...want, intervalMs: 2 * hourMs })).toBe('updated');
    const desc = await client.schedule.getHandle(retentionScheduleId(taskQueue)).describe();
    expect(desc.spec.intervals?.map((i) => i.every)).toEqual([2 * hourMs]);
    expect(await ensureRetentionSchedule(client, { ...want, intervalMs: 2 * hourMs, input: { ...want.input, retentionDays: 7 } })).toBe('updated');
    expect((await client.schedule.getHandle(retentionScheduleId(taskQueue)).describe()).action).toMatchObject({ args: [{ ...want.input, retentionDays: 7 }] });
    expect(await removeRetentionSchedule(client, taskQueue)).toBe(true);
    expect(await removeRetentionSchedule(client, taskQueue)).toBe(false);
  });
});

describe('retention through the real worker', () => {
  let api: TestApi;
  let connection: Connection;
  let client: Client;
  const workers: ManagedProcess[] = [];
  beforeAll(async () => {
    api = await startTestApi();
    connection = await Connection.connect({ address: inject('temporalAddress') });
    client = new Client({ connection });
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await removeRetentionSchedule(client, api.config.temporal.taskQueue);
    await connection.close();
    await api.close();
  });

  const workerEnv = { RETENTION_BATCH_SIZE: '10', LOG_LEVEL: 'info', LOG_FORMAT: 'json' };

  it('installs the schedule at start; a second worker leaves it as it is; a pass deletes old attempts and events only', async () => {
    const taskQueue = api.config.temporal.taskQueue;
    const handle = client.schedule.getHandle(retentionScheduleId(taskQueue));
    workers.push(startWorkerProcess(api, workerEnv));
    await waitFor(() => workers[0]!.recentOutput().includes('"schedule":"created"'), 90_000, 250);
    const first = await handle.describe();
    expect(first.spec.intervals?.map((i) => i.every)).toEqual([hourMs]);
    expect(first.policies.overlap).toBe(ScheduleOverlapPolicy.SKIP);
    expect(first.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'retentionWorkflow',
      taskQueue,
      args: [{ retentionDays: 30, eventGraceMs: longestDeliverySpanMs(api.config.delivery.policy), batchSize: 10 }],
    });

    workers.push(startWorkerProcess(api, workerEnv));
    await waitFor(() => workers[1]!.recentOutput().includes('"schedule":"unchanged"'), 90_000, 250);
    const second = await handle.describe();
    expect(second.info.createdAt).toEqual(first.info.createdAt);
    expect(second.info.lastUpdatedAt).toBeUndefined();
    expect(workers.map((w) => w.hasExited)).toEqual([false, false]);

    const db = api.mongo.db;
    await storeAttempts(db, [...ids('old', 35).map((id, i) => attempt(id, 41 * dayMs + i * minuteMs)), ...ids('new', 3).map((id) => attempt(id, dayMs))]);
    await storeEvents(db, [
      ...ids('evt_old', 35).map((id, i) => event(id, 41 * dayMs + i * minuteMs)),
      ...ids('evt_new', 2).map((id) => event(id, dayMs)),
      // Past the attempts' cutoff but within the events' grace (the longest a delivery retries): kept.
      event('evt_grace', 30 * dayMs + hourMs),
    ]);
    // Old documents of collections retention must never touch (dispatch notes are the relay's to drop).
    const untouched = ['orders', 'subscriptions', 'alerts'];
    const old = new Date(Date.now() - 41 * dayMs);
    for (const name of untouched) await db.collection<{ _id: string; created_at: Date; date: Date }>(name).insertOne({ _id: `${name}_old`, created_at: old, date: old });
    await handle.trigger();
    let workflowId: string | undefined;
    await waitFor(async () => {
      const action = (await handle.describe()).info.recentActions[0]?.action;
      workflowId = action?.workflow.workflowId;
      return workflowId !== undefined;
    }, 60_000, 250);
    const result = await client.workflow.getHandle<() => Promise<RetentionResult>>(workflowId!).result();
    expect(result).toMatchObject({ deleted: { attempts: 35, events: 35 }, batches: 8 });
    expect((await db.collection('attempts').find().toArray()).map((d) => d._id).sort()).toEqual(ids('new', 3));
    expect((await db.collection('events').find().toArray()).map((d) => d._id).sort()).toEqual(['evt_grace', ...ids('evt_new', 2)].sort());
    for (const name of untouched) expect(await db.collection<{ _id: string }>(name).findOne({ _id: `${name}_old` }), name).not.toBeNull();
  });

  it('a worker with RETENTION_DAYS=off removes the schedule', async () => {
    const handle = client.schedule.getHandle(retentionScheduleId(api.config.temporal.taskQueue));
    await handle.describe();
    workers.push(startWorkerProcess(api, { ...workerEnv, RETENTION_DAYS: 'off' }));
    await waitFor(() => workers[2]!.recentOutput().includes('retention off: schedule removed'), 90_000, 250);
    await expect(handle.describe()).rejects.toThrow(/not found/i);
  });
});
