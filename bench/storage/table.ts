/**
 * The pure parts of `npm run bench:storage`: options, the attempt documents, and the markdown
 * row each (backend, size) prints.
 */
import { parseArgs } from 'node:util';
import { percentile } from '../lib/stats';

export const allBackends = ['sqlite', 'pg', 'pg-nogin'] as const;
export type Backend = (typeof allBackends)[number];

export interface StorageOptions {
  sizes: number[];
  backends: Backend[];
  /** Hard limit for the whole run, seconds. */
  maxSeconds: number;
  /** Limit of each measurement, seconds. */
  limitSeconds: number;
}

export const storageUsage = [
  'usage: npm run bench:storage -- [options]',
  '  --sizes <list>  collection sizes, ascending (default 5000,20000,100000)',
  `  --backends <list>  of ${allBackends.join(',')} (default all)`,
  '  --limit-seconds <n>  time limit of each measurement (default 60)',
  '  --max-seconds <n>  hard limit of the whole run (default 1500)',
  '',
].join('\n');

/** Reads the flags; throws on a bad value. `help` asks for the usage text. */
export function parseStorageOptions(argv: string[]): StorageOptions & { help: boolean } {
  const { values: v } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      sizes: { type: 'string', default: '5000,20000,100000' },
      backends: { type: 'string', default: allBackends.join(',') },
      'max-seconds': { type: 'string', default: '1500' },
      'limit-seconds': { type: 'string', default: '60' },
      help: { type: 'boolean', default: false },
    },
  });
  const int = (flag: string, raw: string, min: number, max: number): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${flag} takes whole numbers from ${min} to ${max}, got ${raw}`);
    return n;
  };
  const sizes = v.sizes.split(',').map((s) => int('sizes', s.trim(), 100, 10_000_000));
  // The collection grows from one size to the next.
  if (sizes.some((s, i) => i > 0 && s <= sizes[i - 1]!)) throw new Error(`--sizes must be ascending, got ${v.sizes}`);
  const backends = v.backends.split(',').map((b) => b.trim());
  const unknown = backends.filter((b) => !(allBackends as readonly string[]).includes(b));
  if (unknown.length || !backends.length) throw new Error(`--backends takes a subset of ${allBackends.join(',')}; unknown: ${unknown.join(',')}`);
  return {
    sizes,
    backends: allBackends.filter((b) => backends.includes(b)),
    maxSeconds: int('max-seconds', v['max-seconds'], 60, 24 * 3600),
    limitSeconds: int('limit-seconds', v['limit-seconds'], 1, 3600),
    help: v.help,
  };
}

export const subscriptionCount = 50;
const excerpt = '{"ok":true,"received":"evt","note":"thanks, stored for processing"}'.padEnd(100, '.');

/** The n-th attempt: 50 subscriptions in turn, 5 attempts (to 5 subscriptions) per event, 0.5 s apart. */
export function attemptDoc(n: number, epochMs = Date.UTC(2026, 10, 1)) {
  const sub = n % subscriptionCount;
  return {
    _id: `att_${n}`,
    subscription_id: subscriptionId(sub),
    event_id: `evt_${Math.floor(n / 5)}`,
    attempt: 1,
    started_at: new Date(epochMs + n * 500),
    state: n % 20 === 0 ? 'failed' : 'delivered',
    outcome: n % 20 === 0 ? 'http_error' : 'delivered',
    status_code: n % 20 === 0 ? 503 : 200,
    duration_ms: 5 + (n % 200),
    url: `https://hooks.example.com/${subscriptionId(sub)}/receive`,
    response_excerpt: excerpt,
  };
}

export const subscriptionId = (i: number) => `sub_${String(i).padStart(2, '0')}`;

