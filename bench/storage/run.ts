/**
 * `npm run bench:storage`: what the embedded database's storage costs, per FerretDB backend.
 *
 * One after another, on free loopback ports in a temp directory deleted at the end: FerretDB on
 * SQLite (as EMBEDDED_DB_BACKEND=sqlite runs it), on a private PostgreSQL with the GIN companion
 * indexes (the default), and on PostgreSQL without them (event triggers dropped with psql before
 * the collection's index is made). Each grows one `attempts`-like collection through the sizes
 * and prints a markdown row per size. See bench/README.md.
 *
 *   npm run bench:storage -- [--sizes 5000,20000,100000] [--backends sqlite,pg,pg-nogin]
 *                            [--limit-seconds 60] [--max-seconds 1500]
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Collection, MongoClient } from 'mongodb';
import { loadConfig } from '../lib/service';
import { ferretDb, resolveBinary } from '../../src/runtime/binaries';
import { startLocalMongo } from '../../src/runtime/local-mongo';
import { startLocalPostgres } from '../../src/runtime/local-postgres';
import { requirePostgres } from '../../src/runtime/postgres';
import { getFreePort } from '../../src/runtime/ports';
import { createLifecycle } from '../lib/lifecycle';
import { loadAverage } from '../lib/proc';
import {
  attemptDoc,
  type Backend,
  errorKind,
  formatRow,
  type Measured,
  parseStorageOptions,
  type Row,
  seededRandom,
  storageUsage,
  subscriptionCount,
  subscriptionId,
  tableHeader,
} from './table';

type Attempt = ReturnType<typeof attemptDoc>;

const log = (line: string) => process.stderr.write(`[storage] ${line}\n`);
const exec = promisify(execFile);

let opts: ReturnType<typeof parseStorageOptions>;
try {
  opts = parseStorageOptions(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${storageUsage}`);
  process.exit(64);
}
if (opts.help) {
  process.stdout.write(storageUsage);
  process.exit(0);
}

const startedAt = performance.now();
// Room to stop the servers before the watchdog of the lifecycle strikes.
const deadline = startedAt + opts.maxSeconds * 1000 - 20_000;
const life = createLifecycle(opts.maxSeconds, log);
const dir = mkdtempSync(join(tmpdir(), 'webhook-storage-bench-'));
life.cleanups.push({ name: 'temp dir', fn: () => rmSync(dir, { recursive: true, force: true }) });

const config = loadConfig({ BINARY_CACHE_DIR: process.env.BINARY_CACHE_DIR, POSTGRES_BIN_DIR: process.env.POSTGRES_BIN_DIR });
const binary = (await resolveBinary(ferretDb, { explicitPath: process.env.FERRETDB_PATH, cacheDir: config.binaryCacheDir, log })).path;
const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return '?';
  }
})();
const loadAtStart = loadAverage();

process.stdout.write(
  `Storage bench — ${new Date().toISOString()} — commit ${commit}\n` +
    `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; load average ${loadAtStart.join(' ')} at start\n` +
    `FerretDB ${binary}; sizes ${opts.sizes.join(', ')}; each measurement limited to ${opts.limitSeconds} s, the run to ${opts.maxSeconds} s\n\n` +
    `${tableHeader}\n`,
);

/** What a started backend offers: the wire URI, and SQL on FerretDB's PostgreSQL database. */
interface Servers {
  uri: string;
  psql?: (sql: string) => Promise<string>;
  stop: () => Promise<void>;
}

/** The first five lines of a server's output go to stderr; the rest are counted. */
function sink(name: string): (line: string) => void {
  let n = 0;
  return (line) => {
    if (++n <= 5) log(`${name}: ${line}`);
    else if (n === 6) log(`${name}: (more lines not shown)`);
  };
}

