import { describe, expect, it } from 'vitest';
import { BrokerPool } from '../../../activities/broker-pool';
import { BrokerPools } from '../../../activities/broker-pools';

/** A fake connection: `close` answers as told, and records that it was asked. */
interface Fake {
  name: string;
  closed: boolean;
  answer: 'at once' | 'never';
}

function fakePool() {
  const asked: string[] = [];
  const pool = new BrokerPool<Fake>((c) => {
    asked.push(c.name);
    if (c.answer === 'never') return new Promise<void>(() => undefined);
    c.closed = true;
    return Promise.resolve();
  });
  return { pool, asked };
}

const fake = (name: string, answer: Fake['answer'] = 'at once'): Fake => ({ name, closed: false, answer });

describe('closing a broker pool at worker shutdown', () => {
  it('closes every open connection, idle or leased, and empties the pool', async () => {
    const { pool, asked } = fakePool();
    const a = fake('a');
    const b = fake('b');
    pool.acquire('sub_a', () => Promise.resolve(a)).release();
    const leased = pool.acquire('sub_b', () => Promise.resolve(b));
    await leased.connection;
    expect(await pool.close(1000)).toBe(0);
    expect(asked.sort()).toEqual(['a', 'b']);
    expect([a.closed, b.closed]).toEqual([true, true]);
    expect(pool.size).toBe(0);
  });

  it('gives a broker that never answers its close no more than the bound, and counts it', async () => {
    const { pool, asked } = fakePool();
    const silent = fake('silent', 'never');
    const fine = fake('fine');
    pool.acquire('sub_silent', () => Promise.resolve(silent)).release();
    pool.acquire('sub_fine', () => Promise.resolve(fine)).release();
    // Resolves (the test would time out otherwise) with the one left to the process's exit.
    expect(await pool.close(20)).toBe(1);
    expect(asked.sort()).toEqual(['fine', 'silent']);
    expect(fine.closed).toBe(true);
  });

  it('closes a connection still being opened once it opens, and does not wait past the bound for it', async () => {
    const { pool } = fakePool();
    let opened!: (c: Fake) => void;
    const late = fake('late');
    pool.acquire('sub_late', () => new Promise<Fake>((resolve) => (opened = resolve))).release();
    expect(await pool.close(20)).toBe(1);
    opened(late);
    await new Promise((r) => setImmediate(r));
    expect(late.closed).toBe(true);
  });

  it('does not count a connection that never opened', async () => {
    const { pool, asked } = fakePool();
    const lease = pool.acquire('sub_down', () => Promise.reject(new Error('ECONNREFUSED')));
    await lease.connection.catch(() => undefined);
    lease.release();
    expect(await pool.close(20)).toBe(0);
    expect(asked).toEqual([]);
  });

  it('opens a new connection when used after closing', async () => {
    const { pool } = fakePool();
    const first = fake('first');
    const second = fake('second');
    pool.acquire('sub_a', () => Promise.resolve(first)).release();
    await pool.close(1000);
    const lease = pool.acquire('sub_a', () => Promise.resolve(second));
    expect(await lease.connection).toBe(second);
    lease.release();
    await pool.close(1000);
  });

  it('closes nothing for a worker that delivered to no broker', async () => {
    expect(await new BrokerPools().close(20)).toBe(0);
  });
});
