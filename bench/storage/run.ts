/**
 * `npm run bench:storage`: what the embedded database's storage costs, per FerretDB backend; see
 * bench/README.md. One after another, on free loopback ports in a temp directory deleted at the
 * end: FerretDB on SQLite, on a private PostgreSQL with the GIN companions, and on PostgreSQL
 * without them. Each grows one `attempts`-like collection through the sizes, a row per size.
 * The servers start from the launcher's parts, not through it: it would run a `mongod` on PATH.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Collection, MongoClient } from 'mongodb';
import { ferretDb, resolveBinary } from '../../stack/runtime/binaries';
import { type FerretDbBackend, startLocalMongo } from '../../stack/runtime/local-mongo';
import { startLocalPostgres } from '../../stack/runtime/local-postgres';
import { requirePostgres } from '../../stack/runtime/postgres';
import { getFreePort } from '../../stack/runtime/ports';
import { createLifecycle } from '../../stack/harness/lifecycle';
import { loadAverage } from '../../stack/harness/proc';
import { loadStackConfig } from '../../stack/config/config';
import { attemptDoc, type Backend, errorKind, formatRow, insertCell, latencyCell, type Measured, parseStorageOptions } from './table';
import { seededRandom, storageUsage, subscriptionCount, subscriptionId, tableHeader, updatesCell } from './table';

type Attempts = Collection<ReturnType<typeof attemptDoc>>;
const log = (line: string) => process.stderr.write(`[storage] ${line}\n`);

let opts: ReturnType<typeof parseStorageOptions>;
try {
  opts = parseStorageOptions(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${storageUsage}`);
  process.exit(64);
}

const startedAt = performance.now();
// Room to stop the servers before the lifecycle's watchdog strikes.
const deadline = startedAt + opts.maxSeconds * 1000 - 20_000;
const life = createLifecycle(opts.maxSeconds, log);
const dir = mkdtempSync(join(tmpdir(), 'webhook-storage-bench-'));
life.cleanups.push({ name: 'temp dir', fn: () => rmSync(dir, { recursive: true, force: true }) });
const config = loadStackConfig({ BINARY_CACHE_DIR: process.env.BINARY_CACHE_DIR, POSTGRES_BIN_DIR: process.env.POSTGRES_BIN_DIR });
const binary = (await resolveBinary(ferretDb, { explicitPath: process.env.FERRETDB_PATH, cacheDir: config.binaryCacheDir, log })).path;
// `?` outside a git checkout.
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout?.trim() || '?';
const loadAtStart = loadAverage();
process.stdout.write(
  `Storage bench — ${new Date().toISOString()} — commit ${commit}\n` +
    `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; load average ${loadAtStart.join(' ')} at start\n` +
    `FerretDB ${binary}; sizes ${opts.sizes.join(', ')}; each measurement limited to ${opts.limitSeconds} s, the run to ${opts.maxSeconds} s\n\n${tableHeader}\n`,
);
const notes: string[] = [];

/** A started backend: the wire URI, SQL on FerretDB's PostgreSQL database, and a stop. */
interface Servers {
  uri: string;
  psql?: (sql: string) => Promise<string>;
  stop: () => Promise<void>;
}

/**
 * Starts FerretDB on `backend` (PostgreSQL with fsync on, as the service runs it), drops the
 * companions for `pg-nogin`, and makes the collection's index as src/db/indexes.ts does, before
 * any document.
 */
