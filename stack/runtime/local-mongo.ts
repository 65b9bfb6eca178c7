import { mkdirSync } from 'node:fs';
import { MongoClient } from 'mongodb';
import { type LineSink, ManagedProcess, waitUntilReady } from './processes';

/**
 * Where FerretDB keeps documents. PostgreSQL (a server at `url`, without a database name): its
 * indexes serve FerretDB's pushed-down filters (see ferretdb/gin-companions.sql). SQLite: files
 * in the data directory, where no filter (not even `_id`) is served by an index and concurrent
 * writers meet SQLITE_BUSY (bench/RESULTS.md, "Embedded database").
 */
export type FerretDbBackend = { kind: 'postgresql'; url: string } | { kind: 'sqlite' };

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
  process: ManagedProcess;
  stop: () => Promise<void>;
}

/** Command-line arguments for a local MongoDB-wire server. */
export function localMongoArgs(opts: LocalMongoOptions): string[] {
  if (opts.kind === 'mongod') {
    return ['--dbpath', opts.dataDir, '--port', String(opts.port), '--bind_ip', '127.0.0.1', '--quiet'];
  }
  if (opts.backend?.kind === 'postgresql') {
    return ['--listen-addr', `127.0.0.1:${opts.port}`, '--handler', 'postgresql', '--postgresql-url', `${opts.backend.url}/ferretdb`, '--log-level', 'error'];
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

/** Starts mongod or FerretDB on loopback and waits until it answers a ping (FerretDB waits for its PostgreSQL). */
export async function startLocalMongo(opts: LocalMongoOptions): Promise<RunningMongo> {
  mkdirSync(opts.dataDir, { recursive: true });
  const proc = new ManagedProcess({
    name: opts.kind,
    command: opts.binary,
    args: localMongoArgs(opts),
    ...(opts.onLine ? { onLine: opts.onLine } : {}),
  });
  const uri = `mongodb://127.0.0.1:${opts.port}/`;
  try {
    await waitUntilReady(proc, () => pingMongo(uri), opts.readyTimeoutMs ?? 60_000);
  } catch (err) {
    await proc.stop();
    throw err;
  }
  return { uri, kind: opts.kind, process: proc, stop: () => proc.stop() };
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