async function startBackend(backend: Backend): Promise<Servers> {
  const dataDir = join(dir, backend);
  if (backend === 'sqlite') {
    const m = await startLocalMongo({ kind: 'ferretdb', binary, port: await getFreePort(), dataDir, backend: { kind: 'sqlite' }, onLine: sink('ferretdb') });
    return { uri: m.uri, stop: m.stop };
  }
  const install = requirePostgres(config.mongo.postgresBinDir, log);
  // fsync on, as the service runs it (`fast` is for tests).
  const pg = await startLocalPostgres({ install, port: await getFreePort(), dataDir: join(dataDir, 'postgres'), ownedRoot: dir, onLine: sink('postgres') });
  try {
    const m = await startLocalMongo({ kind: 'ferretdb', binary, port: await getFreePort(), dataDir, backend: { kind: 'postgresql', url: pg.url }, onLine: sink('ferretdb') });
    const psql = async (sql: string) =>
      (await exec(join(install.binDir, 'psql'), ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', `${pg.url}/ferretdb`, '-c', sql], { timeout: 30_000 })).stdout.trim();
    return { uri: m.uri, psql, stop: () => m.stop().then(() => pg.stop()) };
  } catch (err) {
    await pg.stop();
    throw err;
  }
}

/** Without companions: the launcher's event triggers and any companion made so far, dropped. */
const dropCompanions = `
DROP EVENT TRIGGER ferretdb_gin_on_create;
DROP EVENT TRIGGER ferretdb_gin_on_drop;
DO $$ DECLARE r record; BEGIN
  FOR r IN SELECT schemaname, indexname FROM pg_indexes WHERE indexname LIKE '%\\_gin' LOOP
    EXECUTE format('DROP INDEX %I.%I', r.schemaname, r.indexname);
  END LOOP;
END $$;`;

/** Milliseconds left for one measurement: its limit, or what the whole run has left. */
function limitMs(factor = 1): number {
  const left = deadline - performance.now();
  if (left < 2000) throw new Error('not run: --max-seconds reached');
  return Math.min(opts.limitSeconds * 1000 * factor, left);
}

/**
 * `total` calls, `concurrency` at a time, until done or `limit` ms passed. Calls still running
 * at the limit are abandoned (the caller's client is then closed, which ends them).
 */
async function timedCalls(total: number, concurrency: number, limit: number, call: (i: number) => Promise<unknown>): Promise<Measured> {
  const m: Measured = { total, times: [], errors: {}, seconds: 0 };
  const start = performance.now();
  let next = 0;
  let over = false;
  const worker = async () => {
    while (next < total && !over) {
      const i = next++;
      const t0 = performance.now();
      try {
        await call(i);
        if (!over) m.times.push(performance.now() - t0);
      } catch (err) {
        const kind = errorKind(err);
        if (!over) m.errors[kind] = (m.errors[kind] ?? 0) + 1;
      }
      if (performance.now() - start > limit && next < total) over = true;
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const done = Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker)).then(() => false);
  const limited = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), limit)));
  if (await Promise.race([done, limited])) over = true;
  clearTimeout(timer);
  m.seconds = (performance.now() - start) / 1000;
  if (over) m.timedOutAfter = Math.round(limit / 1000);
  return m;
}

/** Runs `fn` on a client of its own, closed (forcibly after a time limit) when it returns. */
async function withAttempts<T extends { timedOutAfter?: number }>(uri: string, poolSize: number, fn: (c: Collection<Attempt>) => Promise<T>): Promise<T> {
  const client = new MongoClient(uri, { maxPoolSize: poolSize, serverSelectionTimeoutMS: 10_000 });
  await client.connect();
  let result: T | undefined;
  try {
    result = await fn(client.db('storage_bench').collection<Attempt>('attempts'));
    return result;
  } finally {
    await client.close(result?.timedOutAfter !== undefined).catch(() => {});
  }
}

const rand = seededRandom(20261124);
const pick = (n: number) => Math.floor(rand() * n);
let extraId = 900_000_000;

