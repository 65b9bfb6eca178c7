import { type Db, type Document, MongoClient } from 'mongodb';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createMongo } from '../../../src/db/mongo';
import { DENSE_AFTER, LEVEL_MS, Timeline, timelineTags } from '../../../src/db/timeline';
import { dbCommandCounter } from '../../../src/telemetry/db-commands';
import { counts, moved } from '../../support/db-commands';

interface Item {
  _id: string;
  at: Date;
  kind: 'a' | 'b';
  tl: string[];
}

const DAY = LEVEL_MS[2];
const now = Date.UTC(2026, 10, 24, 12, 0, 0);
let client: MongoClient;
let db: Db;

beforeAll(() => {
  client = new MongoClient(inject('mongoUri'));
  db = client.db(`timeline_${Date.now()}`);
});
afterAll(async () => {
  await db.dropDatabase();
  await client.close();
});

/** Writes items the way a repository does: buckets first, then the documents. */
async function write(timeline: Timeline, items: Array<Omit<Item, 'tl'>>, keysOf: (i: Omit<Item, 'tl'>) => string[]): Promise<Item[]> {
  await timeline.register(items.map((i) => ({ keys: keysOf(i), at: i.at })));
  const docs = items.map((i) => ({ ...i, tl: timelineTags(keysOf(i), i.at) }));
  await db.collection<Item>('items').insertMany(docs);
  return docs;
}

const newestFirst = (a: Pick<Item, '_id' | 'at'>, b: Pick<Item, '_id' | 'at'>) => b.at.getTime() - a.at.getTime() || (a._id < b._id ? 1 : -1);

