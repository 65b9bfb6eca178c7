import { describe, expect, it } from 'vitest';
import { groupCommit } from '../../../activities/group-commit';

/** A write that records each batch it gets and reports items listed in `stored` as stored earlier; `bad` items fail their batch. */
function fakeWrite(stored: string[] = [], bad: string[] = []) {
  const batches: string[][] = [];
  let release: (() => void) | undefined;
  const gate = { hold: false };
  const write = async (items: string[]): Promise<Set<number>> => {
    batches.push([...items]);
    if (gate.hold) await new Promise<void>((r) => (release = r));
    if (items.some((i) => bad.includes(i))) throw new Error(`bad item in ${items.join(',')}`);
    const earlier = new Set<number>();
    items.forEach((item, i) => {
      if (stored.includes(item)) earlier.add(i);
    });
    return earlier;
  };
  return { write, batches, gate, release: () => release?.() };
}

describe('groupCommit', () => {
  it('writes calls of one turn together, and tells each caller its own earlier items', async () => {
    const { write, batches } = fakeWrite(['b2', 'c1']);
    const record = groupCommit(write);
    const [a, b, c] = await Promise.all([record(['a1']), record(['b1', 'b2']), record(['c1'])]);
    expect(batches).toEqual([['a1', 'b1', 'b2', 'c1']]);
    expect([...a]).toEqual([]);
    expect([...b]).toEqual([1]);
    expect([...c]).toEqual([0]);
  });

  it('groups the calls that arrive while a write is in flight into the next write', async () => {
    const { write, batches, gate, release } = fakeWrite();
    const record = groupCommit(write);
    gate.hold = true;
    const first = record(['a1']);
    await new Promise((r) => setImmediate(r));
    const later = [record(['b1']), record(['c1'])];
    gate.hold = false;
    release();
    await Promise.all([first, ...later]);
    expect(batches).toEqual([['a1'], ['b1', 'c1']]);
  });

  it("fails only the caller whose items cannot be stored; a lone caller's error reaches it as is", async () => {
    const { write, batches } = fakeWrite([], ['bad']);
    const record = groupCommit(write);
    const results = await Promise.allSettled([record(['a1']), record(['bad']), record(['c1'])]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(batches).toEqual([['a1', 'bad', 'c1'], ['a1'], ['bad'], ['c1']]);
    await expect(record(['bad'])).rejects.toThrow('bad item in bad');
  });

  it('keeps up to `parallel` writes in flight; calls beyond them wait and go together in the next', async () => {
    const batches: string[][] = [];
    const gates: Array<() => void> = [];
    const write = async (items: string[]): Promise<Set<number>> => {
      batches.push([...items]);
      await new Promise<void>((r) => gates.push(r));
      return new Set();
    };
    const record = groupCommit(write, 2);
    const turn = () => new Promise((r) => setImmediate(r));
    const calls = [record(['a1'])];
    await turn();
    calls.push(record(['b1']));
    await turn();
    calls.push(record(['c1']), record(['d1']));
    await turn();
    expect(batches).toEqual([['a1'], ['b1']]);
    gates.shift()!();
    await turn();
    expect(batches).toEqual([['a1'], ['b1'], ['c1', 'd1']]);
    while (gates.length > 0) gates.shift()!();
    await Promise.all(calls);
  });
});