async function startBackend(backend: Backend): Promise<Servers> {
  // Their output is not shown: a failed start reports the last lines.
  const ferret = async (b: FerretDbBackend) => startLocalMongo({ kind: 'ferretdb', binary, port: await getFreePort(), dataDir: join(dir, backend), backend: b });
  let servers: Servers;
  if (backend === 'sqlite') servers = await ferret({ kind: 'sqlite' });
  else {
    const install = requirePostgres(config.mongo.postgresBinDir, log);
    const pg = await startLocalPostgres({ install, port: await getFreePort(), dataDir: join(dir, backend, 'postgres'), ownedRoot: dir });
    const args = ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', `${pg.url}/ferretdb`, '-c'];
    const psql = async (sql: string) => (await promisify(execFile)(join(install.binDir, 'psql'), [...args, sql], { timeout: 30_000 })).stdout.trim();
    const m = await ferret({ kind: 'postgresql', url: pg.url }).catch(async (err: unknown) => {
      await pg.stop();
      throw err;
    });
    servers = { uri: m.uri, psql, stop: () => m.stop().then(() => pg.stop()) };
  }
  life.cleanups.push({ name: backend, fn: servers.stop });
  try {
    // Without companions: FerretDB has made none yet (a note below shows it), and the launcher's triggers that make them go.
    if (backend === 'pg-nogin') await servers.psql!('DROP EVENT TRIGGER ferretdb_gin_on_create; DROP EVENT TRIGGER ferretdb_gin_on_drop;');
    const client = await new MongoClient(servers.uri, { serverSelectionTimeoutMS: 10_000 }).connect();
    await client.db('storage_bench').collection('attempts').createIndex({ subscription_id: 1, started_at: -1 }, { name: 'subscription_newest' });
    await client.close();
    if (servers.psql) {
      notes.push(`${backend}: GIN companions: ${(await servers.psql(`SELECT string_agg(indexname, ', ' ORDER BY indexname) FROM pg_indexes WHERE indexname LIKE '%\\_gin'`)) || 'none'}`);
      log(notes.at(-1)!);
    }
    return servers;
  } catch (err) {
    await servers.stop();
    throw err;
  }
}

/**
 * `total` calls, `concurrency` at a time, on a client of its own, until done or the limit
 * (`limitSeconds` × `factor`, within what the run has left); calls still running then are
 * ended by closing the client, and not counted.
 */
async function timedCalls(uri: string, total: number, concurrency: number, call: (c: Attempts, i: number) => Promise<unknown>, factor = 1): Promise<Measured> {
  const left = deadline - performance.now();
  if (left < 2000) throw new Error('not run: --max-seconds reached');
  const limit = Math.min(opts.limitSeconds * 1000 * factor, left);
  const client = await new MongoClient(uri, { maxPoolSize: 20, serverSelectionTimeoutMS: 10_000 }).connect();
  const c: Attempts = client.db('storage_bench').collection('attempts');
  const m: Measured = { total, times: [], errors: {}, seconds: 0 };
  const start = performance.now();
  let over = false;
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < total && !over; i = next++) {
      const t0 = performance.now();
      try {
        await call(c, i);
        if (!over) m.times.push(performance.now() - t0);
      } catch (err) {
        if (!over) m.errors[errorKind(err)] = (m.errors[errorKind(err)] ?? 0) + 1;
      }
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const limited = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), limit)));
  over = await Promise.race([Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker)).then(() => false), limited]);
  clearTimeout(timer);
  m.seconds = (performance.now() - start) / 1000;
  if (over) m.timedOutAfter = Math.round(limit / 1000);
  await client.close(over).catch(() => {});
  return m;
}

const rand = seededRandom(20261124);
const pick = (n: number) => Math.floor(rand() * n);
let extraId = 900_000_000;
const fail = (message: string) => {
  throw new Error(message);
};

