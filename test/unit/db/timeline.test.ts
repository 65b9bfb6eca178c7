import { describe, expect, it } from 'vitest';
import { denseEntry, LEVEL_MS, tenthOf, timelineEntries, timelineTags } from '../../../src/db/timeline';

const at = new Date(Date.UTC(2026, 10, 24, 13, 37, 42, 500));
const bucket = (level: number) => Math.floor(at.getTime() / LEVEL_MS[level]!);

describe('timeline tags and directory entries', () => {
  it('tags a document with the 10-second bucket of each of its lists', () => {
    expect(timelineTags(['all', 's:sub_1'], at)).toEqual([`all@0:${bucket(0)}`, `s:sub_1@0:${bucket(0)}`]);
  });

  it('chains a bucket to its hour, the hour to its day, the day to the list, each with a slot shared by every list', () => {
    const entries = timelineEntries('attempts', ['s:sub_1'], at);
    expect(entries).toEqual([
      { _id: `attempts/s:sub_1@0:${bucket(0)}`, up: `attempts/s:sub_1@1:${bucket(1)}`, at: new Date(bucket(0) * 10_000), slot: `attempts/0:${bucket(0)}` },
      { _id: `attempts/s:sub_1@1:${bucket(1)}`, up: `attempts/s:sub_1@2:${bucket(2)}`, at: new Date(Date.UTC(2026, 10, 24, 13)), slot: `attempts/1:${bucket(1)}` },
      { _id: `attempts/s:sub_1@2:${bucket(2)}`, up: 'attempts/s:sub_1', at: new Date(Date.UTC(2026, 10, 24)), slot: `attempts/2:${bucket(2)}` },
    ]);
    // The tag on the document names the bucket entry, without the namespace.
    expect(entries[0]!._id).toBe(`attempts/${timelineTags(['s:sub_1'], at)[0]}`);
  });

  it('puts documents of the same 10 seconds in one bucket and the next second past it in the next', () => {
    const start = new Date(bucket(0) * 10_000);
    expect(timelineTags(['k'], start)).toEqual(timelineTags(['k'], new Date(start.getTime() + 9_999)));
    expect(timelineTags(['k'], new Date(start.getTime() + 10_000))).not.toEqual(timelineTags(['k'], start));
  });

  it('says in which tenth (second) of its bucket a time falls', () => {
    const start = new Date(bucket(0) * 10_000);
    expect(tenthOf(start)).toBe(0);
    expect(tenthOf(new Date(start.getTime() + 999))).toBe(0);
    expect(tenthOf(new Date(start.getTime() + 1000))).toBe(1);
    expect(tenthOf(new Date(start.getTime() + 9_999))).toBe(9);
    expect(tenthOf(at)).toBe(2);
  });

  it('puts the entry saying a bucket is dense beside the bucket, in its slot, so both go together', () => {
    const [bucketEntry] = timelineEntries('attempts', ['s:sub_1'], at);
    expect(denseEntry('attempts', 's:sub_1', at)).toEqual({ ...bucketEntry, _id: `${bucketEntry!._id}#dense` });
  });
});