describe('timeline: newest-first pages from bounded bucket reads', () => {
  it('pages through a list spread over days, hours and seconds exactly like a sort would, ties included', async () => {
    const timeline = new Timeline(db, 'items', 'timeline_pages');
    await timeline.ensureIndexes();
    const items: Array<Omit<Item, 'tl'>> = [];
    // Dense now, sparse across the last 9 days, and several items sharing one instant.
    for (let i = 0; i < 120; i += 1) items.push({ _id: `n${String(i).padStart(3, '0')}`, at: new Date(now - i * 700), kind: i % 3 ? 'a' : 'b' });
    for (let d = 1; d < 10; d += 1) items.push({ _id: `d${d}`, at: new Date(now - d * DAY - d * 3_600_000), kind: 'a' });
    for (let i = 0; i < 5; i += 1) items.push({ _id: `tie${i}`, at: new Date(now - 5 * 3_600_000), kind: 'b' });
    const docs = await write(timeline, items, (i) => ['k:1', `k:1|${i.kind}`]);
    await write(timeline, [{ _id: 'other', at: new Date(now), kind: 'a' }], () => ['k:2']);

    const expected = [...docs].sort(newestFirst).map((d) => d._id);
    const seen: string[] = [];
    let after: { at: Date; id: string } | undefined;
    for (let pages = 0; pages < 40; pages += 1) {
      const page = await timeline.page(db.collection<Item>('items'), 'k:1', { timeField: 'at', limit: 7, ...(after ? { after } : {}) });
      seen.push(...page.map((d) => d._id));
      const last = page.at(-1);
      if (page.length < 7 || !last) break;
      after = { at: last.at, id: last._id };
    }
    expect(seen).toEqual(expected);

    // A per-kind list is its own key; notBefore bounds the walk by time.
    const bs = await timeline.page(db.collection<Item>('items'), 'k:1|b', { timeField: 'at', limit: 100 });
    expect(bs.map((d) => d._id)).toEqual(docs.filter((d) => d.kind === 'b').sort(newestFirst).map((d) => d._id));
    const recent = await timeline.page(db.collection<Item>('items'), 'k:1', { timeField: 'at', limit: 1000, notBefore: new Date(now - 3 * DAY) });
    expect(recent.map((d) => d._id)).toEqual(docs.filter((d) => d.at.getTime() >= now - 3 * DAY).sort(newestFirst).map((d) => d._id));
  });

  it('reads a dense list by tenths of its buckets: a page reads about a page of documents, in the order a sort gives', async () => {
    // Every `find` the timeline sends to the data collection, to count what each one matches.
    const watched = new MongoClient(inject('mongoUri'), { monitorCommands: true });
    const finds: Document[] = [];
    watched.on('commandStarted', (e) => {
      if (e.commandName === 'find' && e.command.find === 'dense') finds.push(e.command.filter as Document);
    });
    try {
      const timeline = new Timeline(watched.db(db.databaseName), 'dense', 'timeline_dense', { denseSince: 0 });
      const data = watched.db(db.databaseName).collection<Pick<Item, '_id' | 'at' | 'tl'> & { tl_tenth: number }>('dense');
      // 20 a second for 30 s (three buckets of 200, tenths of 20), in rounds of 20 as deliveries write them; a few older ones.
      const items = Array.from({ length: 600 }, (_, i) => ({ _id: `d${String(i).padStart(3, '0')}`, at: new Date(now - 50 - i * 50) }));
      items.push(...Array.from({ length: 5 }, (_, i) => ({ _id: `o${i}`, at: new Date(now - 3_600_000 - i * 60_000) })));
      for (let i = 0; i < items.length; i += 20) await data.insertMany(await timeline.listed(items.slice(i, i + 20), () => ['all', 'k:1'], (d) => d.at));
      // Each of the three full buckets was recorded dense (not in `all`, which only retention reads); the older ones were not.
      expect(await db.collection('timeline_dense').countDocuments({ _id: { $regex: /#dense$/ } } as Document)).toBe(3);
      expect(DENSE_AFTER).toBeLessThan(200);

      // What the database reads for a page: every document its reads' equality part matches.
      const rowsRead = async () => {
        let rows = 0;
        for (const f of finds.splice(0)) rows += await db.collection('dense').countDocuments({ tl: f.tl, ...(f.tl_tenth === undefined ? {} : { tl_tenth: f.tl_tenth }) });
        return rows;
      };
      const expected = [...items].sort(newestFirst).map((d) => d._id);
      const seen: string[] = [];
      const reads: number[] = [];
      let after: { at: Date; id: string } | undefined;
      for (let pages = 0; pages < 50; pages += 1) {
        const page = await timeline.page(data, 'k:1', { timeField: 'at', limit: 20, ...(after ? { after } : {}) });
        reads.push(await rowsRead());
        seen.push(...page.map((d) => d._id));
        const last = page.at(-1);
        if (page.length < 20 || !last) break;
        after = { at: last.at, id: last._id };
      }
      expect(seen).toEqual(expected);
      // A page within the dense buckets reads at most three tenths of 20, never a bucket of 200.
      expect(Math.max(...reads.slice(0, 29))).toBeLessThanOrEqual(60);

      // A larger read takes the buckets whole, and lists the same.
      const all = await timeline.page(data, 'k:1', { timeField: 'at', limit: 1000 });
      expect(all.map((d) => d._id)).toEqual(expected);
      expect(finds.every((f) => f.tl_tenth === undefined)).toBe(true);

      // Retention takes the dense entries with their buckets (the day, not over yet, stays).
      expect(await timeline.expire(data, 'all', new Date(now + LEVEL_MS[0]), 1000)).toMatchObject({ deleted: items.length, more: false });
      expect((await db.collection('timeline_dense').find({}).toArray()).map((e) => String(e._id)).filter((id) => !id.includes('@2:'))).toEqual([]);
    } finally {
      await watched.close();
    }
  });

  it('reads the directory of a list whose newest hour it knows in one round trip, and still pages like a sort', async () => {
    // Each directory read's start and end, in the order the driver reports them.
    const watched = new MongoClient(inject('mongoUri'), { monitorCommands: true });
    const log: Array<{ event: 'start' | 'end'; id: number; up?: string }> = [];
    watched.on('commandStarted', (e) => {
      if (e.commandName === 'find' && e.command.find === 'timeline_ahead') log.push({ event: 'start', id: e.requestId, up: String((e.command.filter as Document).up) });
    });
    watched.on('commandSucceeded', (e) => {
      if (e.commandName === 'find') log.push({ event: 'end', id: e.requestId });
    });
    try {
      // Clear of an hour's end, so the pages' newest hour is the one written.
      if (LEVEL_MS[1] - (Date.now() % LEVEL_MS[1]) < 10_000) await new Promise((r) => setTimeout(r, 11_000));
      const mdb = watched.db(db.databaseName);
      const writer = new Timeline(mdb, 'ahead', 'timeline_ahead');
      const data = mdb.collection<Pick<Item, '_id' | 'at' | 'tl'>>('ahead');
      // Within the last minute (the page's newest hour is the real one) and a few in earlier hours.
      const t = Date.now();
      const items = [...Array.from({ length: 30 }, (_, i) => ({ _id: `r${String(i).padStart(2, '0')}`, at: new Date(t - 1_000 - i * 1_500) })), ...[2, 5, 30].map((h) => ({ _id: `h${h}`, at: new Date(t - h * 3_600_000) }))];
      await data.insertMany(await writer.listed(items, () => ['k:1'], (d) => d.at));
      // Connections enough for three reads at once, so the log shows overlap, not the pool.
      await Promise.all(Array.from({ length: 4 }, () => mdb.collection('timeline_ahead').findOne({ up: 'none' })));

      const expected = [...items].sort(newestFirst).map((d) => d._id);
      const pageOf = async (timeline: Timeline) => {
        const seen: string[] = [];
        let after: { at: Date; id: string } | undefined;
        for (let pages = 0; pages < 10; pages += 1) {
          const page = await timeline.page(data, 'k:1', { timeField: 'at', limit: 8, ...(after ? { after } : {}) });
          seen.push(...page.map((d) => d._id));
          const last = page.at(-1);
          if (page.length < 8 || !last) break;
          after = { at: last.at, id: last._id };
        }
        return seen;
      };
      // Reads still in flight when a read of the page's path (the list, its day, its hour) started.
      const overlap = () => {
        const open = new Set<number>();
        let most = 0;
        for (const e of log.splice(0)) {
          if (e.event === 'start') open.add(e.id);
          else open.delete(e.id);
          most = Math.max(most, open.size);
        }
        return most;
      };

      // The writer knows the path of what it wrote: list, day and hour are read at once.
      log.splice(0);
      await writer.page(data, 'k:1', { timeField: 'at', limit: 8 });
      expect(overlap()).toBe(3);
      expect(await pageOf(writer)).toEqual(expected);

      // A reader that never wrote walks level by level first, then reads ahead where it has been.
      const reader = new Timeline(mdb, 'ahead', 'timeline_ahead');
      log.splice(0);
      await reader.page(data, 'k:1', { timeField: 'at', limit: 8 });
      expect(overlap()).toBe(1);
      await reader.page(data, 'k:1', { timeField: 'at', limit: 8 });
      expect(overlap()).toBe(3);
      expect(await pageOf(reader)).toEqual(expected);
    } finally {
      await watched.close();
    }
  });

  it('reads none of the seconds still to come of a bucket being written, and fills a first page in one round', async () => {
    const watched = new MongoClient(inject('mongoUri'), { monitorCommands: true });
    const tenths: number[][] = [];
    watched.on('commandStarted', (e) => {
      if (e.commandName === 'find' && e.command.find === 'writing') tenths.at(-1)?.push((e.command.filter as Document).tl_tenth as number);
    });
    try {
      // Six seconds or more into a bucket, so its seconds to come are a few.
      const into = Date.now() % LEVEL_MS[0];
      if (into < 6_000 || into > 8_500) await new Promise((r) => setTimeout(r, (LEVEL_MS[0] + 6_000 - into) % LEVEL_MS[0] + 50));
      const start = Date.now() - (Date.now() % LEVEL_MS[0]);
      const mdb = watched.db(db.databaseName);
      const timeline = new Timeline(mdb, 'writing', 'timeline_writing', { denseSince: 0 });
      const data = mdb.collection<Pick<Item, '_id' | 'at' | 'tl'> & { tl_tenth: number }>('writing');
      // 20 a second from the bucket's start until now (120 or more): recorded dense.
      const written = Math.floor((Date.now() - start - 25) / 50);
      const items = Array.from({ length: written }, (_, i) => ({ _id: `w${String(i).padStart(3, '0')}`, at: new Date(start + 25 + i * 50) }));
      for (let i = 0; i < items.length; i += 20) await data.insertMany(await timeline.listed(items.slice(i, i + 20), () => ['k:1'], (d) => d.at));
      expect(await mdb.collection('timeline_writing').countDocuments({ _id: { $regex: /#dense$/ } } as Document)).toBe(1);

      tenths.push([]);
      const page = await timeline.page(data, 'k:1', { timeField: 'at', limit: 20 });
      const now = Math.floor((Date.now() - start) / 1000);
      expect(page.map((d) => d._id)).toEqual([...items].sort(newestFirst).slice(0, 20).map((d) => d._id));
      // Its first round: the second after now (a clock a little ahead), now, and those that fill 20.
      const [reads] = tenths;
      expect(reads!.length).toBe(3);
      expect(Math.max(...reads!)).toBeLessThanOrEqual(now + 1);
    } finally {
      await watched.close();
    }
  });

  it('never records a bucket dense that began before the process: an earlier version may have written it untagged', async () => {
    const timeline = new Timeline(db, 'upgrade', 'timeline_upgrade');
    const data = db.collection<Pick<Item, '_id' | 'at' | 'tl'>>('upgrade');
    // 200 documents in one bucket that began 20 s before this Timeline was made.
    const start = Math.floor((Date.now() - 20_000) / 10_000) * 10_000;
    const items = Array.from({ length: 200 }, (_, i) => ({ _id: `u${String(i).padStart(3, '0')}`, at: new Date(start + 9_000 - i * 40) }));
    for (let i = 0; i < items.length; i += 20) await data.insertMany(await timeline.listed(items.slice(i, i + 20), () => ['k:1'], (d) => d.at));
    expect(await db.collection('timeline_upgrade').countDocuments({ _id: { $regex: /#dense$/ } } as Document)).toBe(0);
    const page = await timeline.page(data, 'k:1', { timeField: 'at', limit: 20 });
    expect(page.map((d) => d._id)).toEqual(items.slice(0, 20).map((d) => d._id));
  });

  it('registers each bucket once however many writers race', async () => {
    const writers = [new Timeline(db, 'race', 'timeline_race'), new Timeline(db, 'race', 'timeline_race'), new Timeline(db, 'race', 'timeline_race')];
    await Promise.all(writers.map((w) => w.register([{ keys: ['r:1', 'r:2'], at: new Date(now) }])));
    expect(await db.collection('timeline_race').countDocuments({})).toBe(6);
  });

  it('expires whole buckets oldest first, with the directory entries of every key, and resumes where a bounded call stopped', async () => {
    const timeline = new Timeline(db, 'expiring', 'timeline_expire');
    const items: Array<Omit<Item, 'tl'>> = [];
    for (let i = 0; i < 60; i += 1) items.push({ _id: `x${String(i).padStart(2, '0')}`, at: new Date(now - i * 3 * 3_600_000), kind: i % 2 ? 'a' : 'b' });
    await timeline.register(items.map((i) => ({ keys: ['all', `k|${i.kind}`], at: i.at })));
    const data = db.collection<Item>('expiring');
    await data.insertMany(items.map((i) => ({ ...i, tl: timelineTags(['all', `k|${i.kind}`], i.at) })));

    const before = new Date(now - 4 * DAY);
    const first = await timeline.expire(data, 'all', before, 5);
    expect(first).toMatchObject({ buckets: 5, more: true });
    let total = first.deleted;
    for (let calls = 0; calls < 20; calls += 1) {
      const r = await timeline.expire(data, 'all', before, 5);
      total += r.deleted;
      if (!r.more) break;
    }
    const kept = items.filter((i) => i.at.getTime() + LEVEL_MS[0] > before.getTime());
    expect(total).toBe(items.length - kept.length);
    expect((await data.find({}).toArray()).map((d) => d._id).sort()).toEqual(kept.map((i) => i._id).sort());
    // Lists read nothing of what expired, and no directory entry of an expired bucket is left.
    const bs = await timeline.page(data, 'k|b', { timeField: 'at', limit: 100 });
    expect(bs.map((d) => d._id)).toEqual(kept.filter((i) => i.kind === 'b').sort(newestFirst).map((i) => i._id));
    const entries = await db.collection<{ _id: string; at: Date }>('timeline_expire').find({}).toArray();
    const expiredBuckets = entries.filter((e) => e._id.includes('@0:') && e.at.getTime() + LEVEL_MS[0] <= before.getTime());
    expect(expiredBuckets).toEqual([]);
    expect(entries.filter((e) => e._id.includes('@0:'))).toHaveLength(kept.length * 2);
  });

  it('backfills documents stored before lists existed, once', async () => {
    const timeline = new Timeline(db, 'legacy', 'timeline_legacy');
    const data = db.collection<Omit<Item, 'tl'> & { tl?: string[] }>('legacy');
    const old = Array.from({ length: 1200 }, (_, i) => ({ _id: `l${String(i).padStart(4, '0')}`, at: new Date(now - i * 60_000), kind: i % 2 ? ('a' as const) : ('b' as const) }));
    await data.insertMany(old);
    expect(await timeline.backfill(data, 'at', (d) => ['all', `k|${d.kind}`], 500)).toBe(1200);
    expect(await timeline.backfill(data, 'at', (d) => ['all', `k|${d.kind}`])).toBe(0);
    const page = await timeline.page(data, 'k|a', { timeField: 'at', limit: 1000 });
    expect(page.map((d) => d._id)).toEqual(old.filter((d) => d.kind === 'a').sort(newestFirst).map((d) => d._id));
  });
});

describe('timeline: registering a bucket', () => {
  it('lets concurrent writers of one new bucket share one insert, and a known bucket costs none', async () => {
    const commands = dbCommandCounter(new Registry());
    const counted = createMongo(inject('mongoUri'), db.databaseName, 'timeline-register-test', undefined, commands);
    try {
      const timeline = new Timeline(counted.db, 'items', 'timeline_register');
      const at = new Date(now);
      const before = await counts(commands);
      // Eight requests of one instant, as a burst of orders at a bucket's start registers it.
      await Promise.all(Array.from({ length: 8 }, () => timeline.register([{ keys: ['k:1', 'k:2'], at }])));
      // One insert of the 6 entries (2 keys × bucket, hour, day), none read back: nobody else wrote them.
      expect(moved(before, await counts(commands))).toEqual({ 'insert timeline_register': 1 });
      const known = await counts(commands);
      await timeline.register([{ keys: ['k:1'], at }]);
      expect(moved(known, await counts(commands))).toEqual({});
      expect(await counted.db.collection('timeline_register').countDocuments()).toBe(6);
    } finally {
      await counted.close();
    }
  });
});
