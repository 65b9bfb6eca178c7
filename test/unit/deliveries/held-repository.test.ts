import { describe, expect, it } from 'vitest';
import { HeldDeliveryRepository, type HeldDoc, heldSlot } from '../../../src/deliveries/held';
import { Crash, fakeDb } from './fake-held-db';

const t0 = Date.UTC(2026, 10, 27, 6);
const sub = 'sub_unit';

function record(n: number, emittedAt = t0 + n * 60_000): HeldDoc {
  const emitted = new Date(emittedAt);
  return { _id: `held_${n}`, subscription_id: sub, event_id: `evt_${n}`, event_type: 'order.created', emitted_at: emitted, held_at: new Date(t0 + 10 * 3_600_000), origin: `event/evt_${n}`, attempt: 1, slot: heldSlot(sub, emitted).id };
}

/** Every id a drain from the start finds, settling (as a drain's end does) until nothing is behind. */
async function drainIds(repo: HeldDeliveryRepository): Promise<string[]> {
  const seen: string[] = [];
  for (let round = 0; round < 3; round++) {
    let after;
    for (;;) {
      const page = await repo.page(sub, 2, after);
      seen.push(...page.docs.map((d) => d._id));
      await repo.release(page.docs.map((d) => d._id));
      if (!page.next) break;
      after = page.next;
    }
    if (await repo.settle(sub)) return seen;
  }
  throw new Error('never settled');
}

const now = () => t0 + 12 * 3_600_000;

describe('held deliveries: pages read about a page, whatever the pause length', () => {
  it('reads a page from its cursor: the hours and slots it passes, not every slot held', async () => {
    const f = fakeDb();
    const repo = new HeldDeliveryRepository(f.db, now);
    // One delivery a minute for ten hours.
    await repo.hold(Array.from({ length: 600 }, (_, i) => record(i)));
    const first = await repo.page(sub, 5);
    expect(first.docs.map((d) => d._id)).toEqual(['held_0', 'held_1', 'held_2', 'held_3', 'held_4']);
    f.ops.length = 0;
    const later = await repo.page(sub, 5, { at: t0 + 300 * 60_000, id: 'held_300' });
    expect(later.docs.map((d) => d._id)).toEqual(['held_301', 'held_302', 'held_303', 'held_304', 'held_305']);
    // One read of the hour's slots, one per slot from the cursor's: not the 600 slots of the pause.
    expect(f.ops).toEqual(['held_slots.find', ...Array<string>(6).fill('held_deliveries.find')]);
  });

  it('walks at most a bounded number of empty hours per page, then says where to go on', async () => {
    const f = fakeDb();
    const repo = new HeldDeliveryRepository(f.db, () => t0 + 100 * 3_600_000);
    await repo.hold([record(0), record(1, t0 + 99 * 3_600_000)]);
    const pages: string[][] = [];
    let after;
    for (;;) {
      f.ops.length = 0;
      const page = await repo.page(sub, 10, after);
      expect(f.ops.filter((o) => o === 'held_slots.find').length).toBeLessThanOrEqual(48);
      pages.push(page.docs.map((d) => d._id));
      if (!page.next) break;
      after = page.next;
    }
    expect(pages).toEqual([['held_0'], [], ['held_1']]);
  });

  it('lists the holding subscriptions from their markers, and none once settled', async () => {
    const f = fakeDb();
    const repo = new HeldDeliveryRepository(f.db, now);
    await repo.hold([record(0), record(1)]);
    expect(await repo.holding()).toEqual([{ subscriptionId: sub, settling: false }]);
    expect(await drainIds(repo)).toEqual(['held_0', 'held_1']);
    expect(await repo.holding()).toEqual([]);
    expect([...f.of('held_slots').values()]).toEqual([]);
  });

  it('finds a delivery held behind the drain (an older emission held after the cursor passed it)', async () => {
    const f = fakeDb();
    const repo = new HeldDeliveryRepository(f.db, now);
    await repo.hold([record(5)]);
    const page = await repo.page(sub, 10);
    await repo.release(page.docs.map((d) => d._id));
    await repo.hold([record(1)]);
    expect(await repo.settle(sub)).toBe(false);
    expect((await repo.page(sub, 10)).docs.map((d) => d._id)).toEqual(['held_1']);
  });
});

describe('held deliveries: concurrent holds', () => {
  it('a hold of an older emission landing inside another hold\'s marker write is still read from the first page', async () => {
    const f = fakeDb();
    const repo = new HeldDeliveryRepository(f.db, now);
    const other = new HeldDeliveryRepository(f.db, now);
    await repo.hold([record(180)]);
    let landed = false;
    f.hooks.before = async (op) => {
      // Between another hold's read and write of the marker (FerretDB's read-then-write), or at its marker insert.
      if (landed || (op !== 'held_marks.updateOne.write' && op !== 'held_marks.insertOne')) return;
      landed = true;
      await other.hold([record(0)]);
    };
    await repo.hold([record(300)]);
    f.hooks.before = () => {};
    expect(landed).toBe(true);
    expect((await repo.page(sub, 10)).docs.map((d) => d._id)).toEqual(['held_0', 'held_180', 'held_300']);
  });
});

