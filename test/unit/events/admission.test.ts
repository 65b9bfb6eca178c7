import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HELD_NOTE_SLACK_MS, OwnerAdmission } from '../../../src/events/admission';

describe('OwnerAdmission', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** Admission at `rate` workflows/s per owner, every owner contended; records what started when. */
  function admission(rate: number, opts: { maxHeld?: number } = {}) {
    const started: Array<[string, number]> = [];
    const errors: string[] = [];
    const a = new OwnerAdmission({ ratePerSecond: rate, contended: () => true, onError: (_err, owner) => errors.push(owner), ...opts });
    const hold = (owner: string, label: string, weight = 1, fail = false) =>
      a.hold(owner, weight, () => {
        started.push([label, Date.now()]);
        return fail ? Promise.reject(new Error('temporal away')) : Promise.resolve();
      });
    return { a, hold, started, errors };
  }

  it("starts each owner's held writes in order at its rate by their weight, owners side by side", async () => {
    const t0 = Date.now();
    const { hold, started } = admission(4);
    hold('a', 'a1', 2);
    hold('a', 'a2');
    hold('a', 'a3');
    hold('b', 'b1');
    await vi.advanceTimersByTimeAsync(2000);
    expect(started.map(([label, at]) => [label, at - t0])).toEqual([
      ['a1', 0],
      ['b1', 0],
      ['a2', 500],
      ['a3', 750],
    ]);
  });

  it("paces writes held one at a time too: the owner's turn outlasts its empty queue", async () => {
    const t0 = Date.now();
    const { hold, started } = admission(4);
    hold('a', 'a1');
    await vi.advanceTimersByTimeAsync(100);
    hold('a', 'a2');
    await vi.advanceTimersByTimeAsync(1000);
    hold('a', 'a3');
    await vi.advanceTimersByTimeAsync(1000);
    expect(started.map(([label, at]) => [label, at - t0])).toEqual([
      ['a1', 0],
      ['a2', 250],
      ['a3', 1100],
    ]);
  });

  it('holds an owner only on the bulk lane while contended, and every later write once it holds one (order kept)', () => {
    let contended = false;
    const a = new OwnerAdmission({ ratePerSecond: 1, contended: () => contended });
    expect([a.holds('a', true), a.holds('a', false)]).toEqual([false, false]);
    contended = true;
    expect([a.holds('a', true), a.holds('a', false)]).toEqual([true, false]);
    a.hold('a', 1, () => new Promise(() => {}));
    contended = false;
    expect(a.holds('a', false)).toBe(true);
    expect(new OwnerAdmission({ ratePerSecond: 0, contended: () => true }).holds('a', true)).toBe(false);
  });

  it("makes a note due after twice the owner's expected wait plus the slack, and leaves others' notes to the usual grace", () => {
    const { a, hold } = admission(2);
    expect(a.dueTime('a')).toBeUndefined();
    hold('a', 'a1', 3);
    expect(a.dueTime('a')!.getTime() - Date.now()).toBe(2 * 1500 + HELD_NOTE_SLACK_MS);
    expect(a.dueTime('b')).toBeUndefined();
    expect(a.dueTime(undefined)).toBeUndefined();
  });

  it('drains at once what it holds once no other owner sends (within one turn)', async () => {
    const t0 = Date.now();
    let contended = true;
    const started: Array<[string, number]> = [];
    const a = new OwnerAdmission({ ratePerSecond: 4, contended: () => contended });
    for (const label of ['a1', 'a2', 'a3', 'a4']) a.hold('a', 1, () => (started.push([label, Date.now() - t0]), Promise.resolve()));
    await vi.advanceTimersByTimeAsync(100);
    contended = false;
    await vi.advanceTimersByTimeAsync(200);
    // a2 kept the turn it had; the rest follow it at once (a timer of 0 each), not 250 ms apart.
    expect(started.map(([label]) => label)).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(started.map(([, at]) => at)).toEqual([0, 250, 251, 252]);
  });

  it('keeps its turns while starts hang, at most 8 of an owner in flight', async () => {
    const ends: Array<() => void> = [];
    const a = new OwnerAdmission({ ratePerSecond: 1000, contended: () => true });
    for (let i = 0; i < 10; i++) a.hold('a', 1, () => new Promise<void>((resolve) => ends.push(resolve)));
    await vi.advanceTimersByTimeAsync(100);
    expect([ends.length, a.held()]).toEqual([8, 2]);
    ends[0]!();
    await vi.advanceTimersByTimeAsync(100);
    expect([ends.length, a.held()]).toEqual([9, 1]);
  });

  it('goes on past a failed start (its note stays for the relay), refuses past its bound, and stops holding at stop', async () => {
    const { a, hold, started, errors } = admission(10, { maxHeld: 2 });
    expect([hold('a', 'a1', 1, true), hold('a', 'a2'), hold('a', 'a3')]).toEqual([true, true, false]);
    await vi.advanceTimersByTimeAsync(500);
    expect([started.map(([label]) => label), errors]).toEqual([['a1', 'a2'], ['a']]);
    hold('a', 'a4');
    hold('a', 'a5');
    expect(a.stop()).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(started.map(([label]) => label)).toEqual(['a1', 'a2']);
    expect(a.holds('a', true)).toBe(false);
  });
});
