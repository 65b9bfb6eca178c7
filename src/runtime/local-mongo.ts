import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { type RunningPostgres, startLocalPostgres } from './local-postgres';
import type { PostgresInstall } from './postgres';
import { type LineSink, ManagedProcess, waitUntilReady } from './processes';

/**
 * Where FerretDB keeps documents. PostgreSQL: a private cluster under the data directory, whose
 * indexes serve FerretDB's pushed-down filters (see ferretdb/gin-companions.sql). SQLite: files,
 * where only `{_id: x}` is served by an index and concurrent writers meet SQLITE_BUSY.
 */
export type FerretDbBackend =
  | { kind: 'postgresql'; install: PostgresInstall; port: number; fast?: boolean; ownedRoot?: string }
  | { kind: 'sqlite' };

export interface LocalMongoOptions {
  kind: 'mongod' | 'ferretdb';
  binary: string;
  port: number;
  /** Directory for this server's files; reused across restarts. */
  dataDir: string;
  /** FerretDB only; SQLite when left out. */
  backend?: FerretDbBackend;
  onLine?: LineSink;
  readyTimeoutMs?: number;
}

export interface RunningMongo {
  uri: string;
  kind: 'mongod' | 'ferretdb';
  /** The wire server (mongod or FerretDB): what a crash test kills. */
  process: ManagedProcess;
  /** FerretDB's PostgreSQL, when it has one. */
  postgres?: RunningPostgres;
  stop: () => Promise<void>;
}

/** Command-line arguments for a local MongoDB-wire server; `postgresUrl` when FerretDB runs on PostgreSQL. */
export function localMongoArgs(opts: LocalMongoOptions, postgresUrl?: string): string[] {
  if (opts.kind === 'mongod') {
    return ['--dbpath', opts.dataDir, '--port', String(opts.port), '--bind_ip', '127.0.0.1', '--quiet'];
  }
  if (postgresUrl) {
    return ['--listen-addr', `127.0.0.1:${opts.port}`, '--handler', 'postgresql', '--postgresql-url', `${postgresUrl}/ferretdb`, '--log-level', 'error'];
  }
  return [
    '--listen-addr',
    `127.0.0.1:${opts.port}`,
    '--handler',
    'sqlite',
    '--sqlite-url',
    // WAL (FerretDB's default) with synchronous=NORMAL: no fsync per commit, and a process crash
    // loses nothing (only an OS crash may lose the last commits), as for the embedded Temporal.
    `file:${opts.dataDir}/?_pragma=synchronous(normal)`,
    '--log-level',
    'error',
  ];
}

/** Starts mongod or FerretDB (after its PostgreSQL, if any) on loopback and waits until it answers a ping. */
export async function startLocalMongo(opts: LocalMongoOptions): Promise<RunningMongo> {
  mkdirSync(opts.dataDir, { recursive: true });
  const backend = opts.kind === 'ferretdb' && opts.backend?.kind === 'postgresql' ? opts.backend : undefined;
  const postgres = backend
    ? await startLocalPostgres({
        install: backend.install,
        port: backend.port,
        dataDir: join(opts.dataDir, 'postgres'),
        ...(backend.ownedRoot ? { ownedRoot: backend.ownedRoot } : {}),
        ...(backend.fast ? { fast: true } : {}),
        ...(opts.onLine ? { onLine: opts.onLine } : {}),
      })
    : undefined;
  const proc = new ManagedProcess({
    name: opts.kind,
    command: opts.binary,
    args: localMongoArgs(opts, postgres?.url),
    ...(opts.onLine ? { onLine: opts.onLine } : {}),
  });
  const uri = `mongodb://127.0.0.1:${opts.port}/`;
  // The wire server first: it holds connections to PostgreSQL, which then shuts down at once.
  const stop = async () => {
    await proc.stop();
    await postgres?.stop();
  };
  try {
    await waitUntilReady(proc, () => pingMongo(uri), opts.readyTimeoutMs ?? 30_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { uri, kind: opts.kind, process: proc, ...(postgres ? { postgres } : {}), stop };
}

/** True when the server at `uri` answers `ping`. */
export async function pingMongo(uri: string): Promise<boolean> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 1000, connectTimeoutMS: 1000 });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
    return true;
  } finally {
    await client.close();
  }
}
