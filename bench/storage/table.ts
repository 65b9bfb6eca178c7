/**
 * The pure parts of `npm run bench:storage` (run.ts): options, the attempt documents, and the
 * markdown row each (backend, size) prints.
 */
import { parseArgs } from 'node:util';
import { percentile } from '../../stack/harness/stats';

export const allBackends = ['sqlite', 'pg', 'pg-nogin'] as const;
export type Backend = (typeof allBackends)[number];

export const storageUsage = 'usage: npm run bench:storage -- [--sizes 5000,20000,100000] [--backends sqlite,pg,pg-nogin] [--limit-seconds 60] [--max-seconds 1500]\n';

/** Reads the flags: ascending sizes (the collection grows through them), backends in their fixed order; throws on a bad value. */
export function parseStorageOptions(argv: string[]) {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      sizes: { type: 'string', default: '5000,20000,100000' },
      backends: { type: 'string', default: allBackends.join(',') },
      'max-seconds': { type: 'string', default: '1500' },
      'limit-seconds': { type: 'string', default: '60' },
    },
  });
  const int = (flag: string, raw: string, min: number, max: number): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${flag} takes whole numbers from ${min} to ${max}, got ${raw}`);
    return n;
  };
  const sizes = v.sizes.split(',').map((s) => int('sizes', s.trim(), 100, 10_000_000));
  if (sizes.some((s, i) => i > 0 && s <= sizes[i - 1]!)) throw new Error(`--sizes must be ascending, got ${v.sizes}`);
  const backends = v.backends.split(',').map((b) => b.trim());
  const unknown = backends.filter((b) => !(allBackends as readonly string[]).includes(b));
  if (unknown.length) throw new Error(`--backends takes a subset of ${allBackends.join(',')}; unknown: ${unknown.join(',')}`);
  return {
    sizes,
    backends: allBackends.filter((b) => backends.includes(b)),
    maxSeconds: int('max-seconds', v['max-seconds'], 60, 24 * 3600),
    limitSeconds: int('limit-seconds', v['limit-seconds'], 1, 3600),
  };
}

export const subscriptionCount = 50;
export const subscriptionId = (i: number) => `sub_${String(i).padStart(2, '0')}`;
const excerpt = '{"ok":true,"received":"evt","note":"thanks, stored for processing"}'.padEnd(100, '.');

/** The n-th attempt: 50 subscriptions in turn, 5 attempts (to 5 subscriptions) per event, 0.5 s apart. */
export function attemptDoc(n: number, epochMs = Date.UTC(2026, 10, 1)) {
  const failed = n % 20 === 0;
  return {
    _id: `att_${n}`,
    subscription_id: subscriptionId(n % subscriptionCount),
    event_id: `evt_${Math.floor(n / 5)}`,
    attempt: 1,
    started_at: new Date(epochMs + n * 500),
    state: failed ? 'failed' : 'delivered',
    outcome: failed ? 'http_error' : 'delivered',
    status_code: failed ? 503 : 200,
    duration_ms: 5 + (n % 200),
    url: `https://hooks.example.com/${subscriptionId(n % subscriptionCount)}/receive`,
    response_excerpt: excerpt,
  };
}

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

/** A short name for an error, as a table cell: SQLITE_BUSY, or its first line cut to 80 characters. */
export function errorKind(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  if (/SQLITE_BUSY|database is locked/i.test(text)) return 'SQLITE_BUSY';
  const line = text.split('\n')[0]!.replace(/\|/g, '/').trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

/** One measurement: `total` calls asked for, the ms of each that succeeded, failures by {@link errorKind}, the time limit (s) when it ran into it. */
export interface Measured {
  total: number;
  times: number[];
  errors: Record<string, number>;
  seconds: number;
  timedOutAfter?: number;
}

export const tableHeader =
  '| Backend | N | bulk insert docs/s | findOne `_id` p50 / p99 ms | sort+limit 20 p50 / p99 ms | 2-field equality p50 ms | updateOne ×16: ops/s, errors | insertOne p50 ms |\n' +
  '|---|---|---|---|---|---|---|---|';

const thousands = (n: number) => n.toLocaleString('en-US');
/** Milliseconds: one decimal below 10, whole above. */
const ms = (v: number) => (!Number.isFinite(v) ? '–' : v < 10 ? v.toFixed(1) : String(Math.round(v)));
const errorCount = (m: Measured) => Object.values(m.errors).reduce((a, b) => a + b, 0);
const errorText = (m: Measured) =>
  Object.entries(m.errors)
    .map(([kind, n]) => `${n}× ${kind}`)
    .join(', ');

/** A latency cell: p50 (and p99), "> 60 s (k of n)" past the limit, the error when every call failed. */
export function latencyCell(m: Measured, withP99: boolean): string {
  const sorted = [...m.times].sort((a, b) => a - b);
  const p50 = ms(percentile(sorted, 0.5));
  const failed = errorCount(m) ? `; ${errorText(m)}` : '';
  if (m.timedOutAfter !== undefined) return `> ${m.timedOutAfter} s (${m.times.length} of ${m.total}${sorted.length ? `, p50 ${p50}` : ''}${failed})`;
  if (!sorted.length) return `all failed: ${errorText(m)}`;
  return (withP99 ? `${p50} / ${ms(percentile(sorted, 0.99))}` : p50) + failed;
}

/** The concurrent updates: succeeded per second, and errors by kind. */
export function updatesCell(m: Measured): string {
  const rate = m.seconds > 0 ? m.times.length / m.seconds : 0;
  const errors = errorCount(m) ? `${errorCount(m)} errors (${errorText(m)})` : '0 errors';
  const limit = m.timedOutAfter !== undefined ? `> ${m.timedOutAfter} s (${m.times.length + errorCount(m)} of ${m.total}): ` : '';
  return `${limit}${rate >= 100 ? Math.round(rate) : rate.toFixed(1)}/s, ${errors}`;
}

/** The bulk insert to N: docs/s, or how far it got within the limit. */
export function insertCell(docs: number, m: Measured, reached: number): string {
  const rate = thousands(m.seconds > 0 ? Math.round(docs / m.seconds) : 0);
  return m.timedOutAfter !== undefined ? `> ${m.timedOutAfter} s (reached ${thousands(reached)}, ${rate}/s)` : rate;
}

/** One markdown row: the cells measured, then the error that stopped the size, then empty cells. */
export function formatRow(backend: Backend, size: number, measured: string[], error?: string): string {
  const cells = error === undefined ? [...measured] : [...measured, `error: ${error.split('\n')[0]!.replace(/\|/g, '/').slice(0, 200)}`];
  while (cells.length < 6) cells.push('');
  return `| ${[backend, thousands(size), ...cells].join(' | ')} |`;
}
