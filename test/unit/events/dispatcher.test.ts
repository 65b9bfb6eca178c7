import type { Client } from '@temporalio/client';
import { describe, expect, it, vi } from 'vitest';
import type { DispatchNotes } from '../../../src/events/dispatch-notes';
import { EventDispatcher } from '../../../src/events/dispatcher';
import { HELD_NOTE_SLACK_MS, OwnerAdmission } from '../../../src/events/admission';
import { OwnerLanes } from '../../../src/events/lanes';
import { newOutboxEvent, type OutboxEvent } from '../../../src/events/outbox';
import type { EventDoc, EventRepository } from '../../../src/events/repository';
import { createLogger } from '../../../src/logger';

/** A start the test ends when it says so. */
interface HeldStart {
  workflowId: string;
  taskQueue: string;
  /** The workflow's input. */
  input: { subscriptionIds: string[]; ordering?: { subscriptionIds: string[]; seq: number } };
  finish: () => void;
  fail: (err: Error) => void;
}

/** A dispatcher over fakes: every event has two subscribers; starts are held until the test ends them. */
function fakeDispatcher(opts: { maxBackgroundStarts?: number; lanes?: OwnerLanes; admission?: OwnerAdmission; loggedBefore?: readonly EventDoc[] } = {}) {
  const { loggedBefore = [], ...dispatcherOpts } = opts;
  const starts: HeldStart[] = [];
  const forgotten: string[] = [];
  const removed: string[] = [];
  const logged: string[] = [];
  const announced: Array<{ id: string | undefined; dueAt: Date | undefined }> = [];
  const client = {
    workflow: {
      start: (_type: string, options: { workflowId: string; taskQueue: string; args: [HeldStart['input']] }) =>
        new Promise<void>((resolve, reject) => starts.push({ workflowId: options.workflowId, taskQueue: options.taskQueue, input: options.args[0], finish: resolve, fail: reject })),
    },
  } as unknown as Client;
  const events = {
    insertNew: (docs: ReadonlyArray<{ _id: string }>) => {
      const fresh = docs.filter((d) => !loggedBefore.some((l) => l._id === d._id)).map((d) => d._id);
      logged.push(...fresh);
      return Promise.resolve(new Set(fresh));
    },
    findMany: (ids: readonly string[]) => Promise.resolve(loggedBefore.filter((d) => ids.includes(d._id))),
  } as unknown as EventRepository;
  const notes = {
    announce: (write: { eventIds: readonly string[]; dueAt?: Date }) => {
      announced.push({ id: write.eventIds[0], dueAt: write.dueAt });
      return Promise.resolve();
    },
    forget: (id: string) => forgotten.push(id),
    remove: (ids: readonly string[]) => {
      removed.push(...ids);
      return Promise.resolve();
    },
  } as unknown as DispatchNotes;
  const logger = createLogger('silent', 'test');
  const warn = vi.spyOn(logger, 'warn');
  const dispatcher = new EventDispatcher({
    events,
    notes,
    fanout: { activeSubscribers: () => Promise.resolve([{ _id: 'sub_a' }, { _id: 'sub_b' }]) },
    temporal: () => Promise.resolve(client),
    settings: { taskQueue: 'q', policy: { scheduleMs: [1000], maxAttempts: 2, jitterRatio: 0 }, batchSize: 50 },
    logger,
    ...dispatcherOpts,
  });
  return { dispatcher, starts, forgotten, removed, logged, warn, announced };
}

const source = { collection: 'orders', id: 7 } as const;

