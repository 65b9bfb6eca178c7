import { existsSync, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { aptInstall } from './apt';
import { findOnPath } from './binaries';
import { BinaryError } from './build-cache';
import { getFreePort } from './ports';
import { type LineSink, ManagedProcess, waitUntilReady } from './processes';

const debianServer = '/usr/sbin/nats-server';

/** Finds nats-server: on PATH, or where Debian's package puts it. */
export function findNats(pathEnv: string | undefined = process.env.PATH): string | undefined {
  return findOnPath('nats-server', pathEnv) ?? (existsSync(debianServer) ? debianServer : undefined);
}

/** Finds nats-server, installing Debian's package with apt-get when this process may (as RabbitMQ is); else fails naming the fix. */
export function requireNats(log: (line: string) => void): string {
  const found = findNats() ?? (aptInstall('nats-server', ['nats-server'], log) ? findNats() : undefined);
  if (found) return found;
  throw new BinaryError('nats-server is not installed: the NATS destination tests publish to it. Install it (Debian/Ubuntu: `apt-get install nats-server`).');
}

export interface LocalNatsOptions {
  server: string;
  /** JetStream's store: streams and their messages survive a restart on the same directory. */
  storeDir: string;
  /** Client port on 127.0.0.1; a free one unless given (a restart passes the first's). */
  port?: number;
  /** The one user every connection must authenticate as. */
  user: string;
  password: string;
  onLine?: LineSink;
  readyTimeoutMs?: number;
}

export interface RunningNats {
  /** nats://127.0.0.1:<port> (no credentials). */
  url: string;
  port: number;
  stop: () => Promise<void>;
}

/** Starts a private NATS server with JetStream on loopback: its own port and store, one user. */
export async function startLocalNats(opts: LocalNatsOptions): Promise<RunningNats> {
  const port = opts.port ?? (await getFreePort());
  mkdirSync(opts.storeDir, { recursive: true });
  const server = new ManagedProcess({
    name: 'nats-server',
    command: opts.server,
    args: ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', opts.storeDir, '--user', opts.user, '--pass', opts.password, '--server_name', `nats-${port}`],
    ...(opts.onLine ? { onLine: opts.onLine } : {}),
  });
  try {
    await waitUntilReady(server, () => speaksNats(port), opts.readyTimeoutMs ?? 30_000);
  } catch (err) {
    await server.kill();
    throw err;
  }
  return { url: `nats://127.0.0.1:${port}`, port, stop: () => server.stop() };
}

/** Whether the port greets with NATS's INFO line. */
function speaksNats(port: number): Promise<boolean | string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (answer: boolean | string) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(2000, () => done('no INFO from the server'));
    socket.once('data', (chunk: Buffer) => done(chunk.toString('latin1').startsWith('INFO ') ? true : 'not a NATS greeting'));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}