/** A seeded PRNG (mulberry32): the same ids are picked on every backend. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A short name for an error: SQLITE_BUSY, or its first line cut to 80 characters. */
export function errorKind(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  if (/SQLITE_BUSY|database is locked/i.test(text)) return 'SQLITE_BUSY';
  const line = text.split('\n')[0]!.replace(/\|/g, '/').trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

/** What one measurement got: the latencies (ms) of the calls that finished, or a count of ops. */
export interface Measured {
  /** Calls asked for. */
  total: number;
  /** Milliseconds of each call that succeeded. */
  times: number[];
  /** Failed calls, by {@link errorKind}. */
  errors: Record<string, number>;
  /** Wall-clock seconds of the whole measurement. */
  seconds: number;
  /** The time limit (seconds) when it ran into it. */
  timedOutAfter?: number;
}

export interface Row {
  backend: Backend;
  size: number;
  /** Docs inserted to reach `size` (from the previous size) and how long it took. */
  insert?: { docs: number; seconds: number; timedOutAfter?: number; reached: number };
  findById?: Measured;
  sorted?: Measured;
  twoFields?: Measured;
  updates?: Measured;
  insertOne?: Measured;
  /** The size failed as a whole (a server died, the insert failed): its text. */
  error?: string;
}

export const tableHeader =
  '| Backend | N | bulk insert docs/s | findOne `_id` p50 / p99 ms | sort+limit 20 p50 / p99 ms | 2-field equality p50 ms | updateOne ×16: ops/s, errors | insertOne p50 ms |\n' +
  '|---|---|---|---|---|---|---|---|';

const thousands = (n: number) => n.toLocaleString('en-US');

/** Milliseconds: one decimal below 10, whole above. */
export function ms(v: number): string {
  if (!Number.isFinite(v)) return '–';
  return v < 10 ? v.toFixed(1) : String(Math.round(v));
}

const errorCount = (m: Measured) => Object.values(m.errors).reduce((a, b) => a + b, 0);
const errorText = (m: Measured) =>
  Object.entries(m.errors)
    .map(([kind, n]) => `${n}× ${kind}`)
    .join(', ');

/** A latency cell: p50 (and p99), "> 60 s (k of n)" past the limit, the error when every call failed. */
export function latencyCell(m: Measured | undefined, withP99: boolean): string {
  if (!m) return '';
  const sorted = [...m.times].sort((a, b) => a - b);
  const value = withP99 ? `${ms(percentile(sorted, 0.5))} / ${ms(percentile(sorted, 0.99))}` : ms(percentile(sorted, 0.5));
  const failed = errorCount(m) ? `; ${errorText(m)}` : '';
  if (m.timedOutAfter !== undefined) return `> ${m.timedOutAfter} s (${m.times.length} of ${m.total}${sorted.length ? `, p50 ${ms(percentile(sorted, 0.5))}` : ''}${failed})`;
  if (!sorted.length) return `all failed: ${errorText(m)}`;
  return value + failed;
}

/** The concurrent updates: succeeded per second, and errors by kind. */
export function updatesCell(m: Measured | undefined): string {
  if (!m) return '';
  const rate = m.seconds > 0 ? m.times.length / m.seconds : 0;
  const errors = errorCount(m) ? `${errorCount(m)} errors (${errorText(m)})` : '0 errors';
  const limit = m.timedOutAfter !== undefined ? `> ${m.timedOutAfter} s (${m.times.length + errorCount(m)} of ${m.total}): ` : '';
  return `${limit}${rate >= 100 ? Math.round(rate) : rate.toFixed(1)}/s, ${errors}`;
}

export function insertCell(i: Row['insert']): string {
  if (!i) return '';
  const rate = i.seconds > 0 ? Math.round(i.docs / i.seconds) : 0;
  if (i.timedOutAfter !== undefined) return `> ${i.timedOutAfter} s (reached ${thousands(i.reached)}, ${thousands(rate)}/s)`;
  return thousands(rate);
}

/** One markdown row; a size that failed as a whole shows its error after what it measured. */
export function formatRow(r: Row): string {
  const cells = [
    r.backend,
    thousands(r.size),
    insertCell(r.insert),
    latencyCell(r.findById, true),
    latencyCell(r.sorted, true),
    latencyCell(r.twoFields, false),
    updatesCell(r.updates),
    latencyCell(r.insertOne, false),
  ];
  if (r.error) {
    const at = cells.findIndex((c, i) => i > 1 && c === '');
    const text = `error: ${r.error.split('\n')[0]!.replace(/\|/g, '/').slice(0, 200)}`;
    if (at === -1) cells[cells.length - 1] += `; ${text}`;
    else cells[at] = text;
  }
  return `| ${cells.join(' | ')} |`;
}
