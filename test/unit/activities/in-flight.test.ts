import { afterEach, describe, expect, it, vi } from 'vitest';
import { InFlight } from '../../../activities/in-flight';

describe('InFlight', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes up to the limit, then refuses without waiting', () => {
    const f = new InFlight();
    expect([f.take('s', 2), f.take('s', 2), f.take('s', 2)]).toEqual([true, true, false]);
    expect(f.takeWithin('s', 2, 0)).toBe(false);
    expect(f.count('s')).toBe(2);
  });

  it('hands a released slot to the first waiter, in arrival order, the count unchanged', async () => {
    const f = new InFlight();
    f.take('s', 1);
    const order: string[] = [];
    const first = Promise.resolve(f.takeWithin('s', 1, 10_000)).then((t) => order.push(`first ${t}`));
    const second = Promise.resolve(f.takeWithin('s', 1, 10_000)).then((t) => order.push(`second ${t}`));
    expect(f.take('s', 1)).toBe(false);
    f.release('s');
    await first;
    expect(order).toEqual(['first true']);
    expect(f.count('s')).toBe(1);
    f.release('s');
    await second;
    f.release('s');
    expect(order).toEqual(['first true', 'second true']);
    expect(f.count('s')).toBe(0);
  });

  it('gives up after its wait, and a later release frees the slot instead', async () => {
    vi.useFakeTimers();
    const f = new InFlight();
    f.take('s', 1);
    const waiting = f.takeWithin('s', 1, 500);
    await vi.advanceTimersByTimeAsync(500);
    expect(await waiting).toBe(false);
    f.release('s');
    expect(f.count('s')).toBe(0);
    expect(f.take('s', 1)).toBe(true);
  });
});
