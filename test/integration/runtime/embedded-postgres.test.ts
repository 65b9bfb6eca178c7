import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureIndexes } from '../../../src/db/indexes';
import { loadStackConfig } from '../../../stack/config/config';
import { findPostgres } from '../../../stack/runtime/postgres';
import { descendants } from '../../../stack/runtime/proc-tree';
import { type PrivateMongo, startPrivateMongo, tempDir } from '../../support/servers';

const backend = loadStackConfig({ EMBEDDED_DB_BACKEND: process.env.EMBEDDED_DB_BACKEND }).mongo.embeddedBackend;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Runs SQL in FerretDB's database with the installation's psql; rows as tab-separated lines. */
function sql(server: PrivateMongo, query: string): string[] {
  const pg = server.postgres;
  if (!pg) throw new Error('this database has no PostgreSQL');
  const psql = join(findPostgres()!.binDir, 'psql');
  const port = new URL(pg.url).port;
  const r = spawnSync(psql, ['-h', '127.0.0.1', '-p', port, '-U', 'postgres', '-d', 'ferretdb', '-AtF', '\t', '-c', query], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`);
  return r.stdout.split('\n').filter(Boolean);
}

async function withServer<T>(fn: (server: PrivateMongo, client: MongoClient) => Promise<T>): Promise<T> {
  const dataDir = tempDir('ferretdb-pg');
  dirs.push(dataDir);
  const server = await startPrivateMongo(dataDir);
  const client = new MongoClient(server.uri);
  try {
    return await fn(server, client);
  } finally {
    await client.close();
    await server.stop();
  }
}

describe.runIf(backend === 'postgresql')('embedded FerretDB on PostgreSQL', () => {
  it('gives every index the service declares a GIN companion, and equality filters use it', async () => {
    await withServer(async (server, client) => {
      const db = client.db('index_probe');
      await ensureIndexes(db);
      const rows = sql(server, "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'index_probe'");
      const btrees = rows.filter((r) => r.includes('USING btree'));
      const gins = new Set(rows.filter((r) => r.includes('USING gin')).map((r) => r.split('\t')[0]));
      expect(btrees.length).toBeGreaterThan(10);
      for (const row of btrees) {
        const name = row.split('\t')[0]!;
        expect(gins, `no GIN companion for ${row}`).toContain(`${name.slice(0, 59)}_gin`);
      }

      // The filter FerretDB sends for find({subscription_id}), planned as it plans it (a custom plan).
      const table = sql(server, "SELECT tablename FROM pg_tables WHERE schemaname = 'index_probe' AND tablename LIKE 'attempts%'")[0]!;
      await db.collection('attempts').insertMany(
        Array.from({ length: 2000 }, (_, i) => ({ _id: `att_${i}` as never, subscription_id: `sub_${i % 40}`, started_at: new Date() })),
      );
      sql(server, `ANALYZE index_probe.${table}`);
      const plan = sql(
        server,
        `PREPARE q(text, jsonb) AS SELECT _jsonb FROM index_probe.${table} WHERE _jsonb->$1 @> $2; ` +
          `SET plan_cache_mode = force_custom_plan; EXPLAIN EXECUTE q('subscription_id', '"sub_7"')`,
      ).join('\n');
      expect(plan).toContain('Bitmap Index Scan on');
      expect(plan).not.toContain('Seq Scan');
      expect(await db.collection('attempts').countDocuments({ subscription_id: 'sub_7' })).toBe(50);
    });
  });

  it('loses no acknowledged write when FerretDB and PostgreSQL are killed at once', async () => {
    const dataDir = tempDir('ferretdb-pg-crash');
    dirs.push(dataDir);
    const first = await startPrivateMongo(dataDir);
    const port = Number(new URL(first.uri).port);
    const writer = new MongoClient(first.uri);
    const things = writer.db('crash_test').collection<{ _id: string; n: number }>('things');
    for (let i = 0; i < 200; i += 1) await things.insertOne({ _id: `doc_${i}`, n: i });
    await things.updateOne({ _id: 'doc_7' }, { $set: { n: -7 } });
    // As a crash would: every PostgreSQL process and FerretDB at once, none shutting down cleanly.
    const pgPid = first.postgres!.process.pid!;
    for (const pid of [pgPid, ...descendants(pgPid)]) process.kill(pid, 'SIGKILL');
    await first.process.kill();
    await first.postgres!.process.exited;
    await writer.close().catch(() => undefined);

    const second = await startPrivateMongo(dataDir, port);
    const reader = new MongoClient(second.uri);
    try {
      const docs = await reader.db('crash_test').collection<{ _id: string; n: number }>('things').find({}).toArray();
      expect(docs).toHaveLength(200);
      expect(docs.find((d) => d._id === 'doc_7')?.n).toBe(-7);
    } finally {
      await reader.close();
      await second.stop();
    }
  });
});