/** Grows the collection from `from` to `size` docs, then measures; fills `row` as it goes. */
async function measureSize(uri: string, from: number, row: Row): Promise<void> {
  const size = row.size;
  const batch = 1000;
  const batches = Math.ceil((size - from) / batch);
  // 60 s (the limit) per 20,000 docs: a floor of 333 docs/s.
  let inserted = 0;
  const ins = await withAttempts(uri, 2, (c) =>
    timedCalls(batches, 1, limitMs(Math.max(1, Math.ceil((size - from) / 20_000))), async (b) => {
      const first = from + b * batch;
      const docs = Array.from({ length: Math.min(batch, size - first) }, (_, k) => attemptDoc(first + k));
      await c.insertMany(docs, { ordered: false });
      inserted += docs.length;
    }),
  );
  row.insert = { docs: inserted, seconds: ins.seconds, reached: from + inserted, ...(ins.timedOutAfter !== undefined ? { timedOutAfter: ins.timedOutAfter } : {}) };
  if (from + inserted < size) {
    const errs = Object.entries(ins.errors).map(([k, n]) => `${n}× ${k}`).join(', ');
    throw new Error(`collection reached ${from + inserted} of ${size} docs${errs ? `: ${errs}` : ''}`);
  }

  row.findById = await withAttempts(uri, 2, (c) =>
    timedCalls(200, 1, limitMs(), async () => {
      if (!(await c.findOne({ _id: `att_${pick(size)}` }))) throw new Error('findOne found nothing');
    }),
  );
  row.sorted = await withAttempts(uri, 2, (c) =>
    timedCalls(20, 1, limitMs(), async () => {
      const page = await c.find({ subscription_id: subscriptionId(pick(subscriptionCount)) }).sort({ started_at: -1 }).limit(20).toArray();
      if (!page.length) throw new Error('sort+limit found nothing');
    }),
  );
  row.twoFields = await withAttempts(uri, 2, (c) =>
    timedCalls(50, 1, limitMs(), async () => {
      const d = attemptDoc(pick(size));
      const found = await c.find({ subscription_id: d.subscription_id, event_id: d.event_id }).toArray();
      if (found.length !== 1) throw new Error(`two-field equality returned ${found.length} docs`);
    }),
  );
  row.updates = await withAttempts(uri, 20, (c) =>
    timedCalls(400, 16, limitMs(), async () => {
      const r = await c.updateOne({ _id: `att_${pick(size)}` }, { $set: { state: 'delivered', outcome: 'delivered', status_code: 200, duration_ms: pick(500) } });
      if (r.matchedCount !== 1) throw new Error(`updateOne matched ${r.matchedCount}`);
    }),
  );
  row.insertOne = await withAttempts(uri, 2, (c) =>
    timedCalls(100, 1, limitMs(), async () => {
      const n = extraId++;
      // An event of its own, so the two-field lookups of the next size still match one doc.
      await c.insertOne({ ...attemptDoc(size + pick(size)), _id: `att_${n}`, event_id: `evt_${n}` });
    }),
  );
}

const notes: string[] = [];
let exitCode = 0;
try {
  for (const backend of opts.backends) {
    let servers: Servers;
    try {
      log(`${backend}: starting`);
      servers = await startBackend(backend);
    } catch (err) {
      exitCode = 1;
      for (const size of opts.sizes) process.stdout.write(`${formatRow({ backend, size, error: (err as Error).message })}\n`);
      continue;
    }
    life.cleanups.push({ name: backend, fn: servers.stop });
    try {
      if (backend === 'pg-nogin') await servers.psql!(dropCompanions);
      // As src/db/indexes.ts makes it, before any document.
      await withAttempts(servers.uri, 2, async (c) => {
        await c.createIndex({ subscription_id: 1, started_at: -1 }, { name: 'subscription_newest' });
        return {};
      });
      if (servers.psql) {
        const gin = await servers.psql(`SELECT string_agg(indexname, ', ' ORDER BY indexname) FROM pg_indexes WHERE indexname LIKE '%\\_gin'`);
        notes.push(`${backend}: GIN companions: ${gin || 'none'}`);
        log(notes.at(-1)!);
      }
    } catch (err) {
      exitCode = 1;
      for (const size of opts.sizes) process.stdout.write(`${formatRow({ backend, size, error: (err as Error).message })}\n`);
      await servers.stop();
      continue;
    }
    let from = 0;
    for (const size of opts.sizes) {
      const row: Row = { backend, size };
      log(`${backend}: ${size} docs`);
      try {
        await measureSize(servers.uri, from, row);
      } catch (err) {
        row.error = (err as Error).message;
      }
      process.stdout.write(`${formatRow(row)}\n`);
      if (row.error) {
        // The collection is not at this size: the larger ones cannot be measured.
        for (const s of opts.sizes.filter((s) => s > size)) process.stdout.write(`${formatRow({ backend, size: s, error: `not run: ${backend} did not reach ${size}` })}\n`);
        break;
      }
      from = size;
    }
    if (servers.psql) {
      const bytes = await servers.psql(`SELECT pg_size_pretty(pg_database_size('ferretdb'))`).catch((err: Error) => err.message);
      notes.push(`${backend}: database size at the end ${bytes}`);
    }
    await servers.stop();
  }
} finally {
  const loadAtEnd = loadAverage();
  process.stdout.write(
    `\n${notes.join('\n')}${notes.length ? '\n' : ''}` +
      `Load average ${loadAtStart.join(' ')} at start, ${loadAtEnd.join(' ')} at end${Math.max(loadAtStart[0] ?? 0, loadAtEnd[0] ?? 0) > 4 ? ' (above 4: a busy machine)' : ''}; ` +
      `${Math.round((performance.now() - startedAt) / 1000)} s in all\n`,
  );
  life.disarm();
  await life.cleanup();
}
process.exit(exitCode);
