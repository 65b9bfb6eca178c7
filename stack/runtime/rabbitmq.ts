import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { aptInstall } from './apt';
import { findOnPath } from './binaries';
import { BinaryError } from './build-cache';
import { getFreePort } from './ports';
import { type LineSink, ManagedProcess, waitUntilReady } from './processes';

/** The programs of Debian's RabbitMQ (and the Erlang runtime's epmd) a private broker needs. */
export interface RabbitInstall {
  /** rabbitmq-server without Debian's wrapper, which would switch to the rabbitmq user. */
  server: string;
  epmd: string;
}

const debianServer = '/usr/lib/rabbitmq/bin/rabbitmq-server';

/** Finds RabbitMQ: Debian's server script and the epmd on PATH (Erlang's). */
export function findRabbit(pathEnv: string | undefined = process.env.PATH): RabbitInstall | undefined {
  const epmd = findOnPath('epmd', pathEnv) ?? ['/usr/bin/epmd', '/usr/lib/erlang/bin/epmd'].find((p) => existsSync(p));
  if (!existsSync(debianServer) || !epmd) return undefined;
  return { server: debianServer, epmd };
}

/**
 * Installs Debian's rabbitmq-server with apt-get when running as root where apt-get exists (as
 * PostgreSQL and the portal tests' Chromium are installed); returns what it found afterwards.
 */
export function installRabbit(log: (line: string) => void): RabbitInstall | undefined {
  return aptInstall('rabbitmq', ['rabbitmq-server'], log) ? findRabbit() : undefined;
}

/** Finds RabbitMQ, installing it when this process may; else fails naming the fix. */
export function requireRabbit(log: (line: string) => void): RabbitInstall {
  const found = findRabbit() ?? installRabbit(log);
  if (found) return found;
  throw new BinaryError("RabbitMQ is not installed: the broker destination tests publish to it. Install it (Debian/Ubuntu: `apt-get install rabbitmq-server`).");
}

export interface LocalRabbitOptions {
  install: RabbitInstall;
  /** Its own directory: data, logs, config, the Erlang cookie. Reused by a restart. */
  baseDir: string;
  /** AMQP port on 127.0.0.1; a free one unless given (a restart passes the first's). */
  port?: number;
  /** The user the broker creates on first start, with every right on vhost `/`. */
  user: string;
  password: string;
  onLine?: LineSink;
  readyTimeoutMs?: number;
}

export interface RunningRabbit {
  /** amqp://127.0.0.1:<port> (no credentials). */
  url: string;
  port: number;
  stop: () => Promise<void>;
  /** Kills the broker at once, as a crash would. */
  kill: () => Promise<void>;
}

/**
 * Starts a private RabbitMQ node on loopback: its own AMQP port, distribution port and epmd
 * (so it never meets a system broker or another test's node), data and logs under `baseDir`.
 */
export async function startLocalRabbit(opts: LocalRabbitOptions): Promise<RunningRabbit> {
  const port = opts.port ?? (await getFreePort());
  const [distPort, epmdPort] = [await getFreePort(), await getFreePort()];
  for (const dir of ['mnesia', 'log', 'home']) mkdirSync(join(opts.baseDir, dir), { recursive: true });
  const config = join(opts.baseDir, 'rabbitmq.conf');
  writeFileSync(
    config,
    [
      `listeners.tcp.1 = 127.0.0.1:${port}`,
      `default_user = ${opts.user}`,
      `default_pass = ${opts.password}`,
      'loopback_users = none',
      // A test machine's disk is shared: never block publishers for it.
      'disk_free_limit.absolute = 1MB',
      'log.console = true',
      'log.console.level = warning',
      'log.file = false',
    ].join('\n') + '\n',
  );
  writeFileSync(join(opts.baseDir, 'enabled_plugins'), '[].\n');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: join(opts.baseDir, 'home'),
    ERL_EPMD_PORT: String(epmdPort),
    ERL_EPMD_ADDRESS: '127.0.0.1',
    RABBITMQ_NODENAME: `rabbit-${port}@localhost`,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: join(opts.baseDir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(opts.baseDir, 'log'),
    RABBITMQ_CONFIG_FILE: config,
    RABBITMQ_ENABLED_PLUGINS_FILE: join(opts.baseDir, 'enabled_plugins'),
    RABBITMQ_LOGS: '-',
    // Its own epmd, started below, stopped with it.
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-start_epmd false',
    RABBITMQ_CTL_ERL_ARGS: '-start_epmd false',
  };
  const epmd = new ManagedProcess({ name: 'epmd', command: opts.install.epmd, args: ['-port', String(epmdPort), '-address', '127.0.0.1'], env, ...(opts.onLine ? { onLine: opts.onLine } : {}) });
  const server = new ManagedProcess({ name: 'rabbitmq', command: opts.install.server, args: [], env, ...(opts.onLine ? { onLine: opts.onLine } : {}) });
  const stopBoth = async (how: 'stop' | 'kill') => {
    await server[how]();
    await epmd.stop();
  };
  try {
    await waitUntilReady(server, () => speaksAmqp(port), opts.readyTimeoutMs ?? 60_000);
  } catch (err) {
    await stopBoth('kill');
    throw err;
  }
  return { url: `amqp://127.0.0.1:${port}`, port, stop: () => stopBoth('stop'), kill: () => stopBoth('kill') };
}

/** Whether the port answers an AMQP 0-9-1 protocol header with a frame (connection.start). */
function speaksAmqp(port: number): Promise<boolean | string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (answer: boolean | string) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(2000, () => done('no AMQP answer'));
    socket.once('connect', () => socket.write(Buffer.from('AMQP\x00\x00\x09\x01', 'latin1')));
    socket.once('data', (chunk: Buffer) => done(chunk[0] === 1 ? true : 'not an AMQP frame'));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}
