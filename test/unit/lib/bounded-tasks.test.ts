import { describe, expect, it } from 'vitest';
import { BoundedTasks } from '../../../src/lib/bounded-tasks';

/** A promise and its resolver, to end a task when the test says so. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('BoundedTasks', () => {
  it('returns once a task started, not when it ends', async () => {
    const tasks = new BoundedTasks(2);
    const g = gate();
    let ended = false;
    await tasks.start(async () => {
      await g.promise;
      ended = true;
    });
    expect(ended).toBe(false);
    expect(tasks.size).toBe(1);
    g.open();
    await tasks.drain();
    expect(ended).toBe(true);
    expect(tasks.size).toBe(0);
  });

  it('makes a caller past the limit wait until enough units have ended', async () => {
    const tasks = new BoundedTasks(3);
    const first = gate();
    const second = gate();
    await tasks.start(() => first.promise, 2);
    await tasks.start(() => second.promise, 1);
    let third = false;
    const waiting = tasks.start(async () => {}, 2).then(() => (third = true));
    await settle();
    expect(third).toBe(false);
    second.open();
    await settle();
    // One unit free is not room for two.
    expect(third).toBe(false);
    first.open();
    await waiting;
    expect(third).toBe(true);
    await tasks.drain();
  });

  it('starts a task bigger than the limit alone', async () => {
    const tasks = new BoundedTasks(2);
    const g = gate();
    await tasks.start(() => g.promise, 5);
    // It counts as the limit: room comes back as soon as it ends, whatever its size.
    expect(tasks.size).toBe(2);
    let next = false;
    const waiting = tasks.start(async () => {}).then(() => (next = true));
    await settle();
    expect(next).toBe(false);
    g.open();
    await waiting;
    await tasks.drain();
  });

  it('admits callers first come, first served: small ones do not overtake a big one waiting', async () => {
    const tasks = new BoundedTasks(4);
    const held = gate();
    await tasks.start(() => held.promise, 3);
    const order: string[] = [];
    const big = tasks.start(async () => {}, 4).then(() => order.push('big'));
    await settle();
    // One unit is free: a small caller behind the big one still waits its turn.
    const small = tasks.start(async () => {}, 1).then(() => order.push('small'));
    await settle();
    expect(order).toEqual([]);
    held.open();
    await Promise.all([big, small]);
    expect(order).toEqual(['big', 'small']);
    await tasks.drain();
  });

  it('swallows a failed task and frees its units', async () => {
    const tasks = new BoundedTasks(1);
    await tasks.start(() => Promise.reject(new Error('boom')));
    await tasks.start(() => Promise.resolve());
    await tasks.drain();
    expect(tasks.size).toBe(0);
  });

  it('drains tasks that were waiting for room when it was called', async () => {
    const tasks = new BoundedTasks(1);
    const g = gate();
    const order: string[] = [];
    await tasks.start(async () => {
      await g.promise;
      order.push('first');
    });
    const second = tasks.start(() => {
      order.push('second');
      return Promise.resolve();
    });
    const drained = tasks.drain().then(() => order.push('drained'));
    g.open();
    await Promise.all([second, drained]);
    expect(order).toEqual(['first', 'second', 'drained']);
  });
});
