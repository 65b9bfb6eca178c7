import { existsSync, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { aptInstall } from './apt';
import { findOnPath } from './binaries';
import { BinaryError } from './build-cache';
import { getFreePort } from './ports';
import { type LineSink, ManagedProcess, waitUntilReady } from './processes';

const debianServer = '/usr/bin/redis-server';

/** Finds redis-server: on PATH, or where Debian's package puts it. */
export function findRedis(pathEnv: string | undefined = process.env.PATH): string | undefined {
  return findOnPath('redis-server', pathEnv) ?? (existsSync(debianServer) ? debianServer : undefined);
}

/** Finds redis-server, installing Debian's package with apt-get when this process may (as RabbitMQ is); else fails naming the fix. */
export function requireRedis(log: (line: string) => void): string {
  const found = findRedis() ?? (aptInstall('redis-server', ['redis-server'], log) ? findRedis() : undefined);
  if (found) return found;
  throw new BinaryError('redis-server is not installed: the Redis destination tests add to it. Install it (Debian/Ubuntu: `apt-get install redis-server`).');
}

export interface LocalRedisOptions {
  server: string;
  /** Its data directory: the append-only file makes entries survive a restart on the same directory. */
  dataDir: string;
  /** Port on 127.0.0.1; a free one unless given (a restart passes the first's). */
  port?: number;
  /** The default user's password every connection must give. */
  password: string;
  onLine?: LineSink;
  readyTimeoutMs?: number;
}

export interface RunningRedis {
  /** redis://127.0.0.1:<port> (no credentials). */
  url: string;
  port: number;
  /** The server's process id (CPU accounting). */
  pid: number | undefined;
  stop: () => Promise<void>;
  /** SIGKILL, as a crash would: what it acknowledged stays in the append-only file. */
  kill: () => Promise<void>;
}

/** Starts a private Redis on loopback: its own port and directory, append-only persistence, a password. */
export async function startLocalRedis(opts: LocalRedisOptions): Promise<RunningRedis> {
  const port = opts.port ?? (await getFreePort());
  mkdirSync(opts.dataDir, { recursive: true });
  const server = new ManagedProcess({
    name: 'redis-server',
    command: opts.server,
    // Every write fsynced: a stop and start keeps what Redis acknowledged.
    args: ['--port', String(port), '--bind', '127.0.0.1', '--dir', opts.dataDir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--requirepass', opts.password, '--daemonize', 'no'],
    ...(opts.onLine ? { onLine: opts.onLine } : {}),
  });
  try {
    await waitUntilReady(server, () => answersPing(port), opts.readyTimeoutMs ?? 30_000);
  } catch (err) {
    await server.kill();
    throw err;
  }
  return { url: `redis://127.0.0.1:${port}`, port, pid: server.pid, stop: () => server.stop(), kill: () => server.kill() };
}

/** Whether the port answers a RESP PING (an auth error counts: the server is up and speaking). */
function answersPing(port: number): Promise<boolean | string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (answer: boolean | string) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(2000, () => done('no answer to PING'));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (chunk: Buffer) => {
      const line = chunk.toString('latin1');
      done(line.startsWith('+PONG') || line.startsWith('-NOAUTH') ? true : `not ready: ${line.trim()}`);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}
