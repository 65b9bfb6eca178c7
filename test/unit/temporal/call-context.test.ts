import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { synchronousCallContext } from '../../../src/temporal/call-context';

describe('synchronousCallContext', () => {
  it('shows the store to what run calls synchronously, nested runs included, and restores the outer one', () => {
    const storage = new AsyncLocalStorage<{ deadline?: number; metadata?: Record<string, string> }>();
    synchronousCallContext(storage);
    expect(storage.getStore()).toBeUndefined();
    const seen = storage.run({ deadline: 5 }, () => {
      const outer = storage.getStore();
      const inner = storage.run({ ...storage.getStore(), metadata: { 'temporal-namespace': 'default' } }, () => storage.getStore());
      return { outer, inner, after: storage.getStore() };
    });
    expect(seen).toEqual({ outer: { deadline: 5 }, inner: { deadline: 5, metadata: { 'temporal-namespace': 'default' } }, after: { deadline: 5 } });
    expect(storage.getStore()).toBeUndefined();
  });

  it('returns what the function returns and restores the store when it throws', async () => {
    const storage = new AsyncLocalStorage<number>();
    synchronousCallContext(storage);
    await expect(storage.run(1, () => Promise.resolve('answer'))).resolves.toBe('answer');
    expect(() =>
      storage.run(2, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(storage.getStore()).toBeUndefined();
  });

  it('is not carried past an await: such a deadline needs the connection interceptor', async () => {
    const storage = new AsyncLocalStorage<number>();
    synchronousCallContext(storage);
    const later = await storage.run(3, async () => {
      await Promise.resolve();
      return storage.getStore();
    });
    expect(later).toBeUndefined();
  });
});
