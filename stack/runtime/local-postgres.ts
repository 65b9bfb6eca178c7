import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { type LineSink, ManagedProcess, waitUntilReady } from './processes';
import { type PostgresInstall, systemUser } from './postgres';

export interface LocalPostgresOptions {
  install: PostgresInstall;
  port: number;
  /** The cluster's directory; created (initdb) on first start, reused after. */
  dataDir: string;
  /** A directory this process made for its data, which it may open for the postgres user to pass through. */
  ownedRoot?: string;
  /** No fsync: for tests, which never survive an OS crash anyway (a process crash loses nothing either way). */
  fast?: boolean;
  /** PostgreSQL's `max_connections`; 200 unless given (a Temporal cluster on it needs 300). */
  maxConnections?: number;
  onLine?: LineSink;
  readyTimeoutMs?: number;
}

export interface RunningPostgres {
  /** Connection URL of the server's `postgres` superuser, without a database. */
  url: string;
  dataDir: string;
  process: ManagedProcess;
  stop: () => Promise<void>;
}

/**
 * Starts a private PostgreSQL cluster on loopback: initdb on first use, then the server.
 * PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user.
 */
export async function startLocalPostgres(opts: LocalPostgresOptions): Promise<RunningPostgres> {
  const runAs = process.getuid?.() === 0 ? postgresUser() : undefined;
  const dataDir = runAs ? reachableDataDir(opts.dataDir, opts.ownedRoot, runAs) : opts.dataDir;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (runAs) chownSync(dataDir, runAs.uid, runAs.gid);
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await initdb(opts.install, dataDir, runAs, opts.fast ?? false);

  const start = () =>
    new ManagedProcess({
      name: 'postgres',
      command: join(opts.install.binDir, 'postgres'),
      args: serverArgs(dataDir, opts.port, opts.fast ?? false, opts.maxConnections, hasStatementStats(opts.install)),
      // SIGTERM waits for every client to leave; SIGINT ends their sessions and shuts down cleanly.
      stopSignal: 'SIGINT',
      ...(runAs ?? {}),
      ...(opts.onLine ? { onLine: opts.onLine } : {}),
    });
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 30_000);
  for (;;) {
    const proc = start();
    try {
      await waitUntilReady(proc, () => isReady(opts.install, opts.port), Math.max(1000, deadline - Date.now()));
      return { url: `postgres://postgres@127.0.0.1:${opts.port}`, dataDir, process: proc, stop: () => proc.stop() };
    } catch (err) {
      await proc.stop();
      // After a crash of the server, its backends leave only once they notice: start again when they have.
      if (!orphanedBackendsRemain(err) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** The server refused to start because backends of a killed predecessor still hold its shared memory. */
function orphanedBackendsRemain(err: unknown): boolean {
  return err instanceof Error && err.message.includes('pre-existing shared memory block');
}

/**
 * The server's settings: loopback TCP only, no Unix socket (its directory may not be writable).
 * `statementStats`: pg_stat_statements preloaded, so SQL statements can be counted (`npm run bench`).
 */
export function serverArgs(dataDir: string, port: number, fast: boolean, maxConnections = 200, statementStats = false): string[] {
  const settings: Record<string, string> = {
    ...(statementStats ? { shared_preload_libraries: 'pg_stat_statements' } : {}),
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: '',
    max_connections: String(maxConnections),
    // synchronous_commit stays on: a commit is in the WAL before it is acknowledged.
    fsync: fast ? 'off' : 'on',
    full_page_writes: fast ? 'off' : 'on',
    // Statistics kept fresh as collections grow fast: FerretDB's filters are planned with the values
    // known (custom plans), and a stale estimate picks a sequential scan over the GIN index.
    autovacuum_naptime: '10s',
    autovacuum_analyze_scale_factor: '0.02',
    autovacuum_vacuum_scale_factor: '0.05',
    log_min_messages: 'warning',
    log_line_prefix: '',
  };
  return ['-D', dataDir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
}

/** Whether the installation ships pg_stat_statements (Debian's does, in the lib directory beside bin). */
function hasStatementStats(install: PostgresInstall): boolean {
  return existsSync(join(install.binDir, '..', 'lib', 'pg_stat_statements.so'));
}

function postgresUser(): { uid: number; gid: number } {
  const user = systemUser('postgres');
  if (!user) {
    throw new Error('PostgreSQL does not run as root and there is no `postgres` user: run as another user, or create it (Debian\'s postgresql package does).');
  }
  return user;
}

/**
 * The postgres user must pass through every directory above its cluster. Directories this
 * process owns for its data are opened for passing (not reading); when a directory above
 * them is closed (e.g. /root), the cluster lives under /var/lib/postgresql instead.
 */
function reachableDataDir(dataDir: string, ownedRoot: string | undefined, user: { uid: number; gid: number }): string {
  const target = resolve(dataDir);
  const owned = ownedRoot ? resolve(ownedRoot) : undefined;
  let closed = false;
  for (let dir = dirname(target); ; dir = dirname(dir)) {
    const inOwned = owned !== undefined && !relative(owned, dir).startsWith('..');
    if (existsSync(dir)) {
      const st = statSync(dir);
      const passable = st.uid === user.uid || (st.mode & 0o001) !== 0;
      if (!passable && inOwned) chmodSync(dir, st.mode | 0o011);
      else if (!passable) closed = true;
    } else if (inOwned) {
      mkdirSync(dir, { recursive: true, mode: 0o711 });
    }
    if (dir === dirname(dir)) break;
  }
  if (!closed) return target;
  const home = join('/var/lib/postgresql/webhook-service', createHash('sha256').update(target).digest('hex').slice(0, 16));
  mkdirSync(dirname(home), { recursive: true });
  chownSync(dirname(home), user.uid, user.gid);
  return home;
}

async function initdb(install: PostgresInstall, dataDir: string, runAs: { uid: number; gid: number } | undefined, fast: boolean): Promise<void> {
  // Trust on loopback only (pg_hba of initdb): the same reach as the embedded FerretDB's own port.
  const args = ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', ...(fast ? ['--no-sync'] : [])];
  const output: string[] = [];
  const code = await new Promise<number | null>((done) => {
    const child = spawn(join(install.binDir, 'initdb'), args, { stdio: ['ignore', 'pipe', 'pipe'], ...(runAs ?? {}) });
    child.stdout.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
    child.on('error', (err) => {
      output.push(err.message);
      done(-1);
    });
    child.on('exit', (c) => done(c));
  });
  if (code !== 0) throw new Error(`initdb failed (exit ${code}) for ${dataDir}:\n${output.join('').trim().split('\n').slice(-15).join('\n')}`);
}

function isReady(install: PostgresInstall, port: number): Promise<boolean> {
  return new Promise((done) => {
    const child = spawn(join(install.binDir, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres']);
    child.on('error', () => done(false));
    child.on('exit', (code) => done(code === 0));
  });
}