function orderEvents(n: number): OutboxEvent[] {
  return Array.from({ length: n }, (_, i) => newOutboxEvent('order.created', { order_id: 7 + i } as never, { ownerId: 'owner-1' }));
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('EventDispatcher.flush', () => {
  it("answers a request's flush once its events are logged, starts them all at once, and lets the note go only after the starts", async () => {
    const f = fakeDispatcher();
    const events = orderEvents(3);
    await f.dispatcher.flush(source, events);
    expect(f.logged).toEqual(events.map((e) => e.id));
    await settle();
    expect(f.starts.map((s) => s.workflowId)).toEqual(events.map((e) => `event/${e.id}`));
    expect(f.forgotten).toEqual([]);
    for (const s of f.starts.slice(0, 2)) s.finish();
    await settle();
    expect(f.forgotten).toEqual([]);
    f.starts[2]!.finish();
    await f.dispatcher.drain();
    expect(f.forgotten).toEqual(events.map((e) => e.id));
  });

  it("starts an owner's events past its burst on the bulk lane", async () => {
    const f = fakeDispatcher({ lanes: new OwnerLanes({ ratePerSecond: 1, burst: 2, now: () => 0 }) });
    await f.dispatcher.flush(source, orderEvents(3));
    await settle();
    expect(f.starts.map((s) => s.taskQueue)).toEqual(['q', 'q', 'q-bulk']);
    for (const s of f.starts) s.finish();
    await f.dispatcher.drain();
  });

  it("holds a bulk-lane owner's writes while another owner sends, starts them at its turn, and lets their notes go only then", async () => {
    vi.useFakeTimers();
    try {
      const lanes = new OwnerLanes({ ratePerSecond: 1, burst: 2, now: () => Date.now() });
      // Another owner is sending: owner-1, past its burst, is held back.
      const admission = new OwnerAdmission({ ratePerSecond: 2, contended: (owner) => lanes.othersActive(owner, 2000) });
      const f = fakeDispatcher({ lanes, admission });
      lanes.laneOf('owner-2');
      await f.dispatcher.flush(source, orderEvents(2));
      await vi.advanceTimersByTimeAsync(0);
      expect(f.starts.map((s) => s.taskQueue)).toEqual(['q', 'q']);
      for (const s of f.starts) s.finish();
      await vi.advanceTimersByTimeAsync(0);
      // Its next write goes to the bulk lane: held, its note dated past its turn.
      const later = { collection: 'orders', id: 8 } as const;
      const held = orderEvents(1);
      await f.dispatcher.flush(later, held);
      expect(admission.held()).toBe(1);
      const next = orderEvents(1);
      await f.dispatcher.announce(next, later);
      // Twice its wait behind one held workflow at 2/s, then the slack: the relay leaves it alone that long.
      expect(f.announced.at(-1)!.dueAt!.getTime() - Date.now()).toBe(2 * 500 + HELD_NOTE_SLACK_MS);
      await f.dispatcher.flush(later, next);
      expect(admission.held()).toBe(2);
      await vi.advanceTimersByTimeAsync(0);
      expect(f.starts.slice(2).map((s) => [s.workflowId, s.taskQueue])).toEqual([[`event/${held[0]!.id}`, 'q-bulk']]);
      expect(f.forgotten).not.toContain(held[0]!.id);
      f.starts[2]!.finish();
      await vi.advanceTimersByTimeAsync(0);
      expect(f.forgotten).toContain(held[0]!.id);
      // The next held write starts one turn (1 workflow at 2/s) after the first began.
      await vi.advanceTimersByTimeAsync(499);
      expect(f.starts).toHaveLength(3);
      await vi.advanceTimersByTimeAsync(1);
      expect(f.starts.map((s) => s.workflowId).slice(3)).toEqual([`event/${next[0]!.id}`]);
      f.starts[3]!.finish();
      await vi.advanceTimersByTimeAsync(0);
      expect(admission.held()).toBe(0);
      await f.dispatcher.drain();
    } finally {
      vi.useRealTimers();
    }
  });

  it('holds nobody while no other owner sends, and leaves held writes to the relay at shutdown', async () => {
    const lanes = new OwnerLanes({ ratePerSecond: 1, burst: 1, now: () => 0 });
    let contended = false;
    const admission = new OwnerAdmission({ ratePerSecond: 0.001, contended: () => contended });
    const f = fakeDispatcher({ lanes, admission });
    await f.dispatcher.flush(source, orderEvents(3));
    await settle();
    expect(f.starts.map((s) => s.taskQueue)).toEqual(['q', 'q-bulk', 'q-bulk']);
    for (const s of f.starts) s.finish();
    contended = true;
    await f.dispatcher.flush({ collection: 'orders', id: 8 }, orderEvents(1));
    await f.dispatcher.flush({ collection: 'orders', id: 9 }, orderEvents(1));
    await new Promise((resolve) => setTimeout(resolve, 5));
    // The first held write started at once, the second waits its turn (1,000 s away).
    expect(f.starts).toHaveLength(4);
    f.starts[3]!.finish();
    await settle();
    expect(admission.held()).toBe(1);
    await f.dispatcher.drain();
    expect(f.starts).toHaveLength(4);
    expect(admission.held()).toBe(1);
  });

  it('leaves the note to the relay when one start of the write fails', async () => {
    const f = fakeDispatcher();
    await f.dispatcher.flush(source, orderEvents(2));
    await settle();
    f.starts[0]!.fail(new Error('temporal away'));
    f.starts[1]!.finish();
    await f.dispatcher.drain();
    expect(f.forgotten).toEqual([]);
    expect(f.removed).toEqual([]);
    expect(f.warn.mock.calls.map(([, message]) => message)).toEqual(['dispatch deferred to the relay']);
  });

  it('makes a request wait while the starts in flight are at the bound', async () => {
    const f = fakeDispatcher({ maxBackgroundStarts: 2 });
    await f.dispatcher.flush(source, orderEvents(2));
    let second = false;
    const waiting = f.dispatcher.flush({ collection: 'orders', id: 8 }, orderEvents(1)).then(() => (second = true));
    await settle();
    expect(second).toBe(false);
    expect(f.starts).toHaveLength(2);
    f.starts[0]!.finish();
    await settle();
    expect(second).toBe(false);
    f.starts[1]!.finish();
    await waiting;
    await settle();
    expect(f.starts).toHaveLength(3);
    f.starts[2]!.finish();
    await f.dispatcher.drain();
    expect(f.forgotten).toHaveLength(3);
  });

  it("waits for the relay's starts, then removes the notes", async () => {
    const f = fakeDispatcher();
    const events = orderEvents(2);
    let done = false;
    const flushing = f.dispatcher.flush(source, events, 'remove').then(() => (done = true));
    await settle();
    expect(f.starts).toHaveLength(2);
    expect(done).toBe(false);
    for (const s of f.starts) s.finish();
    await flushing;
    expect(f.removed).toEqual(events.map((e) => e.id));
    expect(f.forgotten).toEqual([]);
  });

  it('the relay starts an event its writer logged from the logged snapshot, not from the fan-out of now', async () => {
    // Logged by the API for sub_old, in order; its start failed. sub_old has gone since, sub_a and sub_b came.
    const [before, fresh] = orderEvents(2).map((e) => ({ ...e, seq: 1 }));
    const loggedBefore: EventDoc = { _id: before!.id, type: before!.type, data: before!.data, created_at: before!.created_at, seq: 1, subscription_ids: ['sub_old'], ordered_ids: ['sub_old'] };
    const f = fakeDispatcher({ loggedBefore: [loggedBefore] });
    const flushing = f.dispatcher.flush(source, [before!, fresh!], 'remove');
    await settle();
    expect(f.logged).toEqual([fresh!.id]);
    const inputs = Object.fromEntries(f.starts.map((s) => [s.workflowId, s.input]));
    expect(inputs[`event/${before!.id}`]).toMatchObject({ subscriptionIds: ['sub_old'], ordering: { subscriptionIds: ['sub_old'], seq: 1 } });
    expect(inputs[`event/${fresh!.id}`]).toMatchObject({ subscriptionIds: ['sub_a', 'sub_b'] });
    for (const s of f.starts) s.finish();
    await flushing;
    expect(f.removed).toEqual([before!.id, fresh!.id]);
  });

  it('drain waits for the starts requests left running', async () => {
    const f = fakeDispatcher();
    await f.dispatcher.flush(source, orderEvents(1));
    let drained = false;
    const draining = f.dispatcher.drain().then(() => (drained = true));
    await settle();
    expect(drained).toBe(false);
    f.starts[0]!.finish();
    await draining;
    expect(f.forgotten).toHaveLength(1);
  });
});
