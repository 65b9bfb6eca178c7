import type { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Makes a Temporal connection's call context (deadline, metadata) synchronous: a store set by
 * `run` is seen only by the calls `fn` issues before it first awaits. The SDK's calls read it
 * synchronously (`withMetadata`, which tags every workflow call with its namespace, and
 * `withDeadline(() => service.call())`), and on Node 20 an AsyncLocalStorage that ever ran keeps
 * promise hooks on for every promise of the process. A deadline meant to span awaits (such as a
 * workflow start) needs the connection's own interceptor instead (see start-deadline.ts).
 */
export function synchronousCallContext<T>(storage: AsyncLocalStorage<T>): void {
  let current: T | undefined;
  const run = <R>(store: T, fn: (...args: unknown[]) => R, ...args: unknown[]): R => {
    const outer = current;
    current = store;
    try {
      return fn(...args);
    } finally {
      current = outer;
    }
  };
  Object.assign(storage, {
    getStore: (): T | undefined => current,
    run,
    enterWith: (store: T): void => {
      current = store;
    },
    exit: <R>(fn: (...args: unknown[]) => R, ...args: unknown[]): R => run(undefined as T, fn, ...args),
    disable: (): void => {
      current = undefined;
    },
  });
}
