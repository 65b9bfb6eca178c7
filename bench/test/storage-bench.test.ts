import { describe, expect, it } from 'vitest';
import { attemptDoc, errorKind, formatRow, insertCell, latencyCell, type Measured, parseStorageOptions, seededRandom, updatesCell } from '../storage/table';

const measured = (over: Partial<Measured>): Measured => ({ total: 4, times: [1, 2, 3, 40], errors: {}, seconds: 2, ...over });

describe('storage bench options', () => {
  it('defaults to three sizes and every backend', () => {
    expect(parseStorageOptions([])).toEqual({ sizes: [5000, 20_000, 100_000], backends: ['sqlite', 'pg', 'pg-nogin'], maxSeconds: 1500, limitSeconds: 60 });
  });

  it('keeps the backends in their fixed order and takes the limits', () => {
    const o = parseStorageOptions(['--sizes', '1000, 3000', '--backends', 'pg-nogin,sqlite', '--max-seconds', '300', '--limit-seconds', '5']);
    expect(o).toMatchObject({ sizes: [1000, 3000], backends: ['sqlite', 'pg-nogin'], maxSeconds: 300, limitSeconds: 5 });
  });

  it('refuses unknown backends, sizes out of order and bad numbers', () => {
    expect(() => parseStorageOptions(['--backends', 'sqlite,mysql'])).toThrow(/unknown: mysql/);
    expect(() => parseStorageOptions(['--sizes', '20000,5000'])).toThrow(/ascending/);
    expect(() => parseStorageOptions(['--sizes', '5k'])).toThrow(/whole numbers/);
    expect(() => parseStorageOptions(['--max-seconds', '0'])).toThrow(/max-seconds/);
    expect(() => parseStorageOptions(['--quick'])).toThrow();
    expect(() => parseStorageOptions(['--help'])).toThrow();
  });
});

describe('storage bench documents', () => {
  it('spreads attempts over 50 subscriptions, 5 per event, in time order', () => {
    const docs = Array.from({ length: 100 }, (_, n) => attemptDoc(n));
    expect(new Set(docs.map((d) => d.subscription_id)).size).toBe(50);
    expect(new Set(docs.filter((d) => d.event_id === 'evt_3').map((d) => d.subscription_id)).size).toBe(5);
    expect(docs[7]!._id).toBe('att_7');
    expect(docs[8]!.started_at.getTime() - docs[7]!.started_at.getTime()).toBe(500);
    expect(docs[0]!.response_excerpt).toHaveLength(100);
  });

  it('draws the same numbers from the same seed', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const xs = Array.from({ length: 5 }, () => a());
    expect(xs).toEqual(Array.from({ length: 5 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

describe('storage bench rows', () => {
  it('names SQLITE_BUSY, and cuts other errors to one line without table pipes', () => {
    expect(errorKind(new Error('SQLITE_BUSY: database is locked'))).toBe('SQLITE_BUSY');
    expect(errorKind(new Error('a | b\nsecond line'))).toBe('a / b');
    expect(errorKind('x'.repeat(100))).toHaveLength(80);
  });

  it('formats latencies, time limits and failures', () => {
    expect(latencyCell(measured({}), true)).toBe('2.0 / 40');
    expect(latencyCell(measured({ errors: { SQLITE_BUSY: 2 } }), false)).toBe('2.0; 2× SQLITE_BUSY');
    expect(latencyCell(measured({ total: 50, times: [4000, 5000], timedOutAfter: 60 }), true)).toBe('> 60 s (2 of 50, p50 4000)');
    expect(latencyCell(measured({ times: [], errors: { boom: 4 } }), false)).toBe('all failed: 4× boom');
  });

  it('formats the concurrent updates as succeeded per second and errors', () => {
    expect(updatesCell(measured({ total: 400, times: Array(300).fill(1), errors: { SQLITE_BUSY: 100 }, seconds: 2 }))).toBe('150/s, 100 errors (100× SQLITE_BUSY)');
    expect(updatesCell(measured({ total: 400, times: Array(30).fill(1), seconds: 60, timedOutAfter: 60 }))).toBe('> 60 s (30 of 400): 0.5/s, 0 errors');
  });

  it('formats the bulk insert as docs per second, or how far it got', () => {
    expect(insertCell(15_000, measured({ seconds: 3 }), 20_000)).toBe('5,000');
    expect(insertCell(9000, measured({ seconds: 60, timedOutAfter: 60 }), 14_000)).toBe('> 60 s (reached 14,000, 150/s)');
  });

  it('puts a size that failed as a whole in its row, after what it measured', () => {
    expect(formatRow('sqlite', 20_000, ['5,000'], 'server | died\nstack')).toBe('| sqlite | 20,000 | 5,000 | error: server / died |  |  |  |  |');
    expect(formatRow('pg', 100, [], 'x').split('|')).toHaveLength(10);
    expect(formatRow('pg', 100, ['1', '2', '3', '4', '5', '6'])).toBe('| pg | 100 | 1 | 2 | 3 | 4 | 5 | 6 |');
  });
});