describe('held deliveries: a crash at any write leaves every record findable', () => {
  // Each command settle makes, in order: a hold lands just before the first, the process dies at the second.
  const settleSteps: Array<[string, string]> = [
    ...['held_deliveries.countDocuments', 'held_settling.insertOne', 'held_slots.deleteMany', 'held_claims.deleteMany', 'held_marks.deleteMany', 'held_deliveries.countDocuments#2', 'held_settling.deleteOne'].map((s): [string, string] => [s, s]),
    // Held before the re-count: the repair that follows crashes.
    ...['held_slots.deleteMany#2', 'held_deliveries.find', 'held_marks.insertOne', 'held_slots.insertMany'].map((s): [string, string] => ['held_deliveries.countDocuments#2', s]),
  ];

  it.each(settleSteps)('settle with a delivery held at %s, crashing at %s', async (holdAt, step) => {
    const f = fakeDb();
    const repo = new HeldDeliveryRepository(f.db, now);
    const other = new HeldDeliveryRepository(f.db, now);
    await repo.hold([record(0)]);
    await repo.release(['held_0']);
    const seen = new Map<string, number>();
    let reached = false;
    f.hooks.before = async (op) => {
      const n = (seen.get(op) ?? 0) + 1;
      seen.set(op, n);
      const at = `${op}${n > 1 ? `#${n}` : ''}`;
      if (at === holdAt) {
        // A round that read the pause before the resume holds now: its whole hold lands here.
        const hooked = f.hooks.before;
        f.hooks.before = () => {};
        await other.hold([record(3)]);
        f.hooks.before = hooked;
      }
      if (at === step) {
        reached = true;
        throw new Crash();
      }
    };
    // Counted from here: the hold's own commands are not settle's.
    f.ops.length = 0;
    await repo.settle(sub).catch((err: unknown) => expect(err).toBeInstanceOf(Crash));
    expect(reached).toBe(true);
    f.hooks.before = () => {};
    // After the crash: the sweep lists it (marker or settle note), and what it, or a drain, does finds the record.
    expect((await repo.holding()).map((h) => h.subscriptionId)).toEqual([sub]);
    expect(await drainIds(repo)).toEqual(['held_3']);
    expect(await repo.holding()).toEqual([]);
  });

  it('settle with nothing held meanwhile, crashing after the marker went: the settle note keeps it listed', async () => {
    const f = fakeDb();
    const repo = new HeldDeliveryRepository(f.db, now);
    await repo.hold([record(0)]);
    await repo.release(['held_0']);
    f.hooks.before = (op) => {
      if (op === 'held_settling.deleteOne') throw new Crash();
    };
    await expect(repo.settle(sub)).rejects.toBeInstanceOf(Crash);
    f.hooks.before = () => {};
    expect(await repo.holding()).toEqual([{ subscriptionId: sub, settling: true }]);
    expect(await repo.settle(sub)).toBe(true);
    expect(await repo.holding()).toEqual([]);
  });

  it('a settle note goes once the repair it asked for is done: the sweep does not repair every pass', async () => {
    const f = fakeDb();
    const repo = new HeldDeliveryRepository(f.db, now);
    await repo.hold([record(0)]);
    f.of('held_settling').set(sub, { _id: sub, at: new Date(t0) });
    expect(await repo.settle(sub)).toBe(false);
    expect(await repo.holding()).toEqual([{ subscriptionId: sub, settling: false }]);
  });

  // Each command a hold makes: a crash right after it.
  const holdSteps = ['held_marks.insertOne', 'held_deliveries.insertMany', 'held_slots.insertMany'];

  it.each(holdSteps)('a hold crashing after %s leaves its records marked', async (step) => {
    const f = fakeDb();
    const repo = new HeldDeliveryRepository(f.db, now);
    let crashed = false;
    const hold = repo.hold([record(0), record(90)]);
    // Crash on the command after the step: the step itself is stored.
    let after = false;
    f.hooks.before = (op) => {
      if (crashed) return;
      if (after) {
        crashed = true;
        throw new Crash();
      }
      if (op === step) after = true;
    };
    await hold.catch((err: unknown) => expect(err).toBeInstanceOf(Crash));
    f.hooks.before = () => {};
    const stored = [...f.of('held_deliveries').keys()];
    if (stored.length === 0) return;
    expect((await repo.holding()).map((h) => h.subscriptionId)).toEqual([sub]);
    expect((await drainIds(repo)).sort()).toEqual(stored.sort());
  });
});

describe('held deliveries: one actor per record', () => {
  it('gives a record to whichever of drain and expiry claims it first; the same one may claim again', async () => {
    const f = fakeDb();
    const repo = new HeldDeliveryRepository(f.db, now);
    const docs = [record(0), record(1)];
    expect([...(await repo.claim([docs[0]!], 'drain'))]).toEqual(['held_0']);
    expect([...(await repo.claim(docs, 'expiry'))]).toEqual(['held_1']);
    expect([...(await repo.claim(docs, 'drain'))]).toEqual(['held_0']);
  });

  it('tells whose each record is when the first of a batch was claimed before (a batch stops at a duplicate)', async () => {
    const f = fakeDb();
    const repo = new HeldDeliveryRepository(f.db, now);
    const docs = [record(0), record(1), record(2)];
    expect([...(await repo.claim([docs[0]!], 'expiry'))]).toEqual(['held_0']);
    expect([...(await repo.claim([docs[2]!], 'drain'))]).toEqual(['held_2']);
    expect([...(await repo.claim(docs, 'drain'))].sort()).toEqual(['held_1', 'held_2']);
    expect([...(await repo.claim(docs, 'expiry'))]).toEqual(['held_0']);
  });

  it('gives up a claim of its own only', async () => {
    const f = fakeDb();
    const repo = new HeldDeliveryRepository(f.db, now);
    const docs = [record(0), record(1)];
    await repo.claim([docs[0]!], 'drain');
    await repo.claim([docs[1]!], 'expiry');
    await repo.unclaim(['held_0', 'held_1'], 'drain');
    expect([...(await repo.claim(docs, 'expiry'))].sort()).toEqual(['held_0', 'held_1']);
  });
});