/** Grows the collection from `from` to `size` docs, then measures as bench/README.md's table says; pushes each cell as it goes. */
async function measureSize(uri: string, from: number, size: number, cells: string[]): Promise<void> {
  let inserted = 0;
  const batch = async (c: Attempts, b: number) => {
    const docs = Array.from({ length: Math.min(1000, size - from - b * 1000) }, (_, k) => attemptDoc(from + b * 1000 + k));
    await c.insertMany(docs, { ordered: false });
    inserted += docs.length;
  };
  // 60 s (the limit) per 20,000 docs: a floor of 333 docs/s.
  const insert = await timedCalls(uri, Math.ceil((size - from) / 1000), 1, batch, Math.max(1, Math.ceil((size - from) / 20_000)));
  cells.push(insertCell(inserted, insert, from + inserted));
  const errors = Object.entries(insert.errors).map(([kind, n]) => `${n}× ${kind}`);
  if (from + inserted < size) throw new Error(`collection reached ${from + inserted} of ${size} docs${errors.length ? `: ${errors.join(', ')}` : ''}`);

  const findById = await timedCalls(uri, 200, 1, async (c) => (await c.findOne({ _id: `att_${pick(size)}` })) ?? fail('findOne found nothing'));
  cells.push(latencyCell(findById, true));
  const sorted = await timedCalls(uri, 20, 1, async (c) => {
    const page = await c.find({ subscription_id: subscriptionId(pick(subscriptionCount)) }).sort({ started_at: -1 }).limit(20).toArray();
    if (!page.length) fail('sort+limit found nothing');
  });
  cells.push(latencyCell(sorted, true));
  const twoFields = await timedCalls(uri, 50, 1, async (c) => {
    const d = attemptDoc(pick(size));
    const found = await c.find({ subscription_id: d.subscription_id, event_id: d.event_id }).toArray();
    if (found.length !== 1) fail(`two-field equality returned ${found.length} docs`);
  });
  cells.push(latencyCell(twoFields, false));
  const updates = await timedCalls(uri, 400, 16, async (c) => {
    const r = await c.updateOne({ _id: `att_${pick(size)}` }, { $set: { state: 'delivered', outcome: 'delivered', status_code: 200, duration_ms: pick(500) } });
    if (r.matchedCount !== 1) fail(`updateOne matched ${r.matchedCount}`);
  });
  cells.push(updatesCell(updates));
  const insertOne = await timedCalls(uri, 100, 1, async (c) => {
    const id = extraId++;
    // An event of its own, so the two-field lookups of the next size still match one doc.
    await c.insertOne({ ...attemptDoc(size + pick(size)), _id: `att_${id}`, event_id: `evt_${id}` });
  });
  cells.push(latencyCell(insertOne, false));
}

let exitCode = 0;
try {
  for (const backend of opts.backends) {
    log(`${backend}: starting`);
    const servers = await startBackend(backend).catch((err: Error) => err);
    if (servers instanceof Error) {
      // A backend that did not start fails the run.
      exitCode = 1;
      for (const size of opts.sizes) process.stdout.write(`${formatRow(backend, size, [], servers.message)}\n`);
      continue;
    }
    let from = 0;
    for (const size of opts.sizes) {
      const cells: string[] = [];
      log(`${backend}: ${size} docs`);
      const error = await measureSize(servers.uri, from, size, cells).then(
        () => undefined,
        (err: Error) => err.message,
      );
      process.stdout.write(`${formatRow(backend, size, cells, error)}\n`);
      if (error !== undefined) {
        // The collection is not at this size: the larger ones cannot be measured.
        for (const s of opts.sizes.filter((s) => s > size)) process.stdout.write(`${formatRow(backend, s, [], `not run: ${backend} did not reach ${size}`)}\n`);
        break;
      }
      from = size;
    }
    if (servers.psql) notes.push(`${backend}: database size at the end ${await servers.psql(`SELECT pg_size_pretty(pg_database_size('ferretdb'))`).catch((err: Error) => err.message)}`);
    await servers.stop();
  }
} finally {
  const loadAtEnd = loadAverage();
  const busy = Math.max(loadAtStart[0] ?? 0, loadAtEnd[0] ?? 0) > 4 ? ' (above 4: a busy machine)' : '';
  const seconds = Math.round((performance.now() - startedAt) / 1000);
  process.stdout.write(`\n${notes.map((n) => `${n}\n`).join('')}Load average ${loadAtStart.join(' ')} at start, ${loadAtEnd.join(' ')} at end${busy}; ${seconds} s in all\n`);
  life.disarm();
  await life.cleanup();
}
process.exit(exitCode);
